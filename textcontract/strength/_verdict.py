"""The verdict ladder: INVALID, FAIL, CONCERNS, WAIVED or PASS with ordered reasons.

SPEC §7 and §17.5. The value is the highest tier with a holding reason. Below INVALID
every reason that holds is listed once, in ladder order; an INVALID verdict lists its
own reasons only, because evidence that cannot support a verdict supports none of them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from textcontract.errors import ExitCode
from textcontract.strength._identity import PRODUCTION
from textcontract.strength._policy import ScoringPolicy
from textcontract.strength._probe import CoverageGap, ProbeRole, ProbeTrials, control_preserved
from textcontract.strength._reduce import reduce_trials

__all__ = [
    "INVALID_REASONS",
    "Recommendation",
    "Verdict",
    "VerdictReason",
    "VerdictValue",
    "held_reasons",
    "ladder_verdict",
]


class VerdictValue(StrEnum):
    PASS = "PASS"
    WAIVED = "WAIVED"
    CONCERNS = "CONCERNS"
    FAIL = "FAIL"
    INVALID = "INVALID"

    @property
    def exit_code(self) -> ExitCode:
        """FAIL fails the command, INVALID is exit 5; CONCERNS and WAIVED are reported."""
        if self is VerdictValue.INVALID:
            return ExitCode.INVALID
        return ExitCode.FAILED if self is VerdictValue.FAIL else ExitCode.OK


class Recommendation(StrEnum):
    """An evaluator's recommendation about the system under test (production mode)."""

    PASS = "PASS"
    CONCERNS = "CONCERNS"
    FAIL = "FAIL"


class VerdictReason(StrEnum):
    """Every rung of the ladder, in the order reasons are listed (INVALID's own last)."""

    CANARY_MISSED = "canary-missed"
    BEHAVIOURAL_FAILURE_AT_OR_ABOVE_FLOOR = "behavioural-failure-at-or-above-floor"
    INVALIDATED_TRIAL_AT_OR_ABOVE_FLOOR = "invalidated-trial-at-or-above-floor"
    INTEGRITY = "integrity"
    EVALUATOR_RECOMMENDATION_FAIL = "evaluator-recommendation-fail"
    BELOW_MINIMUM_TRIAL_COUNT = "below-minimum-trial-count"
    ORACLE_UNREACHED = "oracle-unreached"
    UNEXERCISED_PROBE = "unexercised-probe"
    BEHAVIOURAL_FAILURE_BELOW_FLOOR = "behavioural-failure-below-floor"
    INVALIDATED_TRIAL_BELOW_FLOOR = "invalidated-trial-below-floor"
    CLEAN_CONTROL_REJECTED = "clean-control-rejected"
    COVERAGE_GAP_AT_OR_ABOVE_FLOOR = "coverage-gap-at-or-above-floor"
    EVALUATOR_RECOMMENDATION_CONCERNS = "evaluator-recommendation-concerns"
    WAIVER_HONOURED = "waiver-honoured"
    # INVALID: the evidence cannot support any verdict
    PREFLIGHT_FAILED = "preflight-failed"
    PREFLIGHT_MISMATCH = "preflight-mismatch"
    TRIAL_SET_DISAGREEMENT = "trial-set-disagreement"
    REPEATED_TRIAL_INDEX = "repeated-trial-index"
    DUPLICATE_PROBE_OUTCOME = "duplicate-probe-outcome"
    UNHONOURABLE_WAIVER = "unhonourable-waiver"
    RE_EXECUTION_CAP_EXCEEDED = "re-execution-cap-exceeded"

    @property
    def value_when_held(self) -> VerdictValue:
        return _TIERS.get(self, VerdictValue.CONCERNS)


INVALID_REASONS = (
    VerdictReason.PREFLIGHT_FAILED,
    VerdictReason.PREFLIGHT_MISMATCH,
    VerdictReason.TRIAL_SET_DISAGREEMENT,
    VerdictReason.REPEATED_TRIAL_INDEX,
    VerdictReason.DUPLICATE_PROBE_OUTCOME,
    VerdictReason.UNHONOURABLE_WAIVER,
    VerdictReason.RE_EXECUTION_CAP_EXCEEDED,
)

_TIERS: dict[VerdictReason, VerdictValue] = {
    VerdictReason.CANARY_MISSED: VerdictValue.FAIL,
    VerdictReason.BEHAVIOURAL_FAILURE_AT_OR_ABOVE_FLOOR: VerdictValue.FAIL,
    VerdictReason.INVALIDATED_TRIAL_AT_OR_ABOVE_FLOOR: VerdictValue.FAIL,
    VerdictReason.INTEGRITY: VerdictValue.FAIL,
    VerdictReason.EVALUATOR_RECOMMENDATION_FAIL: VerdictValue.FAIL,
    VerdictReason.WAIVER_HONOURED: VerdictValue.WAIVED,
    **dict.fromkeys(INVALID_REASONS, VerdictValue.INVALID),
}
_ORDER = (
    VerdictValue.INVALID,
    VerdictValue.FAIL,
    VerdictValue.CONCERNS,
    VerdictValue.WAIVED,
)


@dataclass(frozen=True)
class Verdict:
    value: VerdictValue
    reasons: tuple[VerdictReason, ...]

    @classmethod
    def from_reasons(cls, held: Iterable[VerdictReason]) -> Verdict:
        """The highest tier that holds; below INVALID every reason, in ladder order."""
        chosen = set(held)
        ordered = tuple(reason for reason in VerdictReason if reason in chosen)
        tiers = {reason.value_when_held for reason in ordered}
        for value in _ORDER:
            if value in tiers:
                if value is VerdictValue.INVALID:
                    ordered = tuple(r for r in ordered if r.value_when_held is value)
                return cls(value, ordered)
        return cls(VerdictValue.PASS, ordered)

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value.value, "reasons": [reason.value for reason in self.reasons]}


def _probe_reasons(trials: ProbeTrials, policy: ScoringPolicy) -> set[VerdictReason]:
    held: set[VerdictReason] = set()
    probe = trials.probe
    reduced = reduce_trials(trials, policy.catch_threshold)
    if trials.trials_completed < policy.minimum_trial_count:
        held.add(VerdictReason.BELOW_MINIMUM_TRIAL_COUNT)
    if trials.has_unreached_trial:
        held.add(VerdictReason.ORACLE_UNREACHED)
    if trials.waived:
        held.add(VerdictReason.WAIVER_HONOURED)
    if policy.breached_by(len(reduced.invalidated_attempts)):
        held.add(VerdictReason.RE_EXECUTION_CAP_EXCEEDED)
    if probe.role is ProbeRole.CANARY:
        if not reduced.caught:
            held.add(VerdictReason.CANARY_MISSED)
        return held
    if probe.role is ProbeRole.CLEAN_CONTROL:
        if not control_preserved(trials.outcomes):
            held.add(VerdictReason.CLEAN_CONTROL_REJECTED)
        return held
    at_or_above = probe.severity >= policy.severity_floor
    if reduced.exercised and not reduced.caught:
        held.add(
            VerdictReason.BEHAVIOURAL_FAILURE_AT_OR_ABOVE_FLOOR
            if at_or_above
            else VerdictReason.BEHAVIOURAL_FAILURE_BELOW_FLOOR
        )
    if reduced.invalidated_attempts:
        held.add(
            VerdictReason.INVALIDATED_TRIAL_AT_OR_ABOVE_FLOOR
            if at_or_above
            else VerdictReason.INVALIDATED_TRIAL_BELOW_FLOOR
        )
    # a waived probe with no voted trial was excused, not left unmeasured (SPEC §17.4)
    if not reduced.exercised and not trials.waived:
        held.add(VerdictReason.UNEXERCISED_PROBE)
    return held


def run_reasons(
    policy: ScoringPolicy,
    coverage_gaps: Sequence[CoverageGap] = (),
    *,
    integrity_failed: bool = False,
    mode: str | None = None,
    recommendation: Recommendation | None = None,
) -> set[VerdictReason]:
    """The reasons that belong to the run rather than to one probe."""
    held: set[VerdictReason] = set()
    if integrity_failed:
        held.add(VerdictReason.INTEGRITY)
    if any(gap.severity >= policy.severity_floor for gap in coverage_gaps):
        held.add(VerdictReason.COVERAGE_GAP_AT_OR_ABOVE_FLOOR)
    if mode == PRODUCTION:
        if recommendation is Recommendation.FAIL:
            held.add(VerdictReason.EVALUATOR_RECOMMENDATION_FAIL)
        elif recommendation is Recommendation.CONCERNS:
            held.add(VerdictReason.EVALUATOR_RECOMMENDATION_CONCERNS)
    return held


def held_reasons(trials: ProbeTrials, policy: ScoringPolicy) -> frozenset[VerdictReason]:
    """Every rung one admitted probe raises (INVALID's cap included)."""
    return frozenset(_probe_reasons(trials, policy))


def ladder_verdict(
    admitted: Sequence[ProbeTrials],
    policy: ScoringPolicy,
    coverage_gaps: Sequence[CoverageGap] = (),
    *,
    integrity_failed: bool = False,
    mode: str | None = None,
    recommendation: Recommendation | None = None,
) -> Verdict:
    """Apply the ladder to every admitted probe (eligible probes, canaries, controls).

    ``integrity_failed`` is the caller's finding that a reduction or identity it was
    given does not recompute; the ladder itself reduces from the outcomes. The
    recommendation is read only in ``production`` mode.
    """
    held = run_reasons(
        policy,
        coverage_gaps,
        integrity_failed=integrity_failed,
        mode=mode,
        recommendation=recommendation,
    )
    for trials in admitted:
        held |= _probe_reasons(trials, policy)
    return Verdict.from_reasons(held)
