"""Building the evidence artifact of one admitted probe (SPEC §7 and §17.1, keys in SPEC order)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from textcontract._engine import engine_json
from textcontract.strength._identity import PRODUCTION, ScoringVersionInputs, comparability_key
from textcontract.strength._policy import ScoringPolicy
from textcontract.strength._probe import CoverageGap, ProbeTrials
from textcontract.strength._provenance import SourceRevision
from textcontract.strength._reduce import reduce_trials
from textcontract.strength._vector import build_strength_vector
from textcontract.strength._verdict import Recommendation, VerdictValue, ladder_verdict
from textcontract.strength._waivers import Waiver

__all__ = ["ARTIFACT_VERSION", "RunEvidence", "evidence_artifact"]

ARTIFACT_VERSION = 2


def check_policy_matches(policy: ScoringPolicy, inputs: ScoringVersionInputs) -> None:
    if inputs.scoring_policy_digest != policy.digest:
        raise ValueError("scoring_version_inputs.scoring_policy_digest is not the policy's digest")


def recommendation_of(mode: str, value: Any) -> Recommendation | None:
    """The recommendation the ladder reads: only in production, and only a known one."""
    if mode != PRODUCTION or not isinstance(value, str):
        return None
    try:
        return Recommendation(value)
    except ValueError:
        return None


@dataclass(frozen=True)
class RunEvidence:
    """What a run records beside its outcomes (SPEC §17); every part is optional.

    ``recommendation`` is the evaluator's, as the records carry it (any JSON value
    in contract-scoring, where nothing reads it; ``PASS``, ``CONCERNS`` or ``FAIL`` in
    production). ``waivers`` are the waivers known to the run: an artifact lists the
    ones its outcomes name. ``as_of`` is the date waivers were judged on (``None``
    when no waiver was read).
    """

    recommendation: Any = None
    waivers: tuple[Waiver, ...] = ()
    as_of: date | None = None
    preflight_digest: str | None = None
    source_revision: SourceRevision | None = None
    engine: Mapping[str, Any] | None = None
    """The ``engine`` block of the run whose outcomes these are (SPEC §20): an audit's
    names the ICU version its contract used; ``None`` is this process's, without ICU."""

    def engine_json(self) -> dict[str, Any]:
        return engine_json() if self.engine is None else dict(self.engine)

    def named_waivers(self, trials: ProbeTrials) -> list[dict[str, Any]]:
        known = {waiver.id: waiver for waiver in self.waivers}
        missing = [name for name in trials.waivers if name not in known]
        if missing:
            raise ValueError(f"outcomes name waivers the run does not know: {', '.join(missing)}")
        return [known[name].honoured_json() for name in trials.waivers]


def evidence_artifact(
    trials: ProbeTrials,
    policy: ScoringPolicy,
    inputs: ScoringVersionInputs,
    attested: Sequence[str] = (),
    coverage_gaps: Sequence[CoverageGap] = (),
    evidence: RunEvidence | None = None,
) -> dict[str, Any]:
    """The artifact of one admitted probe: its trials, reduction, vector and verdict.

    ``attested`` must already be sorted and unique (see :func:`attested_inputs`). An
    INVALID verdict mints no artifact: that is a :class:`ValueError` here, and the
    callers (``score``, the audit) answer an INVALID run before building any.
    """
    check_policy_matches(policy, inputs)
    run = evidence if evidence is not None else RunEvidence()
    reduced = reduce_trials(trials, policy.catch_threshold)
    vector = build_strength_vector([trials], [reduced], policy.minimum_trial_count)
    verdict = ladder_verdict(
        [trials],
        policy,
        coverage_gaps,
        mode=inputs.mode,
        recommendation=recommendation_of(inputs.mode, run.recommendation),
    )
    if verdict.value is VerdictValue.INVALID:
        raise ValueError(f"the verdict of {trials.probe.probe_id} is INVALID: no artifact")
    return {
        "artifact_version": ARTIFACT_VERSION,
        "engine": run.engine_json(),
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
        "evaluator_recommendation": run.recommendation,
        "waivers": run.named_waivers(trials),
        "as_of": None if run.as_of is None else run.as_of.isoformat(),
        "preflight_digest": run.preflight_digest,
        "source_revision": None if run.source_revision is None else run.source_revision.to_json(),
        "verdict": verdict.to_json(),
    }
