"""Figures: each variant's outcome and reason, detection, preservation, Wilson intervals.

Undefined figures are ``None`` (JSON ``null``), never 0, and never meet a threshold.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from textcontract.audit.results._matching import ExpectedStatus, TrialResult
from textcontract.strength import OutcomeState, ReducedOutcome

__all__ = [
    "ExcludedReason",
    "Outcome",
    "Rate",
    "ThresholdCheck",
    "VariantVerdict",
    "check_threshold",
    "control_reasons",
    "preserve_verdict",
    "rate",
    "violation_reasons",
    "violation_verdict",
    "wilson_interval",
]


class Outcome(StrEnum):
    DETECTED = "detected"
    UNDETECTED = "undetected"
    PRESERVED = "preserved"
    NOT_PRESERVED = "not-preserved"


class ExcludedReason(StrEnum):
    """Why a variant is not counted, in the order eligibility is decided."""

    EQUIVALENT = "equivalent"
    UNREVIEWED = "unreviewed"
    INVALID_BASELINE = "invalid-baseline"
    IDENTICAL = "identical"


_UNDETECTED_REASONS = {
    OutcomeState.ORACLE_ERROR: "error",
    OutcomeState.UNREACHED: "undetermined",
    OutcomeState.NOT_APPLICABLE: "not-applicable",
    OutcomeState.INFRASTRUCTURE_ERROR: "infrastructure-error",
}
BELOW_CATCH_THRESHOLD = "below-catch-threshold"
"""An undetected violation none of whose trials failed: the catch threshold was not passed."""


@dataclass(frozen=True)
class VariantVerdict:
    """A counted variant's outcome, its reason (``None`` when it held) and expected statuses."""

    outcome: Outcome
    reason: str | None
    statuses: tuple[ExpectedStatus, ...]


WAIVED = "waived"
"""The reason of an undetected violation whose first non-caught trial was waived."""


_MISSED_REASONS = ("accepted", "unrelated-rejection")
"""A missed trial's report was accepted, or rejected for another rule's sake."""
_CONTROL_REASONS = ("rejected", "incomplete")
"""A false positive's report was rejected, or accepted but incomplete."""


def _missed_reason(trial: TrialResult) -> str:
    if trial.waiver is not None:
        return WAIVED
    if trial.state is OutcomeState.MISSED:
        return _MISSED_REASONS[0] if trial.accepted else _MISSED_REASONS[1]
    return _UNDETECTED_REASONS[trial.state]


def violation_reasons(state: OutcomeState, waived: bool) -> tuple[str, ...]:
    """The reasons an undetected violation can give when its first trial that was not
    caught ended in ``state`` (``waived``: a waiver named it): the two of a missed trial
    depend on its report, which a record does not keep. Empty for a state no violation's
    trial has."""
    if waived:
        return (WAIVED,)
    if state is OutcomeState.MISSED:
        return _MISSED_REASONS
    reason = _UNDETECTED_REASONS.get(state)
    return () if reason is None else (reason,)


def control_reasons(state: OutcomeState) -> tuple[str, ...]:
    """The reasons a not-preserved variant can give when its first unclean trial ended in
    ``state``; empty for a state no control's trial has."""
    if state is OutcomeState.INFRASTRUCTURE_ERROR:
        return ("infrastructure-error",)
    return _CONTROL_REASONS if state is OutcomeState.FALSE_POSITIVE else ()


def violation_verdict(trials: Sequence[TrialResult], reduced: ReducedOutcome) -> VariantVerdict:
    """Detected iff the reduced outcome is caught; else the first non-caught trial says why."""
    if reduced.caught:
        return VariantVerdict(Outcome.DETECTED, None, trials[0].statuses)
    for trial in trials:
        if trial.state is not OutcomeState.CAUGHT:
            return VariantVerdict(Outcome.UNDETECTED, _missed_reason(trial), trial.statuses)
    return VariantVerdict(Outcome.UNDETECTED, BELOW_CATCH_THRESHOLD, trials[0].statuses)


def preserve_verdict(trials: Sequence[TrialResult]) -> VariantVerdict:
    """Preserved iff strictly more than half of the trials are accepted and complete."""
    clean = sum(1 for trial in trials if trial.clean)
    if 2 * clean > len(trials):
        return VariantVerdict(Outcome.PRESERVED, None, ())
    for trial in trials:
        if not trial.clean:
            if not trial.evaluated:
                reason = "infrastructure-error"
            else:
                reason = _CONTROL_REASONS[0] if not trial.accepted else _CONTROL_REASONS[1]
            return VariantVerdict(Outcome.NOT_PRESERVED, reason, ())
    raise AssertionError("a variant with no unclean trial is preserved")  # pragma: no cover


_Z95 = 1.959963984540054
"""``scipy.special.ndtri(0.975)``: the normal quantile of a two-sided 95% interval."""


def wilson_interval(successes: int, total: int) -> tuple[float, float] | None:
    """The 95% Wilson score interval of ``successes / total``; ``None`` when total is 0.

    The arithmetic is scipy's ``binomtest(k, n).proportion_ci(method="wilson")`` step
    for step (Newcombe 1998), so the floats are the same bits; importing scipy for it
    cost an audit 0.6 s and 64 MiB.
    """
    if total == 0:
        return None
    p = successes / total
    z2 = _Z95**2
    denominator = 2 * (total + z2)
    center = (2 * total * p + z2) / denominator
    delta = _Z95 / denominator * math.sqrt(4 * total * p * (1 - p) + z2)
    low = 0.0 if successes == 0 else center - delta
    high = 1.0 if successes == total else center + delta
    return low, high


@dataclass(frozen=True)
class Rate:
    """A proportion with its count, denominator and interval; ``value`` is None when undefined."""

    count: int
    eligible: int
    value: float | None
    interval: tuple[float, float] | None

    def interval_json(self) -> list[float] | None:
        return None if self.interval is None else [self.interval[0], self.interval[1]]


def rate(count: int, eligible: int) -> Rate:
    if eligible == 0:
        return Rate(count, 0, None, None)
    return Rate(count, eligible, count / eligible, wilson_interval(count, eligible))


@dataclass(frozen=True)
class ThresholdCheck:
    """One declared minimum and whether the figure meets it (a null figure never does)."""

    figure: str
    minimum: float
    value: float | None

    @property
    def met(self) -> bool:
        return self.value is not None and self.value >= self.minimum

    def to_json(self) -> dict[str, Any]:
        return {
            "figure": self.figure,
            "minimum": self.minimum,
            "value": self.value,
            "met": self.met,
        }


def check_threshold(
    figure: str, minimum: float | None, value: float | None
) -> ThresholdCheck | None:
    return None if minimum is None else ThresholdCheck(figure, minimum, value)
