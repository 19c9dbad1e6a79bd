"""Where evidence stands in the original text, and where a surface's text stands in its file.

A :class:`TextLocation` is SPEC §10's ``location``: code-point offsets into the original
surface text, and the 1-based line and column of each end (``end`` exclusive). A
:class:`TextOrigin` says where a surface's text value begins in the file it was read from;
it is not part of the canonical document, so it changes no digest.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

__all__ = ["TextLocation", "TextOrigin"]


@dataclass(frozen=True)
class TextOrigin:
    """The file line where a surface's text value begins.

    ``file_lines`` is true when the text *is* the file from the start of that line on (a
    markdown body after its front matter): locations in it are then given in file lines.
    Otherwise the value is written in the file with quoting or escapes (a JSON string, a
    front-matter scalar), its locations stay relative to the text, and ``line`` is where a
    reader of the file finds the value. ``line`` is 1 when it is not known.
    """

    line: int = 1
    file_lines: bool = False

    def __post_init__(self) -> None:
        if self.line < 1:
            raise ValueError(f"a text origin's line is 1-based, got {self.line}")


class TextLocation(NamedTuple):
    """``[start, end)`` in code points, and the (line, column) of each end, 1-based.

    A named tuple rather than a dataclass: a pattern rule makes one per match it reports.
    """

    surface: str
    start: int
    end: int
    start_line: int
    start_column: int
    end_line: int
    end_column: int

    def to_json(self) -> dict[str, Any]:
        return {
            "surface": self.surface,
            "offsets": [self.start, self.end],
            "start": [self.start_line, self.start_column],
            "end": [self.end_line, self.end_column],
        }
