"""required-delete: the required match cut out, found in normalized text, cut in the original."""

from __future__ import annotations

from typing import Any

import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from textcontract.mutate.required_delete import _cut, delete_matches
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


def _plain_cut(text: str, spans: list[tuple[int, int]]) -> str:
    """``_cut`` as it was: one new string per span (quadratic in the number of spans)."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    for start, end in reversed(merged):
        closers = " \t\n.,;:!?)]}"
        if start > 0 and text[start - 1] == " " and (end == len(text) or text[end] in closers):
            start -= 1
        text = text[:start] + text[end:]
    return text


@st.composite
def _text_and_spans(draw: st.DrawFn) -> tuple[str, list[tuple[int, int]]]:
    text = draw(st.text(st.sampled_from(list("  a.b\n,")), max_size=16))
    bounds = st.integers(0, len(text))
    pairs = draw(st.lists(st.tuples(bounds, bounds), max_size=5))
    return text, [(min(pair), max(pair)) for pair in pairs if pair[0] != pair[1]]


@settings(max_examples=500, deadline=None)
@given(_text_and_spans())
def test_cutting_joins_the_kept_pieces_as_the_plain_cut_did(case: tuple[str, Any]) -> None:
    """Spans next to each other, doubled spaces taken with a later cut, a span at either end."""
    text, spans = case
    assert _cut(text, spans) == _plain_cut(text, spans)
