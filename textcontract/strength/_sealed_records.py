"""Sealed trial records: written by ``audit --records``, read and scored by ``score``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from textcontract.canonical import canonical_json
from textcontract.errors import InputError, Location, Problem
from textcontract.fields import FieldReader
from textcontract.strength._artifact import evidence_artifact
from textcontract.strength._identity import (
    CONTRACT_FORMAT_VERSION,
    CONTRACT_SCORING,
    ScoringVersionInputs,
    attested_inputs,
)
from textcontract.strength._policy import ScoringPolicy
from textcontract.strength._probe import Probe, ProbeTrials, TrialOutcome
from textcontract.strength._states import OutcomeState

__all__ = [
    "RECORD_VERSION",
    "RecordOutcome",
    "SealedRecord",
    "build_trial_records",
    "parse_record",
    "score_records",
    "trial_record_path",
]

RECORD_VERSION = 1

_RECORD_KEYS = (
    "record_version",
    "run_id",
    "trial_index",
    "mode",
    "contract_digest",
    "evaluator_configuration_digest",
    "evaluator_recommendation",
    "outcomes",
)
_SHARED_FIELDS = (
    "run_id",
    "mode",
    "contract_digest",
    "evaluator_configuration_digest",
    "evaluator_recommendation",
)


@dataclass(frozen=True)
class RecordOutcome:
    probe_id: str
    oracle: str | None
    state: OutcomeState

    def to_json(self) -> dict[str, Any]:
        return {"probe_id": self.probe_id, "oracle": self.oracle, "state": self.state.value}


@dataclass(frozen=True)
class SealedRecord:
    """One trial of a run; ``source`` is the file name used in messages."""

    run_id: str
    trial_index: int
    mode: str
    contract_digest: str
    evaluator_configuration_digest: str
    evaluator_recommendation: Any
    """Any JSON value; records of one set must agree on it, scoring does not read it."""
    outcomes: tuple[RecordOutcome, ...]
    source: str | None = None

    def outcome_for(self, probe_id: str) -> RecordOutcome | None:
        for outcome in self.outcomes:
            if outcome.probe_id == probe_id:
                return outcome
        return None

    def to_json(self) -> dict[str, Any]:
        return {
            "record_version": RECORD_VERSION,
            "run_id": self.run_id,
            "trial_index": self.trial_index,
            "mode": self.mode,
            "contract_digest": self.contract_digest,
            "evaluator_configuration_digest": self.evaluator_configuration_digest,
            "evaluator_recommendation": self.evaluator_recommendation,
            "outcomes": [outcome.to_json() for outcome in self.outcomes],
        }


def parse_record(obj: Any, source: str | None) -> SealedRecord:
    """Validate one sealed trial record; every problem of the file is reported at once."""
    reader = FieldReader(source)
    fields = reader.mapping(obj, (), required=_RECORD_KEYS)
    reader.expect_equal(fields["record_version"], ("record_version",), RECORD_VERSION)
    outcomes = []
    seen: set[str] = set()
    for index, item in enumerate(reader.sequence(fields["outcomes"], ("outcomes",))):
        path = ("outcomes", index)
        entry = reader.mapping(item, path, required=("probe_id", "oracle", "state"))
        outcome = RecordOutcome(
            reader.string(entry["probe_id"], (*path, "probe_id")),
            reader.optional_string(entry["oracle"], (*path, "oracle")),
            reader.choice(entry["state"], (*path, "state"), OutcomeState),
        )
        if outcome.probe_id and outcome.probe_id in seen:
            reader.problem(
                (*path, "probe_id"),
                f"a second outcome for probe {outcome.probe_id!r} (at most one per record)",
            )
        seen.add(outcome.probe_id)
        outcomes.append(outcome)
    record = SealedRecord(
        run_id=reader.string(fields["run_id"], ("run_id",)),
        trial_index=reader.integer(fields["trial_index"], ("trial_index",), minimum=0),
        mode=reader.string(fields["mode"], ("mode",)),
        contract_digest=reader.string(fields["contract_digest"], ("contract_digest",)),
        evaluator_configuration_digest=reader.string(
            fields["evaluator_configuration_digest"], ("evaluator_configuration_digest",)
        ),
        evaluator_recommendation=fields["evaluator_recommendation"],
        outcomes=tuple(outcomes),
        source=source,
    )
    reader.raise_if_problems()
    return record


def _set_problems(records: Sequence[SealedRecord]) -> list[Problem]:
    """Disagreements, repeated trial indexes and unsupported modes across one record set."""
    problems: list[Problem] = []
    first = records[0]
    for record in records[1:]:
        for name in _SHARED_FIELDS:
            mine, theirs = getattr(record, name), getattr(first, name)
            if canonical_json(mine) != canonical_json(theirs):
                problems.append(
                    Problem(
                        f"records disagree: {mine!r} here, {theirs!r} in {first.source}",
                        Location(record.source, key=name),
                    )
                )
    by_index: dict[int, SealedRecord] = {}
    for record in records:
        earlier = by_index.setdefault(record.trial_index, record)
        if earlier is not record:
            problems.append(
                Problem(
                    f"trial index {record.trial_index} repeats the one in {earlier.source}",
                    Location(record.source, key="trial_index"),
                )
            )
    if first.mode != CONTRACT_SCORING:
        problems.append(
            Problem(
                f"mode {first.mode!r} is not supported (only {CONTRACT_SCORING!r})",
                Location(first.source, key="mode"),
            )
        )
    return problems


def score_records(
    records: Sequence[SealedRecord],
    probe: Probe,
    policy: ScoringPolicy,
    corpus_digest: str | None = None,
    fixture_digest: str | None = None,
) -> dict[str, Any]:
    """Score one probe over a trial set of sealed records; returns its evidence artifact.

    A record without an outcome for the probe is a completed trial in state
    ``not-applicable`` with oracle ``null``. ``score`` knows no contract, so the
    artifact has no coverage gaps. Raises :class:`InputError` for an inconsistent set.
    """
    if not records:
        raise InputError.at("no trial records given (score needs at least one)")
    problems = _set_problems(records)
    for name, given in (("corpus_digest", corpus_digest), ("fixture_digest", fixture_digest)):
        if given is not None and not given:
            problems.append(Problem("must not be empty", Location(key=name)))
    if problems:
        raise InputError(problems)
    outcomes = []
    for record in sorted(records, key=lambda r: r.trial_index):
        found = record.outcome_for(probe.probe_id)
        if found is None:
            outcomes.append(TrialOutcome(record.trial_index, None, OutcomeState.NOT_APPLICABLE))
        else:
            outcomes.append(TrialOutcome(record.trial_index, found.oracle, found.state))
    first = records[0]
    inputs = ScoringVersionInputs(
        contract_format_version=CONTRACT_FORMAT_VERSION,
        corpus_digest=corpus_digest,
        fixture_digest=fixture_digest,
        evaluator_configuration_digest=first.evaluator_configuration_digest,
        scoring_policy_digest=policy.digest,
        mode=first.mode,
    )
    attested = ["evaluator_configuration_digest", "mode"]
    attested += [
        name
        for name, given in (("corpus_digest", corpus_digest), ("fixture_digest", fixture_digest))
        if given
    ]
    return evidence_artifact(
        ProbeTrials(probe, tuple(outcomes)), policy, inputs, attested_inputs(attested)
    )


def trial_record_path(probe_id: str, trial_index: int) -> str:
    """Relative path of a trial record under ``audit --records DIR``: ``<case>/<variant>/…``."""
    return f"{probe_id}/trial-{trial_index}.json"


def build_trial_records(
    trials: ProbeTrials, scoring_version: str, contract_digest: str
) -> tuple[tuple[str, dict[str, Any]], ...]:
    """The sealed records of one admitted probe's trial set, as ``(relative path, record)``.

    Scoring them with the audit's policy (and its corpus and fixture digests as flags)
    reproduces the probe's artifact except ``attested_inputs``.
    """
    return tuple(
        (
            trial_record_path(trials.probe.probe_id, outcome.trial_index),
            SealedRecord(
                run_id=f"{scoring_version}/{trials.probe.probe_id}",
                trial_index=outcome.trial_index,
                mode=CONTRACT_SCORING,
                contract_digest=contract_digest,
                evaluator_configuration_digest=contract_digest,
                evaluator_recommendation=None,
                outcomes=(RecordOutcome(trials.probe.probe_id, outcome.oracle, outcome.state),),
            ).to_json(),
        )
        for outcome in trials.outcomes
    )
