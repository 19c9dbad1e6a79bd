"""Matching a trial's checks against expected (rule, code, scope) triples (SPEC §6)."""

from __future__ import annotations

import pytest

from textcontract.audit import Expectation, ExpectedStatus
from textcontract.audit.results._matching import control_trial, violation_trial
from textcontract.model import (
    Check,
    CheckPolicy,
    ContractRef,
    Enforcement,
    Kind,
    Report,
    Severity,
    Status,
)
from textcontract.strength import OutcomeState

EXPECT = Expectation("claims", "CLAIM_STATE_MISMATCH", "surface:body")


def check(
    status: Status,
    *,
    rule: str = "claims",
    code: str = "CLAIM_STATE_MISMATCH",
    scope: str = "surface:body",
    kind: Kind = Kind.INVARIANT,
) -> Check:
    return Check(
        rule_id=rule,
        rule_version=1,
        type="DeclaredClaimsConsistent",
        kind=kind,
        status=status,
        code=code,
        scope=scope,
        severity=Severity.HIGH,
        enforcement=Enforcement.BLOCKING,
    )


def report(*checks: Check, policy: CheckPolicy | None = None) -> Report:
    return Report(
        contract=ContractRef("c", 1, "sha256:0"),
        document_digest="sha256:1",
        context_digest="sha256:2",
        policy=policy or CheckPolicy(),
        checks=checks,
    )


SAT = Status.SATISFIED
VIO = Status.VIOLATED
UND = Status.UNDETERMINED
ERR = Status.ERROR


@pytest.mark.parametrize(
    ("checks", "status"),
    [
        ((check(SAT), check(VIO)), ExpectedStatus.VIOLATED),
        ((check(VIO), check(ERR, code="RULE_ERROR")), ExpectedStatus.VIOLATED),
        ((check(SAT), check(ERR, code="RULE_ERROR")), ExpectedStatus.ERROR),
        ((check(SAT), check(UND, code="CLAIMS_ABSENT")), ExpectedStatus.UNDETERMINED),
        ((check(ERR, code="X"), check(UND, code="Y")), ExpectedStatus.ERROR),
        ((check(SAT),), ExpectedStatus.SATISFIED),
        ((check(VIO, code="OTHER"),), ExpectedStatus.ABSENT),
        ((check(VIO, scope="surface:subject"),), ExpectedStatus.ABSENT),
        ((check(VIO, rule="other"),), ExpectedStatus.ABSENT),
        ((), ExpectedStatus.ABSENT),
    ],
)
def test_expected_status(checks: tuple[Check, ...], status: ExpectedStatus) -> None:
    assert violation_trial(0, report(*checks), [EXPECT]).statuses == (status,)


def test_caught_needs_every_triple_violated() -> None:
    second = Expectation("refund", "NO_REFUND_PROMISE", "surface:body")
    both = report(check(VIO), check(VIO, rule="refund", code="NO_REFUND_PROMISE"))
    one = report(check(VIO), check(SAT, rule="refund", code="NO_REFUND_PROMISE"))
    assert violation_trial(0, both, [EXPECT, second]).state is OutcomeState.CAUGHT
    trial = violation_trial(0, one, [EXPECT, second])
    assert trial.state is OutcomeState.MISSED
    assert trial.statuses == (ExpectedStatus.VIOLATED, ExpectedStatus.SATISFIED)


def test_precedence_oracle_error_first() -> None:
    # an error anywhere in an expected rule beats an undetermined check at the scope
    found = report(check(UND, code="CLAIM_UNAVAILABLE"), check(ERR, code="RULE_ERROR", scope="$"))
    assert violation_trial(0, found, [EXPECT]).state is OutcomeState.ORACLE_ERROR


def test_precedence_unreached_before_not_applicable() -> None:
    second = Expectation("refund", "NO_REFUND_PROMISE", "surface:subject")
    found = report(check(UND, code="CLAIMS_ABSENT"))
    assert violation_trial(0, found, [EXPECT, second]).state is OutcomeState.UNREACHED


def test_unreached_whatever_the_undetermined_code() -> None:
    found = report(check(UND, code="SOMETHING_ELSE"))
    assert violation_trial(0, found, [EXPECT]).state is OutcomeState.UNREACHED


def test_wrong_scope_is_not_applicable() -> None:
    found = report(check(VIO, scope="surface:subject"))
    assert violation_trial(0, found, [EXPECT]).state is OutcomeState.NOT_APPLICABLE


def test_missing_rule_is_not_applicable() -> None:
    missing = Expectation("gone", "X", "$")
    assert violation_trial(0, report(check(VIO)), [missing]).state is OutcomeState.NOT_APPLICABLE


def test_missed_keeps_acceptance_for_the_reason() -> None:
    accepted = violation_trial(0, report(check(SAT)), [EXPECT])
    assert accepted.state is OutcomeState.MISSED
    assert accepted.accepted
    rejected = violation_trial(
        0, report(check(SAT), check(VIO, rule="status", code="REQUIRED_FACT")), [EXPECT]
    )
    assert rejected.state is OutcomeState.MISSED
    assert not rejected.accepted


def test_control_trials() -> None:
    assert control_trial(0, report(check(SAT))).state is OutcomeState.PASSED_CLEAN_CONTROL
    assert control_trial(0, report(check(VIO))).state is OutcomeState.FALSE_POSITIVE
    assert control_trial(0, report(check(UND))).state is OutcomeState.FALSE_POSITIVE
    assert control_trial(0, report()).state is OutcomeState.FALSE_POSITIVE
    advisory_heuristic = report(
        check(VIO, kind=Kind.HEURISTIC), policy=CheckPolicy(block_heuristics=False)
    )
    assert control_trial(0, advisory_heuristic).state is OutcomeState.PASSED_CLEAN_CONTROL
