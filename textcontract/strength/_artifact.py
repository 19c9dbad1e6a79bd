"""Building the evidence artifact of one admitted probe (SPEC §7, keys in SPEC order)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textcontract._version import ENGINE_NAME, __version__
from textcontract.strength._identity import ScoringVersionInputs, comparability_key
from textcontract.strength._policy import ScoringPolicy
from textcontract.strength._probe import CoverageGap, ProbeTrials
from textcontract.strength._reduce import reduce_trials
from textcontract.strength._vector import build_strength_vector
from textcontract.strength._verdict import ladder_verdict

__all__ = ["ARTIFACT_VERSION", "engine_json", "evidence_artifact"]

ARTIFACT_VERSION = 1


def engine_json() -> dict[str, str]:
    return {"name": ENGINE_NAME, "version": __version__}


def check_policy_matches(policy: ScoringPolicy, inputs: ScoringVersionInputs) -> None:
    if inputs.scoring_policy_digest != policy.digest:
        raise ValueError("scoring_version_inputs.scoring_policy_digest is not the policy's digest")


def evidence_artifact(
    trials: ProbeTrials,
    policy: ScoringPolicy,
    inputs: ScoringVersionInputs,
    attested: Sequence[str] = (),
    coverage_gaps: Sequence[CoverageGap] = (),
) -> dict[str, Any]:
    """The artifact of one admitted probe: its trials, reduction, vector and verdict.

    ``attested`` must already be sorted and unique (see :func:`attested_inputs`).
    """
    check_policy_matches(policy, inputs)
    reduced = reduce_trials(trials, policy.catch_threshold)
    vector = build_strength_vector([trials], [reduced], policy.minimum_trial_count)
    verdict = ladder_verdict([trials], policy, coverage_gaps)
    return {
        "artifact_version": ARTIFACT_VERSION,
        "engine": engine_json(),
        "mode": inputs.mode,
        "scoring_version": inputs.scoring_version,
        "scoring_version_inputs": inputs.to_json(),
        "comparability_key": comparability_key(policy.digest, [trials.probe.probe_id]),
        "attested_inputs": list(attested),
        "policy": policy.artifact_json(),
        "probe": trials.probe.to_json(),
        "trials": {
            "completed": trials.trials_completed,
            "declared_minimum": policy.minimum_trial_count,
        },
        "outcomes": [outcome.to_json() for outcome in trials.outcomes],
        "reduced_probe_outcomes": [reduced.to_json()],
        "strength": vector.to_json(),
        "coverage_gaps": [gap.to_json() for gap in coverage_gaps],
        "verdict": verdict.to_json(),
    }
