"""Lines and columns of a text as SPEC §10 counts them.

Line breaks are ``\\n``, ``\\r\\n`` and ``\\r``; nothing else (U+2028, NEL, form feed and
vertical tab are not), as in SARIF. Lines and columns are 1-based and columns count code
points. A position between the ``\\r`` and the ``\\n`` of a ``\\r\\n`` is still on the line
that break ends: the next line begins after the whole break.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["LineCounter", "line_column"]


def line_column(text: str, offset: int) -> tuple[int, int]:
    """The 1-based line and column of code-point ``offset`` (``0 <= offset <= len(text)``)."""
    return LineCounter(text).position(offset)


class LineCounter:
    """Lines and columns of many offsets of one text, each counted from the last one asked.

    Counting runs between the two offsets only, so offsets asked in increasing order cost
    one pass over the text they span, and :meth:`positions` asks them in that order.
    """

    __slots__ = ("_has_cr", "_line", "_offset", "_text")

    def __init__(self, text: str) -> None:
        self._text = text
        self._has_cr = "\r" in text
        self._offset = 0
        self._line = 1

    def position(self, offset: int) -> tuple[int, int]:
        return self.positions((offset,))[offset]

    def positions(self, offsets: Iterable[int]) -> dict[int, tuple[int, int]]:
        """``(line, column)`` of each offset (``0 <= offset <= len(text)``)."""
        text = self._text
        ordered = sorted(set(offsets))
        if ordered and not (ordered[0] >= 0 and ordered[-1] <= len(text)):
            raise ValueError(f"offsets {ordered[0]}..{ordered[-1]} leave the text (0..{len(text)})")
        found: dict[int, tuple[int, int]] = {}
        for offset in ordered:
            # Inside a \r\n: the column after the \r, on the line that break ends.
            inside = self._has_cr and 0 < offset < len(text) and text[offset - 1] == "\r"
            at = offset - 1 if inside and text[offset] == "\n" else offset
            line, column = self._count(at)
            found[offset] = (line, column + (at != offset))
        return found

    def _count(self, offset: int) -> tuple[int, int]:
        """Line and column of an offset outside any ``\r\n``, from the last one counted."""
        text, last = self._text, self._offset
        low, high = (last, offset) if offset >= last else (offset, last)
        breaks = text.count("\n", low, high)
        if self._has_cr:
            breaks += text.count("\r", low, high) - text.count("\r\n", low, high)
        line = self._line + breaks if offset >= last else self._line - breaks
        self._offset, self._line = offset, line
        line_start = text.rfind("\n", 0, offset)
        if self._has_cr:
            line_start = max(line_start, text.rfind("\r", 0, offset))
        return line, offset - line_start
