"""Pattern searches under a shared time budget (SPEC §4).

Every search of one rule on one surface draws on one :class:`Budget`; running out raises
:class:`PatternTimeout`, which the rule turns into an ``error`` check.

What the budget measures: CPU time of the thread that runs the check (``time.thread_time``),
from the budget's creation — the searches and the little work between them. Other threads and
other processes do not draw on it, so a check's result does not depend on what runs beside it.

How it is enforced: the ``regex`` package stops a search itself when given ``timeout=``, so a
catastrophic pattern cannot hang the run, but it measures that timeout with C ``clock()``, CPU
time of the whole *process* since the search started. Each search is therefore run with
``concurrent=False``: the matcher keeps the GIL while it runs, so no other Python thread can
run and the process clock advances with this thread alone. Between two matches of one search
other threads do run, and their CPU time reaches the process clock; when ``regex`` then reports
a timeout although this thread has time left, the search resumes after its last match with a
fresh process clock, exactly as the interrupted iteration would have continued.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import regex

__all__ = ["Budget", "PatternHit", "PatternTimeout", "excerpt", "find_matches"]


class PatternTimeout(Exception):
    """A rule's searches on one surface used up their time budget."""


class Budget:
    """A time budget shared by the searches of one rule on one surface.

    Measured with ``clock`` — CPU time of the calling thread unless a test passes another —
    so a budget belongs to the thread that creates it.
    """

    __slots__ = ("_clock", "_deadline", "timeout_ms")

    def __init__(self, timeout_ms: int, clock: Callable[[], float] = time.thread_time) -> None:
        self.timeout_ms = timeout_ms
        self._clock = clock
        self._deadline = clock() + timeout_ms / 1000.0

    def remaining(self) -> float:
        """Seconds left; raises :class:`PatternTimeout` when none are."""
        left = self._deadline - self._clock()
        if left <= 0:
            raise PatternTimeout
        return left

    def spent(self) -> bool:
        return self._deadline - self._clock() <= 0


@dataclass(frozen=True)
class PatternHit:
    """A pattern's match: its span in the searched (normalized) text and the text it covers.

    The evidence a rule reports quotes the original text at the match's location instead
    (:func:`excerpt`, SPEC §21); ``match`` is what the pattern matched, kept as
    ``normalized`` beside it.
    """

    pattern: str
    start: int
    end: int
    match: str


_CONTEXT = 40


def excerpt(text: str, start: int, end: int) -> str:
    """``text[start:end]`` plus up to 40 characters each side, ``…`` where cut.

    Each line break (``\r\n``, ``\r`` or ``\n``) is shown as one space, so an excerpt is
    one line.
    """
    left = max(0, start - _CONTEXT)
    right = min(len(text), end + _CONTEXT)
    snippet = text[left:right].replace("\r\n", " ").replace("\r", " ").replace("\n", " ")
    if left > 0:
        snippet = "…" + snippet
    if right < len(text):
        snippet += "…"
    return snippet


def find_matches(
    pattern: regex.Pattern[str], text: str, budget: Budget
) -> Iterator[regex.Match[str]]:
    """Every non-overlapping match, stopping with :class:`PatternTimeout` when over budget.

    The matches are exactly those of ``finditer`` (an empty match is followed by the search
    one character further, and a non-empty match may start where an empty one did).

    A search resumed after a timeout that this thread's budget does not confirm (see the
    module docstring) starts a fresh ``finditer`` at the end of the last match. That is the
    state the interrupted iteration was in, except after an empty match, which it may not
    repeat: the fresh iteration finds that empty match again first, and it is dropped.
    Reverse patterns (``(?r)``) are not resumed, and neither is a search that timed out twice
    in a row without a match: with the GIL held, only this thread's own work (or native code
    running without the GIL elsewhere) can cause that.
    """
    position = 0
    after_empty = False  # the last match was empty, at ``position``
    stalled = False
    while True:
        progressed = False
        first = True
        try:
            for match in pattern.finditer(
                text, position, timeout=budget.remaining(), concurrent=False
            ):
                if first:
                    first = False
                    if after_empty and match.span() == (position, position):
                        continue
                progressed = True
                position = match.end()
                after_empty = match.start() == position
                yield match
            return
        except TimeoutError:
            if budget.spent() or (stalled and not progressed) or pattern.flags & regex.REVERSE:
                raise PatternTimeout from None
        except MemoryError:
            # regex gives up on some patterns by running out of memory, whatever the machine's
            # (fuzzy matching in a repeated lookaround: ``(?=aa{e<=1})*`` on "a" takes ~600 MB).
            raise MemoryError(
                f"the regex package ran out of memory searching pattern {pattern.pattern!r}"
            ) from None
        stalled = not progressed
