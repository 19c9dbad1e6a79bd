"""Printing text-format lines whole: wrapped here, under a hanging indent, never padded.

rich wraps a long line at the console's width, folds a word longer than the width into
pieces, and pads table titles and captions to the table's width, which leaves trailing
spaces in a file or a pipe and breaks continuation lines at column 0. The text formats
print through :func:`print_line` instead: a line is wrapped at spaces to the width less its
hanging indent, each continuation starts with the indent, no line ends in spaces, and a
word longer than the line (an identifier, a path, a URL) stands whole on a line of its own —
a narrow terminal may fold it on screen, but the text is never cut (SPEC §11).
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterator

from rich.console import Console
from rich.text import Text

__all__ = ["line_spans", "print_line"]

_NARROWEST = 20
"""Columns a wrapped line keeps however narrow the console (a 10-column pane still reads)."""


def print_line(console: Console, line: Text | str, hanging: str = "", indent: str = "") -> None:
    """Print ``line`` wrapped to the console: its first line after ``indent``, the others
    after ``hanging``.

    A :class:`Text` marked ``no_wrap`` is printed whole (a narrow terminal folds it).
    """
    text = Text(line) if isinstance(line, str) else line
    if text.no_wrap:
        console.print(text, soft_wrap=True)
        return
    width = max(console.width, _NARROWEST + max(len(indent), len(hanging)))
    for pad, start, end in line_spans(text.plain, width, indent, hanging):
        shown = Text(pad) + text[start:end]
        shown.rstrip()  # an empty line is printed empty, not as its indent
        console.print(shown, soft_wrap=True)


def line_spans(
    text: str, width: int, indent: str = "", hanging: str = ""
) -> Iterator[tuple[str, int, int]]:
    """Each line ``text`` wraps into at ``width`` columns — the first after ``indent``, the
    others after ``hanging`` — as its pad and the ``(start, end)`` of its slice of ``text``.

    Broken at spaces only, as ``check``'s text output breaks (textwrap, words never broken
    or split at hyphens); the spaces at a break are dropped, and a word longer than the
    width keeps a line of its own. At least one line, and a new one at each line break.
    """
    wrappers = {
        first: textwrap.TextWrapper(
            width,
            initial_indent=first,
            subsequent_indent=hanging,
            expand_tabs=False,
            replace_whitespace=False,
            break_long_words=False,
            break_on_hyphens=False,
        )
        for first in {indent, hanging}
    }
    offset, first = 0, indent
    for part in text.split("\n"):
        position, pieces = 0, wrappers[first].wrap(part)
        for number, piece in enumerate(pieces):
            pad = first if number == 0 else hanging
            words = piece[len(pad) :]  # each line is a slice of the part: find where
            position = part.index(words, position)
            yield pad, offset + position, offset + position + len(words)
            position += len(words)
        if not pieces:
            yield first, offset, offset
        offset, first = offset + len(part) + 1, hanging
