"""empty-surface: a surface a minimum-length rule reads comes out empty."""

from __future__ import annotations

from .baselines import caught, reasons, run

CONTRACT = """\
textcontract: 1
id: c
rules:
  - {id: long, type: MinimumTokens, surfaces: [body], minimum: 3}
  - {id: range, type: TokenRange, min: 1}
  - {id: short, type: TokenRange, max: 50}
  - {id: nothing, type: MinimumTokens, minimum: 0, minimum_unique: 0}
"""
DOCUMENT = {"surfaces": {"body": "Your lamp ships today.", "subject": "Shipped"}}


def test_one_variant_per_rule_and_surface_with_a_floor() -> None:
    case, contract = run(CONTRACT, DOCUMENT, None, "empty-surface")
    assert [(v.expect[0].rule, v.expect[0].scope) for v in case.variants] == [
        ("long", "surface:body"),
        ("range", "surface:body"),
        ("range", "surface:subject"),
    ]
    assert case.variants[0].change == {
        "replace": [{"surface": "body", "find": "Your lamp ships today.", "with": ""}]
    }
    assert caught(contract, case) == [True, True, True]
    assert reasons(case) == [
        "short: it bounds the length from above only",
        "nothing: it requires no token at all",
    ]
