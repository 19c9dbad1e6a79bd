"""The report's strength block, added up one admitted probe at a time.

``strength.score_probes`` scores a list of probes it holds all at once; the audit
instead folds each probe, in probe-id order, into running counts: the per-class
vector, the verdict reasons, the unreached oracles and the comparability key
(hashed as it goes). The figures are the strength scorer's own — each probe is
reduced and put on the verdict ladder by its functions — only never all at once.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from textcontract.audit.reading import Relation
from textcontract.audit.results._variant_records import Counted, Labels
from textcontract.canonical import canonical_json
from textcontract.strength import (
    ClassStrength,
    CoverageGap,
    OutcomeState,
    Probe,
    ProbeClass,
    ProbeRole,
    ProbeTrials,
    Recommendation,
    ReducedOutcome,
    ScoringPolicy,
    StrengthVector,
    TrialOutcome,
    Verdict,
    VerdictReason,
    denominator_sentence,
    held_reasons,
    probe_entry_json,
    reduce_trials,
    run_reasons,
)

__all__ = ["ProbeSummary", "StrengthTally", "counted_trials", "probe_trials"]

_CACHE_LIMIT = 4096
"""Distinct (labels, result) summaries kept; real corpora repeat a few, this bounds the rest."""


def probe_trials(
    probe_id: str,
    labels: Labels,
    states: tuple[OutcomeState, ...],
    waivers: tuple[str | None, ...] = (),
) -> ProbeTrials:
    """A counted variant as the strength scorer sees it: trial ``i`` has ``states[i]``
    (and ``waivers[i]``, when any trial was waived)."""
    probe = Probe(
        probe_id,
        labels.probe_class,
        labels.severity,
        labels.canary,
        clean_control=labels.relation is Relation.PRESERVE,
        exposure=labels.exposure,
    )
    oracle = labels.oracle
    named = waivers or (None,) * len(states)
    return ProbeTrials(
        probe,
        tuple(
            TrialOutcome(index, oracle, state, waiver)
            for index, (state, waiver) in enumerate(zip(states, named, strict=True))
        ),
    )


def counted_trials(probe_id: str, labels: Labels, counted: Counted) -> ProbeTrials:
    """:func:`probe_trials` of an evaluated variant."""
    return probe_trials(probe_id, labels, counted.states, counted.waivers)


@dataclass(frozen=True)
class ProbeSummary:
    """What one probe contributes, whatever its id (``trials`` and ``reduced`` name none)."""

    trials: ProbeTrials
    reduced: ReducedOutcome
    reasons: frozenset[VerdictReason]

    @cached_property
    def _entry(self) -> dict[str, Any]:
        return probe_entry_json(self.trials, self.reduced)

    def entry_json(self, probe_id: str) -> dict[str, Any]:
        """The probe's entry in ``strength.probes``: the scorer's, with ``probe_id`` set.

        The id is the entry's only part that differs between probes of one summary
        (first, and first in ``reduced``), so the entry is built once per summary and
        copied with the id put in; the lists inside are shared, never changed.
        """
        entry = dict(self._entry)
        entry["probe_id"] = probe_id
        entry["reduced"] = {**entry["reduced"], "probe_id": probe_id}
        return entry


class _Counts:
    __slots__ = ("caught", "eligible", "exercised", "trials")

    def __init__(self) -> None:
        self.eligible = self.caught = self.exercised = self.trials = 0


class StrengthTally:
    """Adds admitted probes up; :meth:`add` them in probe-id order."""

    def __init__(self, policy: ScoringPolicy) -> None:
        self.policy = policy
        self._summaries: dict[tuple[Labels, Counted], ProbeSummary] = {}
        self._classes = {probe_class: _Counts() for probe_class in ProbeClass}
        self._unreached: set[str] = set()
        self._comparable = True
        self._reasons: set[VerdictReason] = set()
        # canonical JSON of {"policy": digest, "probes": [sorted ids]}, written as the ids come
        self._key = hashlib.sha256(b'{"policy":' + canonical_json(policy.digest) + b',"probes":[')
        self._probes = 0
        self.waived: dict[str, list[str]] = {}
        """Per waiver id, the ``<probe_id>#<trial_index>`` it waived, in probe-id order."""

    def summary(self, labels: Labels, counted: Counted) -> ProbeSummary:
        key = (labels, counted)
        found = self._summaries.get(key)
        if found is None:
            trials = counted_trials("", labels, counted)
            found = ProbeSummary(
                trials,
                reduce_trials(trials, self.policy.catch_threshold),
                held_reasons(trials, self.policy),
            )
            if len(self._summaries) >= _CACHE_LIMIT:
                self._summaries.clear()
            self._summaries[key] = found
        return found

    def add(self, probe_id: str, labels: Labels, counted: Counted) -> None:
        summary = self.summary(labels, counted)
        trials, reduced = summary.trials, summary.reduced
        if trials.probe.role is ProbeRole.ELIGIBLE:
            counts = self._classes[labels.probe_class]
            counts.eligible += 1
            counts.caught += reduced.caught
            counts.exercised += reduced.exercised
            counts.trials += trials.trials_completed
        self._unreached.update(trials.unreached_oracles)
        if trials.trials_completed < self.policy.minimum_trial_count or trials.has_unreached_trial:
            self._comparable = False
        self._reasons.update(summary.reasons)
        self._key.update((b"," if self._probes else b"") + canonical_json(probe_id))
        self._probes += 1
        for index, waiver in enumerate(counted.waivers):
            if waiver is not None:
                self.waived.setdefault(waiver, []).append(f"{probe_id}#{index}")

    def vector(self) -> StrengthVector:
        classes = []
        for probe_class, counts in self._classes.items():
            exercised, caught = counts.exercised, counts.caught
            classes.append(
                ClassStrength(
                    probe_class,
                    counts.eligible,
                    caught,
                    exercised,
                    None if exercised == 0 else caught / exercised,
                    denominator_sentence(
                        probe_class, caught, exercised, counts.eligible, counts.trials
                    ),
                )
            )
        return StrengthVector(tuple(classes), self._comparable, tuple(sorted(self._unreached)))

    def comparability_key(self) -> str:
        finished = self._key.copy()
        finished.update(b"]}")
        return "sha256:" + finished.hexdigest()

    def verdict(
        self,
        gaps: tuple[CoverageGap, ...],
        mode: str,
        recommendation: Recommendation | None,
    ) -> Verdict:
        held = set(self._reasons)
        held |= run_reasons(self.policy, gaps, mode=mode, recommendation=recommendation)
        return Verdict.from_reasons(held)
