"""Matching one trial's report against a variant's expectations (SPEC §6 "Matching").

Only what the figures need leaves this module: a trial's outcome state, whether
its report was accepted and complete, and the status of each expectation. The
report itself is dropped as soon as it has been read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from textcontract.audit.reading import Expectation, Relation
from textcontract.model import Check, Status
from textcontract.strength import OutcomeState

__all__ = [
    "CLEAN_CONTROL_ORACLE",
    "ExpectedStatus",
    "Judged",
    "TrialResult",
    "control_trial",
    "failed_trial",
    "violation_trial",
]

CLEAN_CONTROL_ORACLE = "clean-control"


class ExpectedStatus(StrEnum):
    """``expected[].status``: what the contract did at an expected (rule, code, scope)."""

    VIOLATED = "violated"
    ERROR = "error"
    UNDETERMINED = "undetermined"
    SATISFIED = "satisfied"
    ABSENT = "absent"


class Judged(Protocol):
    """What matching reads of a check run: a :class:`~textcontract.model.Report` has it."""

    @property
    def checks(self) -> Sequence[Check]: ...

    @property
    def accepted(self) -> bool: ...

    @property
    def complete(self) -> bool: ...


@dataclass(frozen=True)
class TrialResult:
    """What one evaluated trial contributes to the figures.

    ``evaluated`` is false when evaluating the trial raised outside any rule
    (state ``infrastructure-error``); ``accepted`` and ``complete`` are then false.
    """

    index: int
    state: OutcomeState
    evaluated: bool
    accepted: bool
    complete: bool
    statuses: tuple[ExpectedStatus, ...]
    waiver: str | None = None
    """The waiver that turned this trial's ``missed`` into ``not-applicable``."""

    @property
    def clean(self) -> bool:
        """Accepted and complete: what a valid variation needs."""
        return self.accepted and self.complete


class _Checks:
    """The checks of one report indexed by rule id."""

    def __init__(self, checks: Sequence[Check]) -> None:
        self.by_rule: dict[str, list[Check]] = {}
        for check in checks:
            self.by_rule.setdefault(check.rule_id, []).append(check)

    def of(self, rule: str) -> list[Check]:
        return self.by_rule.get(rule, [])

    def status(self, expectation: Expectation) -> ExpectedStatus:
        at_scope = [
            check for check in self.of(expectation.rule) if check.scope == expectation.scope
        ]
        matching = [check for check in at_scope if check.code == expectation.code]
        if any(check.status is Status.VIOLATED for check in matching):
            return ExpectedStatus.VIOLATED
        if any(check.status is Status.ERROR for check in at_scope):
            return ExpectedStatus.ERROR
        if any(check.status is Status.UNDETERMINED for check in at_scope):
            return ExpectedStatus.UNDETERMINED
        if matching:
            return ExpectedStatus.SATISFIED
        return ExpectedStatus.ABSENT


def _violation_state(
    checks: _Checks, expect: Sequence[Expectation], statuses: Sequence[ExpectedStatus]
) -> OutcomeState:
    """Caught iff every triple is violated; else oracle-error > unreached > not-applicable > missed.

    ``oracle-error`` looks at every expected rule, anywhere; ``unreached`` and
    ``not-applicable`` look at the expectations that were not violated, at their scope.
    """
    if all(status is ExpectedStatus.VIOLATED for status in statuses):
        return OutcomeState.CAUGHT
    rules = {expectation.rule for expectation in expect}
    if any(check.status is Status.ERROR for rule in rules for check in checks.of(rule)):
        return OutcomeState.ORACLE_ERROR
    open_ = [e for e, s in zip(expect, statuses, strict=True) if s is not ExpectedStatus.VIOLATED]
    scoped = [[c for c in checks.of(e.rule) if c.scope == e.scope] for e in open_]
    if any(check.status is Status.UNDETERMINED for found in scoped for check in found):
        return OutcomeState.UNREACHED
    if any(not found for found in scoped):
        return OutcomeState.NOT_APPLICABLE
    return OutcomeState.MISSED


def violation_trial(index: int, report: Judged, expect: Sequence[Expectation]) -> TrialResult:
    """A violation's trial: caught, oracle-error, unreached, not-applicable or missed."""
    checks = _Checks(report.checks)
    statuses = tuple(checks.status(expectation) for expectation in expect)
    return TrialResult(
        index=index,
        state=_violation_state(checks, expect, statuses),
        evaluated=True,
        accepted=report.accepted,
        complete=report.complete,
        statuses=statuses,
    )


def control_trial(index: int, report: Judged) -> TrialResult:
    """A valid variation's trial: passed-clean-control iff accepted and complete."""
    clean = report.accepted and report.complete
    return TrialResult(
        index=index,
        state=OutcomeState.PASSED_CLEAN_CONTROL if clean else OutcomeState.FALSE_POSITIVE,
        evaluated=True,
        accepted=report.accepted,
        complete=report.complete,
        statuses=(),
    )


def failed_trial(index: int, relation: Relation, expected: int) -> TrialResult:
    """A trial whose evaluation raised outside any rule: infrastructure-error."""
    statuses = (ExpectedStatus.ABSENT,) * expected if relation is Relation.VIOLATION else ()
    return TrialResult(
        index=index,
        state=OutcomeState.INFRASTRUCTURE_ERROR,
        evaluated=False,
        accepted=False,
        complete=False,
        statuses=statuses,
    )
