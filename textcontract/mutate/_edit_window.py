"""The first window of a text edit that occurs once and rebuilds the new text, in linear time.

:func:`~textcontract.mutate._encode.text_edit` grows a window of the old text step by step
(one character each side, then to whole words) until ``old.count(find) == 1 and
old.replace(find, replacement) == new``. Testing that at every step costs the whole text
each time: on a repetitive text, where a window must grow through a long run before it
occurs once, the steps were quadratic (a 95 KB baseline took 17 s, 2 MB did not end).
This module finds the same window — the first of the same steps for which the same test
holds — with a few dozen tests of whole-text cost:

- **Occurring once is monotone.** ``old.count(find) == 1`` (occurrences that do not
  overlap) means every occurrence starts before the first one's end; a wider window's
  occurrences map onto the narrower one's, so it holds for every later window too. The
  first window where it holds is found by galloping, then bisecting, over the steps.
- **From there the test depends only on the shift.** ``str.replace`` replaces the first
  occurrence, ``shift`` characters left of the window (0: the window itself). With ``old =
  A + X + B`` and ``new = A + M + B`` (``A`` the common prefix, ``B`` the common suffix,
  which every window straddles), replacing there gives ``old`` with the same edit made
  ``shift`` characters earlier, so the test holds iff ``shift == 0`` or ``M + h == g + M``,
  where ``g`` is the ``shift`` characters before ``X`` and ``h`` the ``shift`` characters
  before ``B`` (:meth:`_Edit.same_edit_at`) — a property of the shift alone.
- **The shift never grows** (a wider window's first occurrence maps onto the narrower
  one's), so the steps where it is at most a given value start at one found by bisecting
  (:meth:`_Edit.first_step_within`). The shifts that pass the test are few and known from
  the texts: those at least ``len(M)`` are where ``M`` occurs in ``old`` within a bound
  given by how far the texts before ``X`` and before ``B`` agree, the smaller ones at most
  as many as the characters ``M`` ends with that also stand before ``B``. The first step
  whose shift is 0 or one of them is the window.

The window found is tested the plain way once more before it is returned; the tests hold
it, and the loop it replaced, to the same window on texts built to split them.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from operator import neg
from re import Match

from textcontract.errors import InternalError

__all__ = ["Stops", "common_prefix", "common_suffix", "first_rebuilding_window", "widen"]

# positions next to white space (``re``'s ``\s`` is ``str.isspace``, code point for code point)
_STOPS = re.compile(r"(?=\s)|(?<=\s)")


def widen(text: str, start: int, end: int) -> tuple[int, int]:
    """``[start, end)`` grown to whole words, and to one character at least."""
    if start == end:
        if end < len(text):
            end += 1
        else:
            start -= 1
    while start > 0 and not text[start - 1].isspace() and not text[start].isspace():
        start -= 1
    while end < len(text) and not text[end].isspace() and not text[end - 1].isspace():
        end += 1
    return start, end


class Stops:
    """The positions next to white space in texts, each found once: the variants of a
    baseline are edits of the same few surface texts."""

    def __init__(self) -> None:
        self._found: dict[str, array[int]] = {}

    def of(self, text: str) -> array[int]:
        """The positions of ``text`` next to white space, in order (shared: not to change)."""
        stops = self._found.get(text)
        if stops is None:
            stops = self._found[text] = array("q", map(Match.start, _STOPS.finditer(text)))
        return stops


class _Steps:
    """The windows ``text_edit`` tries, in order: each is the one before grown by a
    character each side and then to whole words; the last is the whole text.

    The two sides grow apart from each other, one stop at a time, where the stops are the
    positions next to white space (and both ends of the text): a step moves the start to
    the nearest stop below it and the end to the nearest stop above it (:func:`widen` of a
    window one character wider). So step ``i`` is the ``i``-th stop below the first start
    and the ``i``-th above the first end (or the text's ends), read from two lists made
    once, when a step after the first is asked for. Starts fall and ends rise with the
    index, so the steps where either passes a given position are found by bisecting.
    """

    def __init__(self, text: str, start: int, end: int, stops: Stops) -> None:
        self.text = text
        self.starts = array("q", [start])
        self.ends = array("q", [end])
        self.made = start == 0 and end == len(text)
        self.stops = stops

    def _make(self) -> None:
        if self.made:
            return
        self.made = True
        text, start, end = self.text, self.starts[0], self.ends[0]
        stops = self.stops.of(text)
        below = stops[: bisect_left(stops, start)]
        below.reverse()
        self.starts.extend(below)
        if self.starts[-1] != 0:
            self.starts.append(0)
        self.ends.extend(stops[bisect_right(stops, end) :])
        if self.ends[-1] != len(text):
            self.ends.append(len(text))

    @property
    def last(self) -> int:
        """The index of the last step (the whole text)."""
        self._make()
        return max(len(self.starts), len(self.ends)) - 1

    def window(self, index: int) -> tuple[int, int]:
        """The window of step ``index`` (at most :attr:`last`)."""
        if index:
            self._make()
        starts, ends = self.starts, self.ends
        return starts[min(index, len(starts) - 1)], ends[min(index, len(ends) - 1)]

    def occurs_once(self, index: int) -> bool:
        start, end = self.window(index)
        return self.text.count(self.text[start:end]) == 1

    def last_starting_from(self, low: int) -> int:
        """The last step whose start is at least ``low`` (step 0's is)."""
        self._make()
        count = bisect_right(self.starts, -low, key=neg)
        return self.last if count == len(self.starts) else count - 1

    def last_ending_by(self, high: int) -> int:
        """The last step whose end is at most ``high`` (step 0's is)."""
        self._make()
        count = bisect_right(self.ends, high)
        return self.last if count == len(self.ends) else count - 1

    def first_starting_by(self, position: int) -> int:
        """The first step whose start is at most ``position`` (past the last: none)."""
        self._make()
        count = bisect_left(self.starts, -position, key=neg)
        return self.last + 1 if count == len(self.starts) else count

    def first_ending_from(self, position: int) -> int:
        """The first step whose end is at least ``position`` (past the last: none)."""
        self._make()
        count = bisect_left(self.ends, position)
        return self.last + 1 if count == len(self.ends) else count


def _first_occurring_once(steps: _Steps) -> int:
    """The first step whose window occurs once (a monotone test: gallop, then bisect)."""
    if steps.occurs_once(0):
        return 0
    low, high = 0, 1  # the window of `low` occurs more than once
    while high < steps.last and not steps.occurs_once(high):
        low, high = high, 2 * high + 1
    high = min(high, steps.last)  # the whole text, the last step, occurs once
    while high - low > 1:
        middle = (low + high) // 2
        if steps.occurs_once(middle):
            high = middle
        else:
            low = middle
    return high


def first_rebuilding_window(
    old: str, new: str, window: tuple[int, int], common: tuple[int, int], stops: Stops
) -> tuple[int, int]:
    """The first of ``text_edit``'s steps, from ``window``, whose text occurs once in
    ``old`` and whose replace rebuilds ``new`` (module docstring).

    ``common`` is the length of the common prefix of ``old`` and ``new`` and of their
    common suffix, limited to the shorter text less the prefix (``text_edit``'s); every
    step starts within the one and ends within the other. ``stops`` keeps the positions
    found in ``old`` for the next edit of the same text."""
    start, end = window
    if _rebuilds(old, new, start, end):
        return start, end  # the usual case: the first window will do
    steps = _Steps(old, start, end, stops)
    edit = _Edit(old, new, steps, common)
    start, end = steps.window(edit.first_rebuilding(_first_occurring_once(steps)))
    if not _rebuilds(old, new, start, end):
        raise InternalError("the edit window found does not rebuild the text")  # unreachable
    return start, end


class _Edit:
    """``new`` as ``old`` with ``old[prefix:suffix_start]`` replaced by ``middle``, and the
    steps from the first whose window occurs once (module docstring)."""

    def __init__(self, old: str, new: str, steps: _Steps, common: tuple[int, int]) -> None:
        self.old, self.steps = old, steps
        self.prefix, suffix = common
        self.suffix_start = len(old) - suffix
        self.middle = new[self.prefix : len(new) - suffix]

    def shift(self, index: int) -> int:
        """How far left of step ``index``'s window its first occurrence is."""
        start, end = self.steps.window(index)
        return start - self.old.find(self.old[start:end])

    def first_rebuilding(self, index: int) -> int:
        """The first step from ``index`` (whose window occurs once) whose shift is 0 or
        passes :meth:`same_edit_at`."""
        shift = self.shift(index)
        if shift == 0 or self.same_edit_at(shift):
            return index
        last = self.first_step_within(0, index, self.steps.last)
        for candidate in self._passing_shifts(shift):
            if candidate >= shift:
                continue
            index = self.first_step_within(candidate, index, last)
            if index >= last:
                break
            shift = self.shift(index)
            if self.same_edit_at(shift):
                return index
        return last

    def first_step_within(self, shift: int, low: int, high: int) -> int:
        """The first step in ``[low, high]`` whose shift is at most ``shift`` (the shift
        never grows; step ``high``'s is at most ``shift``)."""
        old, steps = self.old, self.steps
        while low < high:
            middle = (low + high) // 2
            start, end = steps.window(middle)
            # no occurrence starting before start - shift
            if old.find(old[start:end], 0, end - shift - 1) < 0:
                high = middle
            else:
                low = middle + 1
        return low

    def same_edit_at(self, shift: int) -> bool:
        """Whether making the edit ``shift`` characters earlier gives ``new`` too:
        ``middle + h == g + middle`` (module docstring)."""
        old, middle = self.old, self.middle
        before = old[self.prefix - shift : self.prefix]
        return middle + old[self.suffix_start - shift : self.suffix_start] == before + middle

    def _passing_shifts(self, below: int) -> Iterator[int]:
        """Every shift under ``below`` that passes :meth:`same_edit_at`, largest first."""
        old, middle, prefix, suffix_start = self.old, self.middle, self.prefix, self.suffix_start
        size = len(middle)
        if size <= suffix_start and old[suffix_start - size : suffix_start] == middle:
            # from len(middle) up: middle stands shift characters before the prefix ends,
            # and the texts before the prefix's end and before middle's place in old agree
            # for shift - len(middle) characters
            agree = common_suffix(
                old[:prefix], old[: suffix_start - size], min(prefix, suffix_start - size)
            )
            low = prefix - min(below - 1, agree + size)
            place = old.find(middle, max(low, 0), prefix)
            while 0 <= place <= prefix - size:
                yield prefix - place
                place = old.find(middle, place + 1, prefix)
        # under len(middle): the shift's characters end middle and stand before the suffix
        ending = common_suffix(middle, old[:suffix_start], min(size, suffix_start))
        for shift in range(min(ending, size - 1, below - 1), 0, -1):
            if self.same_edit_at(shift):
                yield shift


def common_prefix(a: str, b: str) -> int:
    """The length of the longest common prefix (a binary search of slice comparisons)."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def common_suffix(a: str, b: str, limit: int) -> int:
    """The length of the longest common suffix, at most ``limit``."""
    low, high = 0, limit
    while low < high:
        middle = (low + high + 1) // 2
        if a[len(a) - middle :] == b[len(b) - middle :]:
            low = middle
        else:
            high = middle - 1
    return low


def _rebuilds(old: str, new: str, start: int, end: int) -> bool:
    """The plain test of ``text_edit``: the window occurs once and its replace gives ``new``."""
    find = old[start:end]
    replacement = new[start : len(new) - (len(old) - end)]
    return old.count(find) == 1 and old.replace(find, replacement) == new
