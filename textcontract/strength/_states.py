"""The twelve trial outcome states, their three groups, and the probe classes (SPEC §7)."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Exposure", "OutcomeState", "ProbeClass", "StateGroup"]


class StateGroup(StrEnum):
    """How a trial's state takes part in reduction."""

    VOTED = "voted"
    """A valid observation: counts in ``valid_count``."""
    UNVOTED = "unvoted"
    """No vote either way: leaves both counts."""
    INVALIDATING = "invalidating"
    """The trial could not be judged: leaves both counts, listed as an invalidated attempt."""


class OutcomeState(StrEnum):
    """What one trial of one probe resolved to."""

    CAUGHT = "caught"
    CONFIRMED = "confirmed"
    MISSED = "missed"
    ABSTAINED = "abstained"
    BYPASSED = "bypassed"
    PASSED_CLEAN_CONTROL = "passed-clean-control"
    FALSE_POSITIVE = "false-positive"
    NOT_APPLICABLE = "not-applicable"
    UNREACHED = "unreached"
    ORACLE_ERROR = "oracle-error"
    JUDGE_ERROR = "judge-error"
    INFRASTRUCTURE_ERROR = "infrastructure-error"

    @property
    def group(self) -> StateGroup:
        return _GROUPS[self]


_GROUPS: dict[OutcomeState, StateGroup] = {
    OutcomeState.CAUGHT: StateGroup.VOTED,
    OutcomeState.CONFIRMED: StateGroup.VOTED,
    OutcomeState.MISSED: StateGroup.VOTED,
    OutcomeState.ABSTAINED: StateGroup.VOTED,
    OutcomeState.BYPASSED: StateGroup.VOTED,
    OutcomeState.PASSED_CLEAN_CONTROL: StateGroup.VOTED,
    OutcomeState.FALSE_POSITIVE: StateGroup.VOTED,
    OutcomeState.NOT_APPLICABLE: StateGroup.UNVOTED,
    OutcomeState.UNREACHED: StateGroup.UNVOTED,
    OutcomeState.ORACLE_ERROR: StateGroup.INVALIDATING,
    OutcomeState.JUDGE_ERROR: StateGroup.INVALIDATING,
    OutcomeState.INFRASTRUCTURE_ERROR: StateGroup.INVALIDATING,
}


class ProbeClass(StrEnum):
    """The three components of the strength vector, in their report order."""

    DEFECT = "defect"
    GAMEABILITY = "gameability"
    ZERO_ACTION = "zero-action"


class Exposure(StrEnum):
    """Whether the contract's authors could see a probe (SPEC §17.6); a declaration only.

    Exposure moves no rate, digest or verdict: ``aggregate-strength`` reports the two
    kinds apart so a reader can tell foresight from acuity.
    """

    KNOWN = "known"
    HELD_OUT = "held-out"
