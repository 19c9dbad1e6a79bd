"""required-delete: the required match cut out, found in normalized text, cut in the original."""

from __future__ import annotations

import regex

from textcontract.mutate.required_delete import delete_matches
from textcontract.rules import CompiledPattern
from textcontract.text import Profile

from .baselines import caught, reasons, run


def _patterns(*sources: str) -> tuple[CompiledPattern, ...]:
    return tuple(CompiledPattern(s, regex.compile(s, regex.IGNORECASE)) for s in sources)


def test_matches_are_cut_in_the_original_characters() -> None:
    cut = delete_matches(
        "Order ＃1001 ships; see ORDER ＃1001.", _patterns(r"#\d+"), Profile.FOLDED, 250
    )
    assert cut == "Order ships; see ORDER."
    assert delete_matches("a café b", _patterns("cafe"), Profile.FOLDED, 250) == "a b"
    assert delete_matches("xaabby", _patterns("ab"), Profile.TEXT, 250) == "xy"  # joined anew


def test_any_cuts_every_pattern_all_cuts_one_at_a_time() -> None:
    contract = """\
textcontract: 1
id: c
rules:
  - {id: any, type: RequiredPattern, patterns: ['#\\d{4}', 'order']}
  - {id: all, type: RequiredPattern, surfaces: [body], match: all, patterns: ['hi', 'bye']}
  - {id: empty, type: RequiredPattern, surfaces: [body], patterns: ['(?=hi)']}
"""
    case, parsed = run(contract, "hi, order #1234 left. bye", None, "required-delete")
    texts = [v.document.surface("body").text for v in case.variants]  # type: ignore[union-attr]
    assert texts == ["hi, left. bye", ", order #1234 left. bye", "hi, order #1234 left."]
    assert caught(parsed, case) == [True, True, True]
    assert reasons(case) == [
        "empty on surface 'body': pattern '(?=hi)' matches empty text, which cannot be cut"
    ]
