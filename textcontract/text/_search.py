"""Pattern searches under a shared time budget (SPEC §4).

Every search of one rule on one surface draws on one budget; running out raises
:class:`PatternTimeout`, which the rule turns into an ``error`` check. The
``regex`` package enforces the timeout inside the matcher, so a catastrophic
pattern cannot hang the run.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

import regex

__all__ = ["Budget", "Excerpt", "PatternTimeout", "excerpt", "find_matches"]


class PatternTimeout(Exception):
    """A rule's searches on one surface used up their time budget."""


class Budget:
    """A deadline shared by the searches of one rule on one surface."""

    __slots__ = ("_deadline", "timeout_ms")

    def __init__(self, timeout_ms: int) -> None:
        self.timeout_ms = timeout_ms
        self._deadline = time.monotonic() + timeout_ms / 1000.0

    def remaining(self) -> float:
        left = self._deadline - time.monotonic()
        if left <= 0:
            raise PatternTimeout
        return left


@dataclass(frozen=True)
class Excerpt:
    """A match with its span in normalized offsets and the text around it."""

    pattern: str
    start: int
    end: int
    match: str
    excerpt: str

    def to_json(self) -> dict[str, object]:
        return {
            "pattern": self.pattern,
            "span": [self.start, self.end],
            "match": self.match,
            "excerpt": self.excerpt,
        }


_CONTEXT = 40


def excerpt(pattern: str, text: str, start: int, end: int) -> Excerpt:
    """The match plus up to 40 characters each side, with ``…`` where cut."""
    left = max(0, start - _CONTEXT)
    right = min(len(text), end + _CONTEXT)
    snippet = text[left:right].replace("\n", " ")
    if left > 0:
        snippet = "…" + snippet
    if right < len(text):
        snippet += "…"
    return Excerpt(pattern, start, end, text[start:end], snippet)


def find_matches(
    pattern: regex.Pattern[str], text: str, budget: Budget
) -> Iterator[regex.Match[str]]:
    """Every non-overlapping match, stopping with :class:`PatternTimeout` when over budget.

    The matches are exactly those of ``finditer`` (an empty match is followed by the search
    one character further, and a non-empty match may start where an empty one did). The
    ``regex`` timeout of ``finditer`` covers the whole iteration from its creation, which is
    the budget's deadline.
    """
    try:
        yield from pattern.finditer(text, timeout=budget.remaining())
    except TimeoutError:
        raise PatternTimeout from None
