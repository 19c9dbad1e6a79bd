"""Scoring a set of admitted probes: the entry point for the audit and any other harness."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from textcontract.strength._artifact import (
    RunEvidence,
    check_policy_matches,
    evidence_artifact,
    recommendation_of,
)
from textcontract.strength._identity import (
    ScoringVersionInputs,
    attested_inputs,
    comparability_key,
)
from textcontract.strength._policy import ScoringPolicy
from textcontract.strength._probe import CoverageGap, ProbeTrials
from textcontract.strength._reduce import ReducedOutcome, reduce_trials
from textcontract.strength._vector import StrengthVector, build_strength_vector
from textcontract.strength._verdict import Verdict, VerdictValue, ladder_verdict

__all__ = ["StrengthResult", "probe_entry_json", "score_probes"]


def probe_entry_json(trials: ProbeTrials, reduced: ReducedOutcome) -> dict[str, Any]:
    """One entry of the audit report's ``strength.probes`` list."""
    return {
        **trials.probe.to_json(),
        "trials_completed": trials.trials_completed,
        "outcomes": [outcome.to_json() for outcome in trials.outcomes],
        "reduced": reduced.to_json(),
    }


@dataclass(frozen=True)
class StrengthResult:
    """Everything scoring a run yields; probes are sorted by probe id."""

    policy: ScoringPolicy
    probes: tuple[ProbeTrials, ...]
    reductions: tuple[ReducedOutcome, ...]
    vector: StrengthVector
    scoring_version_inputs: ScoringVersionInputs
    comparability_key: str
    attested_inputs: tuple[str, ...]
    coverage_gaps: tuple[CoverageGap, ...]
    verdict: Verdict
    evidence: RunEvidence = field(default_factory=RunEvidence)

    @property
    def scoring_version(self) -> str:
        return self.scoring_version_inputs.scoring_version

    def strength_block_json(self) -> dict[str, Any]:
        """The audit report's ``strength`` block (SPEC §6)."""
        return {
            **self.vector.to_json(),
            "comparability_key": self.comparability_key,
            "scoring_version": self.scoring_version,
            "scoring_version_inputs": self.scoring_version_inputs.to_json(),
            "probes": [
                probe_entry_json(trials, reduced)
                for trials, reduced in zip(self.probes, self.reductions, strict=True)
            ],
        }

    def evidence_artifacts(self) -> tuple[tuple[str, dict[str, Any]], ...]:
        """``(probe_id, artifact)`` for every admitted probe, each scored on its own.

        Coverage gaps belong to the run (the audit report and its verdict), not to
        one probe: per-probe artifacts carry none, so that scoring a probe's sealed
        records with ``score`` reproduces its artifact (SPEC §7), apart from
        ``attested_inputs``. An INVALID run mints none: the result is empty.
        """
        if self.verdict.value is VerdictValue.INVALID:
            return ()
        return tuple(
            (
                trials.probe.probe_id,
                evidence_artifact(
                    trials,
                    self.policy,
                    self.scoring_version_inputs,
                    self.attested_inputs,
                    (),
                    self.evidence,
                ),
            )
            for trials in self.probes
        )


def score_probes(
    probes: Iterable[ProbeTrials],
    policy: ScoringPolicy,
    scoring_inputs: ScoringVersionInputs,
    coverage_gaps: Sequence[CoverageGap] = (),
    attested: Iterable[str] = (),
    *,
    integrity_failed: bool = False,
    evidence: RunEvidence | None = None,
) -> StrengthResult:
    """Reduce every admitted probe, build the vector, the identities and the verdict.

    ``probes`` are all admitted probes (eligible ones, canaries, clean controls) with
    unique ids. ``scoring_inputs.scoring_policy_digest`` must be ``policy.digest``.
    ``attested`` names the scoring inputs the caller supplied rather than computed
    (none in an audit). ``evidence`` is what the run records beside its outcomes
    (recommendation, waivers, preflight digest, source revision).
    """
    run = evidence if evidence is not None else RunEvidence()
    check_policy_matches(policy, scoring_inputs)
    ordered = tuple(sorted(probes, key=lambda trials: trials.probe.probe_id))
    ids = [trials.probe.probe_id for trials in ordered]
    if len(set(ids)) != len(ids):
        raise ValueError("admitted probe ids must be unique")
    reductions = tuple(reduce_trials(trials, policy.catch_threshold) for trials in ordered)
    return StrengthResult(
        policy=policy,
        probes=ordered,
        reductions=reductions,
        vector=build_strength_vector(ordered, reductions, policy.minimum_trial_count),
        scoring_version_inputs=scoring_inputs,
        comparability_key=comparability_key(policy.digest, ids),
        attested_inputs=attested_inputs(attested),
        coverage_gaps=tuple(coverage_gaps),
        verdict=ladder_verdict(
            ordered,
            policy,
            coverage_gaps,
            integrity_failed=integrity_failed,
            mode=scoring_inputs.mode,
            recommendation=recommendation_of(scoring_inputs.mode, run.recommendation),
        ),
        evidence=run,
    )
