"""The contract-scoring verdict ladder: PASS, CONCERNS or FAIL with ordered reasons."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from textcontract.errors import ExitCode
from textcontract.strength._policy import ScoringPolicy
from textcontract.strength._probe import CoverageGap, ProbeRole, ProbeTrials, control_preserved
from textcontract.strength._reduce import reduce_trials

__all__ = ["Verdict", "VerdictReason", "VerdictValue", "ladder_verdict"]


class VerdictValue(StrEnum):
    PASS = "PASS"
    CONCERNS = "CONCERNS"
    FAIL = "FAIL"

    @property
    def exit_code(self) -> ExitCode:
        """Only a FAIL fails the command; CONCERNS is reported, not enforced."""
        return ExitCode.FAILED if self is VerdictValue.FAIL else ExitCode.OK


class VerdictReason(StrEnum):
    """Every rung of the ladder, in the order reasons are listed."""

    CANARY_MISSED = "canary-missed"
    BEHAVIOURAL_FAILURE_AT_OR_ABOVE_FLOOR = "behavioural-failure-at-or-above-floor"
    INVALIDATED_TRIAL_AT_OR_ABOVE_FLOOR = "invalidated-trial-at-or-above-floor"
    INTEGRITY = "integrity"
    BELOW_MINIMUM_TRIAL_COUNT = "below-minimum-trial-count"
    ORACLE_UNREACHED = "oracle-unreached"
    UNEXERCISED_PROBE = "unexercised-probe"
    BEHAVIOURAL_FAILURE_BELOW_FLOOR = "behavioural-failure-below-floor"
    INVALIDATED_TRIAL_BELOW_FLOOR = "invalidated-trial-below-floor"
    CLEAN_CONTROL_REJECTED = "clean-control-rejected"
    COVERAGE_GAP_AT_OR_ABOVE_FLOOR = "coverage-gap-at-or-above-floor"

    @property
    def value_when_held(self) -> VerdictValue:
        return VerdictValue.FAIL if self in _FAILING else VerdictValue.CONCERNS


_FAILING = frozenset(
    {
        VerdictReason.CANARY_MISSED,
        VerdictReason.BEHAVIOURAL_FAILURE_AT_OR_ABOVE_FLOOR,
        VerdictReason.INVALIDATED_TRIAL_AT_OR_ABOVE_FLOOR,
        VerdictReason.INTEGRITY,
    }
)


@dataclass(frozen=True)
class Verdict:
    value: VerdictValue
    reasons: tuple[VerdictReason, ...]

    @classmethod
    def from_reasons(cls, held: set[VerdictReason]) -> Verdict:
        ordered = tuple(reason for reason in VerdictReason if reason in held)
        values = {reason.value_when_held for reason in ordered}
        if VerdictValue.FAIL in values:
            return cls(VerdictValue.FAIL, ordered)
        if VerdictValue.CONCERNS in values:
            return cls(VerdictValue.CONCERNS, ordered)
        return cls(VerdictValue.PASS, ordered)

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value.value, "reasons": [reason.value for reason in self.reasons]}


def ladder_verdict(
    admitted: Sequence[ProbeTrials],
    policy: ScoringPolicy,
    coverage_gaps: Sequence[CoverageGap] = (),
    *,
    integrity_failed: bool = False,
) -> Verdict:
    """Apply the ladder to every admitted probe (eligible probes, canaries, controls).

    ``integrity_failed`` is the caller's finding that a reduction or identity it was
    given does not recompute; the ladder itself reduces from the outcomes.
    """
    held: set[VerdictReason] = set()
    floor = policy.severity_floor
    if integrity_failed:
        held.add(VerdictReason.INTEGRITY)
    for trials in admitted:
        probe = trials.probe
        reduced = reduce_trials(trials, policy.catch_threshold)
        if trials.trials_completed < policy.minimum_trial_count:
            held.add(VerdictReason.BELOW_MINIMUM_TRIAL_COUNT)
        if trials.has_unreached_trial:
            held.add(VerdictReason.ORACLE_UNREACHED)
        if probe.role is ProbeRole.CANARY:
            if not reduced.caught:
                held.add(VerdictReason.CANARY_MISSED)
        elif probe.role is ProbeRole.CLEAN_CONTROL:
            if not control_preserved(trials.outcomes):
                held.add(VerdictReason.CLEAN_CONTROL_REJECTED)
        else:
            at_or_above = probe.severity >= floor
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
            if not reduced.exercised:
                held.add(VerdictReason.UNEXERCISED_PROBE)
    if any(gap.severity >= floor for gap in coverage_gaps):
        held.add(VerdictReason.COVERAGE_GAP_AT_OR_ABOVE_FLOOR)
    return Verdict.from_reasons(held)
