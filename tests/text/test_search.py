"""Timed pattern searches and excerpts (SPEC §4)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import cast

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

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


class _FakeClock:
    """A thread clock that moves only when the test says so."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_catastrophic_pattern_times_out() -> None:
    with pytest.raises(PatternTimeout):
        list(find_matches(regex.compile(r"(a|aa)+$"), "a" * 40 + "!", Budget(50)))


def test_spent_budget_raises_before_searching() -> None:
    budget = Budget(0)
    with pytest.raises(PatternTimeout):
        next(find_matches(regex.compile("a"), "a", budget))
    with pytest.raises(PatternTimeout):
        budget.remaining()


def test_budget_counts_down_on_its_clock() -> None:
    clock = _FakeClock()
    budget = Budget(250, clock)
    assert budget.timeout_ms == 250
    assert budget.remaining() == pytest.approx(0.25)
    clock.now += 0.2
    assert budget.remaining() == pytest.approx(0.05)
    assert not budget.spent()
    clock.now += 0.05
    assert budget.spent()
    with pytest.raises(PatternTimeout):
        budget.remaining()


def test_searches_share_one_budget() -> None:
    clock = _FakeClock()
    budget = Budget(100, clock)
    pattern = regex.compile("a")
    for _ in range(3):
        clock.now += 0.03
        assert [m.span() for m in find_matches(pattern, "aa", budget)] == [(0, 1), (1, 2)]
    clock.now += 0.02  # 110 ms of the thread's time since the budget began
    with pytest.raises(PatternTimeout):
        list(find_matches(pattern, "aa", budget))


def test_another_threads_work_does_not_draw_on_a_budget() -> None:
    budget = Budget(100)  # this thread's CPU time

    def burn() -> None:  # 0.3 s of the other thread's CPU time, three times the budget
        started = time.thread_time()
        while time.thread_time() - started < 0.3:
            pass

    worker = threading.Thread(target=burn)
    worker.start()
    worker.join()
    assert budget.remaining() > 0.05
    assert [m.span() for m in find_matches(regex.compile("a"), "a", budget)] == [(0, 1)]


class _Interrupted:
    """A pattern whose iterations raise TimeoutError as regex does when the process clock
    (other threads' work included) passes the timeout: iteration ``i`` stops before the match
    after its first ``pauses[i]``, if there is one."""

    def __init__(self, pattern: regex.Pattern[str], pauses: list[int]) -> None:
        self.pattern = pattern
        self.flags = pattern.flags
        self.pauses = list(pauses)
        self.starts: list[int] = []
        self.timeouts: list[float] = []
        self.concurrent: list[object] = []

    def finditer(
        self, text: str, pos: int, *, timeout: float, concurrent: object
    ) -> Iterator[regex.Match[str]]:
        self.starts.append(pos)
        self.timeouts.append(timeout)
        self.concurrent.append(concurrent)
        pause = self.pauses.pop(0) if self.pauses else None
        for index, match in enumerate(self.pattern.finditer(text, pos)):
            if index == pause:
                raise TimeoutError("regex timed out")
            yield match


def _resumed_spans(source: str, text: str, pauses: list[int]) -> list[tuple[int, int]]:
    fake = _Interrupted(regex.compile(source), pauses)
    budget = Budget(1000, _FakeClock())  # the thread has time left: the timeouts are spurious
    found = find_matches(cast(regex.Pattern[str], fake), text, budget)
    spans = [match.span() for match in found]
    assert set(fake.concurrent) == {False}
    return spans


@pytest.mark.parametrize(
    ("source", "text", "pauses", "starts"),
    [
        pytest.param("ab", "ab ab ab", [1], [0, 2], id="after-a-match"),
        pytest.param("ab", "ab ab ab", [0, 2], [0, 0, 5], id="before-any-match-then-after-two"),
        pytest.param("x*", "axxb", [1, 2, 2], [0, 0, 3], id="empty-matches"),
        pytest.param("|a", "aa", [1, 2, 2], [0, 0, 1, 2], id="empty-then-non-empty-same-start"),
        pytest.param(r"\Ga", "aab", [1], [0, 1], id="search-anchor"),
        pytest.param(r"(?<=a)b", "abab", [1], [0, 2], id="lookbehind-sees-before-resume"),
    ],
)
def test_spurious_timeout_resumes_exactly(
    source: str, text: str, pauses: list[int], starts: list[int]
) -> None:
    fake = _Interrupted(regex.compile(source), pauses)
    found = find_matches(cast(regex.Pattern[str], fake), text, Budget(1000, _FakeClock()))
    assert [m.span() for m in found] == [m.span() for m in regex.finditer(source, text)]
    assert fake.starts == starts


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(["", "a", "x*", "|a", "a|", r"\b", r"\Ga|", "(?=a)", "a*?", "(?<=a)|b", "^|a"]),
    st.text(alphabet="axb ", max_size=8),
    st.lists(st.integers(min_value=2, max_value=3), max_size=4),
)
def test_resumed_search_equals_finditer(source: str, text: str, pauses: list[int]) -> None:
    assert _resumed_spans(source, text, pauses) == [m.span() for m in regex.finditer(source, text)]


def test_timeout_with_the_budget_spent_is_a_timeout() -> None:
    clock = _FakeClock()
    budget = Budget(100, clock)

    class _Slow(_Interrupted):
        def finditer(
            self, text: str, pos: int, *, timeout: float, concurrent: object
        ) -> Iterator[regex.Match[str]]:
            del text, pos, concurrent
            clock.now += timeout  # the thread itself used the time
            raise TimeoutError("regex timed out")
            yield from ()

    fake = _Slow(regex.compile("a"), [])
    with pytest.raises(PatternTimeout):
        list(find_matches(cast(regex.Pattern[str], fake), "aaa", budget))


def test_two_timeouts_without_a_match_are_a_timeout() -> None:
    fake = _Interrupted(regex.compile("a"), [0, 0, 0])
    with pytest.raises(PatternTimeout):
        list(find_matches(cast(regex.Pattern[str], fake), "aaa", Budget(1000, _FakeClock())))
    assert fake.starts == [0, 0]


def test_reverse_patterns_are_not_resumed() -> None:
    fake = _Interrupted(regex.compile("(?r)a"), [1])
    with pytest.raises(PatternTimeout):
        list(find_matches(cast(regex.Pattern[str], fake), "aaa", Budget(1000, _FakeClock())))


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
        pytest.param("a\r\nrefund\rb", 3, 9, "a refund b", id="each-line-break-one-space"),
        pytest.param("refund" + "z" * 41, 0, 6, "refund" + "z" * 40 + "…", id="cut-right-only"),
    ],
)
def test_excerpt(text: str, start: int, end: int, snippet: str) -> None:
    assert excerpt(text, start, end) == snippet
