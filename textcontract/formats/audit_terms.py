"""Words and numbers every audit format shows the same way: reasons, outcomes, figures."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

__all__ = ["OUTCOMES", "REASON_TEXT", "interval_text", "number_text", "short_digest"]

REASON_TEXT: Mapping[str, str] = {
    "canary-missed": "a canary was not caught: suspect the corpus or the fixtures first",
    "behavioural-failure-at-or-above-floor": "a fault at or above the severity floor was missed",
    "invalidated-trial-at-or-above-floor": "a probe at or above the floor had an invalid trial",
    "integrity": "a reduction or identity does not recompute",
    "below-minimum-trial-count": "a probe completed fewer trials than the policy's minimum",
    "oracle-unreached": "an expected check was undetermined, so the probe could not be judged",
    "unexercised-probe": "a probe had no valid vote at all",
    "behavioural-failure-below-floor": "a fault below the severity floor was missed",
    "invalidated-trial-below-floor": "a probe below the floor had an invalid trial",
    "clean-control-rejected": "a valid variation was not accepted and complete",
    "coverage-gap-at-or-above-floor": "a rule at or above the floor is targeted by no probe",
    "evaluator-recommendation-fail": "production: the evaluator recommends FAIL for the system",
    "evaluator-recommendation-concerns": "production: the evaluator has concerns about the system",
    "waiver-honoured": "a documented miss was waived (see the waivers below)",
    "re-execution-cap-exceeded": "a probe lost more trials than the re-execution cap allows",
}
"""One line per verdict reason, for readers who do not know the ladder by heart."""

OUTCOMES = ("detected", "undetected", "preserved", "not-preserved", "excluded")
"""Every outcome a variant can have in a report (excluded ones are listed apart)."""


def number_text(value: float | None) -> str:
    """A figure to three decimals; ``null`` (never 0) when it is undefined."""
    return "null" if value is None else f"{value:.3f}"


def interval_text(interval: Sequence[float] | None) -> str:
    """A 95% interval as ``[low, high]`` to three decimals, or ``null``."""
    if interval is None:
        return "null"
    return f"[{interval[0]:.3f}, {interval[1]:.3f}]"


_SHORT_DIGEST = len("sha256:") + 12


def short_digest(digest: str) -> str:
    """``sha256:`` and the first 12 hex digits, without an ellipsis (SPEC §21): enough to
    tell two digests apart by eye; the JSON formats carry the whole digest."""
    return digest[:_SHORT_DIGEST]
