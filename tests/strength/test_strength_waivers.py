"""Waivers as values (SPEC §17.4): dates, scope, in force through expiry, the lowest id."""

from __future__ import annotations

from datetime import date

import pytest

from textcontract.errors import InputError
from textcontract.strength import Waiver, covering_waiver, oracle_rules, parse_date, parse_waivers


def _waiver(waiver_id: str, probes: tuple[str, ...] = (), rules: tuple[str, ...] = ()) -> Waiver:
    return Waiver(waiver_id, probes, rules, "r", "a", date(2026, 12, 31))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026-12-31", date(2026, 12, 31)),
        ("2024-02-29", date(2024, 2, 29)),
        ("2026-02-29", None),
        ("20261231", None),
        ("2026-1-31", None),
        ("2026-12-31T00:00", None),
        (" 2026-12-31", None),
    ],
)
def test_dates_are_calendar_dates_written_yyyy_mm_dd(text: str, expected: date | None) -> None:
    assert parse_date(text) == expected


def test_a_waiver_is_in_force_through_its_expiry_day() -> None:
    waiver = _waiver("w", probes=("c/p",))
    assert waiver.in_force(date(2026, 12, 31))
    assert not waiver.in_force(date(2027, 1, 1))
    assert waiver.status(date(2026, 12, 31), True).value == "honoured"
    assert waiver.status(date(2026, 12, 31), False).value == "unused"
    assert waiver.status(date(2027, 1, 1), True).value == "expired"


def test_scope_by_probe_or_by_a_rule_an_expectation_names() -> None:
    by_rule = _waiver("w", rules=("tone",))
    assert by_rule.covers("c/p", ["status", "tone"])
    assert not by_rule.covers("c/p", ["status"])
    assert _waiver("w", probes=("c/p",)).covers("c/p", [])
    assert oracle_rules("claims:CLAIM_STATE_MISMATCH:surface:body;tone:F:$") == ("claims", "tone")
    assert oracle_rules(None) == ()


def test_the_lowest_in_force_id_covers_a_trial() -> None:
    waivers = [
        _waiver("b", probes=("c/p",)),
        _waiver("a", rules=("tone",)),
        Waiver("0-expired", ("c/p",), (), "r", "a", date(2020, 1, 1)),
    ]
    chosen = covering_waiver(waivers, "c/p", ["tone"], date(2026, 1, 1))
    assert chosen is not None
    assert chosen.id == "a"
    assert covering_waiver(waivers, "c/q", [], date(2026, 1, 1)) is None


def test_a_waivers_file_needs_its_list_and_ignores_other_keys() -> None:
    assert parse_waivers({"waivers": [], "contract": "x.yaml"}, "w.yaml") == ()
    with pytest.raises(InputError, match="missing required key 'waivers'"):
        parse_waivers({"contract": "x.yaml"}, "w.yaml")
    with pytest.raises(InputError, match="a waiver's scope is empty"):
        parse_waivers(
            {
                "waivers": [
                    {
                        "id": "w",
                        "probes": [],
                        "reason": "r",
                        "approved_by": "a",
                        "expires": "2026-01-01",
                    }
                ]
            },
            "w.json",
        )
