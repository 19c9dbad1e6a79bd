"""Timed pattern searches and excerpts (SPEC §4)."""

from __future__ import annotations

import time

import pytest
import regex

from textcontract.text import Budget, PatternTimeout, excerpt, find_matches


def _spans(pattern: str, text: str) -> list[tuple[int, int]]:
    compiled = regex.compile(pattern, regex.IGNORECASE)
    return [m.span() for m in find_matches(compiled, text, Budget(1000))]


@pytest.mark.parametrize(
    ("pattern", "text", "spans"),
    [
        pytest.param(r"refund", "Refund? REFUND!", [(0, 6), (8, 14)], id="ignorecase-all"),
        pytest.param(r"aa", "aaaa a", [(0, 2), (2, 4)], id="non-overlapping"),
        pytest.param(r"zzz", "abc", [], id="none"),
        pytest.param(r"", "abc", [(0, 0), (1, 1), (2, 2), (3, 3)], id="empty-pattern-advances"),
        pytest.param(r"\b", "ab cd", [(0, 0), (2, 2), (3, 3), (5, 5)], id="word-boundaries"),
        pytest.param(r"x*", "axx", [(0, 0), (1, 3), (3, 3)], id="empty-then-run"),
        pytest.param(r"(?=a)", "aXa", [(0, 0), (2, 2)], id="lookahead"),
        pytest.param(r"|a", "a", [(0, 0), (0, 1), (1, 1)], id="empty-then-nonempty-same-start"),
        pytest.param(r"(?<=a)b", "abab", [(1, 2), (3, 4)], id="lookbehind-sees-context"),
        pytest.param(r"$", "", [(0, 0)], id="empty-text"),
    ],
)
def test_matches_equal_finditer(pattern: str, text: str, spans: list[tuple[int, int]]) -> None:
    assert _spans(pattern, text) == spans
    expected = [m.span() for m in regex.finditer(pattern, text, regex.IGNORECASE)]
    assert spans == expected


def test_catastrophic_pattern_times_out_quickly() -> None:
    pattern = regex.compile(r"(a|aa)+$")
    text = "a" * 40 + "!"
    started = time.monotonic()
    with pytest.raises(PatternTimeout):
        list(find_matches(pattern, text, Budget(50)))
    assert time.monotonic() - started < 0.5


def test_spent_budget_raises_before_searching() -> None:
    budget = Budget(0)
    with pytest.raises(PatternTimeout):
        next(find_matches(regex.compile("a"), "a", budget))
    with pytest.raises(PatternTimeout):
        budget.remaining()


def test_searches_share_one_budget() -> None:
    budget = Budget(80)
    slow = regex.compile(r"(a|aa)+$")
    started = time.monotonic()
    for _ in range(5):
        with pytest.raises(PatternTimeout):
            list(find_matches(slow, "a" * 40 + "!", budget))
    # Five searches drew on one 80 ms budget rather than 80 ms each.
    assert time.monotonic() - started < 0.3


def test_budget_remaining_counts_down() -> None:
    budget = Budget(10_000)
    assert budget.timeout_ms == 10_000
    assert 9.0 < budget.remaining() <= 10.0


@pytest.mark.parametrize(
    ("text", "start", "end", "snippet"),
    [
        pytest.param("no refund here", 3, 9, "no refund here", id="short-no-ellipsis"),
        pytest.param(
            "x" * 50 + "refund" + "y" * 50,
            50,
            56,
            "…" + "x" * 40 + "refund" + "y" * 40 + "…",
            id="cut-both-sides",
        ),
        pytest.param("a\nrefund\nb", 2, 8, "a refund b", id="newlines-become-spaces"),
        pytest.param("refund" + "z" * 41, 0, 6, "refund" + "z" * 40 + "…", id="cut-right-only"),
    ],
)
def test_excerpt(text: str, start: int, end: int, snippet: str) -> None:
    found = excerpt("refund", text, start, end)
    assert found.excerpt == snippet
    assert found.to_json() == {
        "pattern": "refund",
        "span": [start, end],
        "match": text[start:end],
        "excerpt": snippet,
    }
