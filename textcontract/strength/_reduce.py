"""Reduction: one probe's trials folded into one reduced outcome (SPEC §7 "Reduction")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textcontract.model import Severity
from textcontract.strength._probe import ProbeTrials, TrialOutcome
from textcontract.strength._states import OutcomeState, StateGroup

__all__ = ["InvalidatedAttempt", "ReducedOutcome", "TrialVote", "is_caught", "reduce_trials"]


@dataclass(frozen=True)
class TrialVote:
    trial_index: int
    state: OutcomeState

    def to_json(self) -> dict[str, Any]:
        return {"trial_index": self.trial_index, "state": self.state.value}


@dataclass(frozen=True)
class InvalidatedAttempt:
    """A trial whose state invalidates it; ``attempt`` is its trial index, kept as is."""

    attempt: int
    reason: OutcomeState

    def to_json(self) -> dict[str, Any]:
        return {"attempt": self.attempt, "reason": self.reason.value}


@dataclass(frozen=True)
class ReducedOutcome:
    """The reduced outcome of one probe."""

    probe_id: str
    severity: Severity
    valid_count: int
    caught_count: int
    catch_threshold: float
    exercised: bool
    caught: bool
    trial_votes: tuple[TrialVote, ...]
    invalidated_attempts: tuple[InvalidatedAttempt, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "probe_id": self.probe_id,
            "severity": self.severity.value,
            "valid_count": self.valid_count,
            "caught_count": self.caught_count,
            "catch_threshold": self.catch_threshold,
            "exercised": self.exercised,
            "caught": self.caught,
            "trial_votes": [vote.to_json() for vote in self.trial_votes],
            "invalidated_attempts": [attempt.to_json() for attempt in self.invalidated_attempts],
        }


def is_caught(caught_count: int, valid_count: int, catch_threshold: float) -> bool:
    """Strictly above the threshold, by true division: a tie is never caught.

    The comparison is on the quotient, not on ``caught_count > threshold * valid_count``,
    because 0.29 * 100 is 28.999999999999996 in binary floating point while 29 / 100
    is the same double as 0.29: only the quotient gives "29 of 100 at 0.29 is not caught".
    """
    return valid_count > 0 and caught_count / valid_count > catch_threshold


def reduce_outcomes(
    probe_id: str,
    severity: Severity,
    outcomes: tuple[TrialOutcome, ...],
    catch_threshold: float,
) -> ReducedOutcome:
    """Fold trial outcomes (in trial-index order) into one reduced outcome."""
    ordered = sorted(outcomes, key=lambda outcome: outcome.trial_index)
    voted = [o for o in ordered if o.state.group is StateGroup.VOTED]
    valid_count = len(voted)
    caught_count = sum(1 for o in voted if o.state is OutcomeState.CAUGHT)
    threshold = float(catch_threshold)
    return ReducedOutcome(
        probe_id=probe_id,
        severity=severity,
        valid_count=valid_count,
        caught_count=caught_count,
        catch_threshold=threshold,
        exercised=valid_count > 0,
        caught=is_caught(caught_count, valid_count, threshold),
        trial_votes=tuple(TrialVote(o.trial_index, o.state) for o in ordered),
        invalidated_attempts=tuple(
            InvalidatedAttempt(o.trial_index, o.state)
            for o in ordered
            if o.state.group is StateGroup.INVALIDATING
        ),
    )


def reduce_trials(trials: ProbeTrials, catch_threshold: float) -> ReducedOutcome:
    """The reduced outcome of an admitted probe under a catch threshold."""
    return reduce_outcomes(
        trials.probe.probe_id, trials.probe.severity, trials.outcomes, catch_threshold
    )
