"""From a span of normalized text back to the original characters that produced it (SPEC §10).

An :class:`OffsetMap` pairs one text with its normalization under one profile and divides both
into **units**: a run of original characters and the normalized characters they became. Each
unit starts as a *chunk* — a character and the combining marks after it — and chunks are
merged where normalizing them one by one differs from normalizing the whole text (``ｶ`` +
``ﾞ`` → ``ガ``, Hangul jamo → a syllable). A normalized span maps to the original span from
the start of the unit holding its first character to the end of the unit holding its last, so
a match covering part of a unit (``f`` of ``ﬁ``, ``e`` of ``e`` + U+0301) covers all of it.

Every unit is checked against the normalized text it must reproduce: a chunk is accepted only
when its normalization is what the whole-text normalization holds at that place, and a merged
run only when it is. Where chunks do not line up, they wait for the next chunk, and at the end
of a run the units before it are merged back until the rest lines up; the run as a whole
always does.

Cost. Most characters are **plain** (:mod:`textcontract.text._plain`): they map one to one
whatever surrounds them, so runs of them need no normalizing at all. Only the other
characters, with the plain character before each run of them, are normalized chunk by chunk.
The map is extended lazily, as far as the spans asked for reach. Finding the runs of other
characters: ASCII is plain, so a map first skips it and looks up each character beyond it in
the plain ranges; once it has looked up :data:`_SPARSE_LIMIT` of them (a text written mostly
beyond ASCII), it scans with two patterns of the plain ranges instead, compiled once per
process (about 150 million instructions, twice a cold ``check``'s own work, so a check whose
evidence lies in a text of few such characters never pays for them), and so does every map
after. Both ways find the same runs (tests/text/test_offsets.py).

Checks. The table is recomputed by the tests for the Unicode version it was built with, and
what it lists stays one to one in later versions (Unicode keeps the normalization and case
folding of assigned characters stable; a character assigned later is not in the table). At
run time every run of other characters must line up where the one-to-one stretch before it
says, the stretches must end where the normalized text does, and every span must keep SPEC
§10's promise — normalizing the original span yields the normalized one. When one of these
fails the map normalizes every chunk of the text instead (slower, exact).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from functools import cache

import regex

from textcontract.text._normalize import Profile, normalize
from textcontract.text._plain import PLAIN_RANGES

__all__ = ["OffsetMap"]

Unit = tuple[int, int, int, int]
"""``(start, end, normalized start, normalized end)``: original [start, end) became that."""

_MAX_WAITING = 64
_MERGE_BACK = 4
"""Units before a chunk that may be merged with it when it does not line up alone."""
"""Chunks that may wait for a later one before the rest of a run is taken as one unit."""


@cache
def _chunks() -> regex.Pattern[str]:
    """A character and the combining marks after it (or marks with nothing before them)."""
    return regex.compile(r"\P{M}\p{M}*|\p{M}+")


_SPARSE_LIMIT = 256
"""Characters beyond ASCII a map looks up one by one before it scans with the patterns (once
they are compiled, every map scans with them)."""

_BEYOND_ASCII = re.compile(r"[^\x00-\x7f]")


class _PlainChars:
    """The plain characters: their ranges, looked up by bisection, and the patterns matching
    runs of plain characters and of the others (compiled on first use)."""

    __slots__ = ("_ascii_plain", "_firsts", "_lasts", "_ranges", "_runs")

    def __init__(self, ranges: Iterable[tuple[int, int]]) -> None:
        self._ranges = tuple(sorted(ranges))
        self._firsts = [first for first, _ in self._ranges]
        self._lasts = [last for _, last in self._ranges]
        self._ascii_plain = all(self.is_plain(chr(code)) for code in range(128))
        self._runs: tuple[re.Pattern[str], re.Pattern[str]] | None = None

    def is_plain(self, char: str) -> bool:
        code = ord(char)
        at = bisect_right(self._firsts, code) - 1
        return at >= 0 and code <= self._lasts[at]

    @property
    def compiled(self) -> bool:
        """Whether the patterns are there (then a map scans with them from the start)."""
        return self._runs is not None

    def runs(self) -> tuple[re.Pattern[str], re.Pattern[str]]:
        if self._runs is None:
            ranges = "".join(f"\\U{first:08x}-\\U{last:08x}" for first, last in self._ranges)
            # Matching a run of a class is several times faster than searching for its
            # complement.
            self._runs = re.compile(f"[{ranges}]*"), re.compile(f"[^{ranges}]+")
        return self._runs

    def dense_run(self, text: str, start: int, stop: int) -> tuple[int, int] | None:
        """The first run of characters that are not plain starting in ``[start, stop)``,
        whole, found with the patterns."""
        plain, not_plain = self.runs()
        found = plain.match(text, start, stop)
        if found is None or found.end() == stop:
            return None
        run = not_plain.match(text, found.end())
        return None if run is None else run.span()

    def sparse_run(self, text: str, start: int, stop: int) -> tuple[tuple[int, int] | None, int]:
        """:meth:`dense_run`, found by looking up each character beyond ASCII; also how many
        characters were looked up."""
        if not self._ascii_plain:
            return self.dense_run(text, start, stop), 0
        is_plain = self.is_plain
        looked_up = 0
        position = start
        while True:
            found = _BEYOND_ASCII.search(text, position, stop)
            if found is None:
                return None, looked_up
            first = found.start()
            looked_up += 1
            if not is_plain(text[first]):
                last = first + 1
                while last < len(text) and not is_plain(text[last]):
                    last += 1
                return (first, last), looked_up + last - first - 1
            position = first + 1


@cache
def _plain_chars() -> _PlainChars:
    return _PlainChars(
        (int(first, 16), int(last, 16))
        for first, last in (item.split("-") for item in PLAIN_RANGES.split())
    )


def _fit_chunks(
    original: str,
    normalized: str,
    profile: Profile,
    span: tuple[int, int],
    produced: tuple[int, int],
) -> list[Unit]:
    """Units of ``original[span]``, which normalizes to ``normalized[produced]`` as a whole.

    A chunk that does not line up alone is tried merged with the units before it (a
    voicing mark that joins its kana, a mark that folding drops with its base's), then
    waits for the chunks after it (a leading jamo that needs its vowel).
    """
    start_of_run, end_of_run = span
    position, stop = produced
    units: list[Unit] = []
    waiting = -1  # where the chunks not yet lined up begin
    waited = 0
    for chunk in _chunks().finditer(original, start_of_run, end_of_run):
        first = chunk.start() if waiting < 0 else waiting
        fitted = _line_up(original, normalized, profile, units, (first, chunk.end()), position)
        if fitted is not None and (chunk.end() < end_of_run or fitted == stop):
            position, waiting, waited = fitted, -1, 0
            continue
        if fitted is not None:  # lined up, but the run's last chunk must end where it does
            units.pop()
        waiting, waited = first, waited + 1
        if waited > _MAX_WAITING:
            break
    while waiting >= 0:
        rest = normalize(original[waiting:end_of_run], profile)
        if not units or normalized[position:stop] == rest:
            units.append((waiting, end_of_run, position, stop))
            break
        waiting, _, position, _ = units.pop()
    return units


def _line_up(
    original: str,
    normalized: str,
    profile: Profile,
    units: list[Unit],
    chunk: tuple[int, int],
    position: int,
) -> int | None:
    """Add ``chunk`` as a unit, alone or merged with up to :data:`_MERGE_BACK` units before.

    Returns where its normalization ends, or None when it lines up in none of these ways.
    """
    first, last = chunk
    for merged in range(min(_MERGE_BACK, len(units)) + 1):
        if merged:
            first, _, position, _ = units[-merged]
        piece = normalize(original[first:last], profile)
        if normalized.startswith(piece, position):
            del units[len(units) - merged :]
            units.append((first, last, position, position + len(piece)))
            return position + len(piece)
    return None


class OffsetMap:
    """Normalized offsets of one text under one profile, mapped back to the original text.

    ``normalized`` must be ``normalize(original, profile)``. Built as far as :meth:`span`
    needs it; each call extends it at most to the end of the span asked for. With
    ``plain_runs=False`` every chunk of the text is normalized at once, plain or not: the
    plain path the fast one is tested against.
    """

    __slots__ = (
        "_ascii",
        "_exact",
        "_looked_up",
        "_mapped",
        "_normalized",
        "_original",
        "_plain_until",
        "_profile",
        "_starts",
        "_units",
    )

    def __init__(
        self, original: str, normalized: str, profile: Profile, *, plain_runs: bool = True
    ) -> None:
        self._original = original
        self._normalized = normalized
        self._profile = profile
        # Units that are not one to one, in order (one-to-one stretches lie between them),
        # and their normalized starts for bisection.
        self._units: list[Unit] = []
        self._starts: list[int] = []
        # Everything before (original, normalized) offsets ``_mapped`` is in ``_units``;
        # an ASCII text is one to one throughout (both profiles lowercase it).
        self._ascii = original.isascii()
        self._mapped = (len(original), len(normalized)) if self._ascii else (0, 0)
        self._exact = False
        self._plain_until = 0  # no run of characters that are not plain starts before this
        self._looked_up = 0  # characters beyond ASCII looked up one by one so far
        if not plain_runs:
            self._ascii = False
            self._map_every_chunk()

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original ``[start, end)`` of the normalized ``[start, end)``.

        An empty span maps to the original position where its normalized position begins.
        """
        if not 0 <= start <= end <= len(self._normalized):
            raise ValueError(f"span [{start}, {end}) is outside the normalized text")
        if self._ascii:
            return start, end
        self._extend(end)
        if start == end:
            position = self._position(start)
            return position, position
        found = (self._char(start)[0], self._char(end - 1)[1])
        if self._produces(found, start, end):
            return found
        if not self._exact:  # the plain-character table disagrees with this Unicode database
            self._map_every_chunk()
            return self.span(start, end)
        # Units that line up always pass; should they not, the whole text is never wrong.
        return 0, len(self._original)  # pragma: no cover

    def spans(self, spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
        """:meth:`span` of each normalized span, the map extended once for all of them."""
        if spans and not self._ascii:
            self._extend(max(end for _, end in spans))
        return [self.span(start, end) for start, end in spans]

    def _produces(self, found: tuple[int, int], start: int, end: int) -> bool:
        """SPEC §10's promise: normalizing the original span yields the match text."""
        produced = normalize(self._original[found[0] : found[1]], self._profile)
        return self._normalized[start:end] in produced

    def _char(self, index: int) -> tuple[int, int]:
        """The original span of the unit that produced normalized character ``index``."""
        at = bisect_right(self._starts, index) - 1
        if at < 0:
            return index, index + 1
        first, last, _, produced_end = self._units[at]
        if index < produced_end:
            return first, last
        offset = last + index - produced_end
        return offset, offset + 1

    def _position(self, index: int) -> int:
        at = bisect_right(self._starts, index) - 1
        if at < 0:
            return index
        first, last, _, produced_end = self._units[at]
        return first if index < produced_end else last + index - produced_end

    def _add(self, units: list[Unit]) -> None:
        for unit in units:
            first, last, produced, produced_end = unit
            if last - first != 1 or produced_end - produced != 1:
                self._units.append(unit)
                self._starts.append(produced)

    def _extend(self, end: int) -> None:
        """Map far enough that normalized position ``end`` lies in a known stretch."""
        original, normalized = self._original, self._normalized
        done, produced = self._mapped
        while done < len(original) and end > produced:
            # Plain characters map one to one: a run of others that starts beyond this
            # window leaves ``end`` in the one-to-one stretch before it.
            window = min(len(original), done + (end - produced) + 2)
            if window <= self._plain_until:
                return
            found = self._find_run(max(done, self._plain_until), window)
            if found is None:
                self._plain_until = window
                if window == len(original):  # one to one up to the end: check it ends there
                    self._finish(done + len(normalized) - produced == len(original))
                return
            run_start, run_end = found
            # The plain character before the run may combine with it (e + U+0301).
            first = run_start - 1 if run_start > done else run_start
            produced += first - done
            piece = normalize(original[first:run_end], self._profile)
            if not normalized.startswith(piece, produced):
                self._map_every_chunk()
                return
            span, target = (first, run_end), (produced, produced + len(piece))
            self._add(_fit_chunks(original, normalized, self._profile, span, target))
            done, produced = run_end, produced + len(piece)
            self._mapped = (done, produced)
        if done == len(original) and produced != len(normalized):
            self._map_every_chunk()

    def _find_run(self, start: int, stop: int) -> tuple[int, int] | None:
        """The first run of characters that are not plain starting in ``[start, stop)``."""
        chars = _plain_chars()
        if self._looked_up > _SPARSE_LIMIT or chars.compiled:
            return chars.dense_run(self._original, start, stop)
        found, looked_up = chars.sparse_run(self._original, start, stop)
        self._looked_up += looked_up
        return found

    def _finish(self, lined_up: bool) -> None:
        if lined_up:
            self._mapped = (len(self._original), len(self._normalized))
        else:
            self._map_every_chunk()

    def _map_every_chunk(self) -> None:
        """The slow map: every chunk of the text normalized and lined up (always exact)."""
        self._units, self._starts = [], []
        self._exact = True
        whole, produced = (0, len(self._original)), (0, len(self._normalized))
        self._add(_fit_chunks(self._original, self._normalized, self._profile, whole, produced))
        self._mapped = (len(self._original), len(self._normalized))
