"""``accepted`` and ``complete`` exactly as SPEC §3 defines them."""

from __future__ import annotations

import pytest

from textcontract.model import (
    Check,
    CheckPolicy,
    Enforcement,
    Kind,
    Severity,
    Status,
    is_accepted,
    is_complete,
)


def _check(status: Status, kind: Kind = Kind.INVARIANT, advisory: bool = False) -> Check:
    return Check(
        rule_id="r",
        rule_version=1,
        type="T",
        kind=kind,
        status=status,
        code="C",
        scope="$",
        severity=Severity.MEDIUM,
        enforcement=Enforcement.ADVISORY if advisory else Enforcement.BLOCKING,
    )


BOTH = CheckPolicy(block_heuristics=True, block_undetermined=True)
LENIENT = CheckPolicy(block_heuristics=False, block_undetermined=False)

S, V, U, E = Status.SATISFIED, Status.VIOLATED, Status.UNDETERMINED, Status.ERROR
INV, HEU = Kind.INVARIANT, Kind.HEURISTIC


@pytest.mark.parametrize(
    ("check", "policy", "accepted"),
    [
        pytest.param(_check(S), BOTH, True, id="satisfied"),
        pytest.param(_check(V, INV), LENIENT, False, id="invariant-violation-always-rejects"),
        pytest.param(_check(V, HEU), BOTH, False, id="heuristic-violation-blocks"),
        pytest.param(_check(V, HEU), LENIENT, True, id="heuristic-violation-advisory-by-policy"),
        pytest.param(_check(U), BOTH, False, id="undetermined-blocks"),
        pytest.param(_check(U), LENIENT, True, id="undetermined-allowed-by-policy"),
        pytest.param(_check(E), LENIENT, False, id="error-always-rejects"),
        pytest.param(_check(E, advisory=True), LENIENT, False, id="advisory-error-still-rejects"),
        pytest.param(_check(V, INV, advisory=True), BOTH, True, id="advisory-invariant-violation"),
        pytest.param(_check(U, advisory=True), BOTH, True, id="advisory-undetermined"),
    ],
)
def test_accepted(check: Check, policy: CheckPolicy, accepted: bool) -> None:
    assert is_accepted((check, _check(S)), policy) is accepted


def test_no_checks_is_neither_accepted_nor_complete() -> None:
    assert is_accepted((), BOTH) is False
    assert is_complete(()) is False


@pytest.mark.parametrize(
    ("statuses", "complete"),
    [
        pytest.param((S, V), True, id="satisfied-and-violated"),
        pytest.param((S, U), False, id="undetermined"),
        pytest.param((S, E), False, id="error"),
    ],
)
def test_complete(statuses: tuple[Status, ...], complete: bool) -> None:
    checks = tuple(_check(status, advisory=True) for status in statuses)
    assert is_complete(checks) is complete
