"""Printing text-format lines whole: wrapped here, under a hanging indent, never padded.

rich wraps a long line at the console's width and pads table titles and captions to the
table's width, which leaves trailing spaces in a file or a pipe and breaks continuation
lines at column 0. The text formats print through these two functions instead: a line is
wrapped to the width less its hanging indent, each continuation starts with the indent,
and no line ends in spaces.
"""

from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

__all__ = ["print_line", "print_table"]

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
    width = max(console.width - max(len(indent), len(hanging)), _NARROWEST)
    for index, piece in enumerate(text.wrap(console, width)):
        shown = Text(hanging if index else indent) + piece
        shown.rstrip()
        console.print(shown, soft_wrap=True)


def print_table(console: Console, title: str, table: Table, caption: str | None = None) -> None:
    """Print ``title`` as a line of its own, then ``table``, then ``caption`` if any."""
    print_line(console, Text(title, style="italic"))
    console.print(table)
    if caption is not None:
        print_line(console, Text(caption, style="dim italic"))
