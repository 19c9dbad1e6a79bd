"""GitHub-flavoured Markdown text that shows any string as it is: cells, tables, inline text.

A table cell ends at a ``|`` and a row at a line break. :func:`text` backslash-escapes the
characters that have a meaning inside a line — emphasis, code, links, HTML, entities,
strikethrough, and the ``:``, ``@`` and ``www.`` that start an autolink — so a document's
``*``, ``_``, ``<b>``, ``[link](…)`` or URL shows as written instead of being rendered or
linked, and a pipe never splits a cell; :func:`cell` also turns line breaks into ``<br>``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

__all__ = ["Raw", "cell", "table", "text"]

_SPECIAL = re.compile(r"([\\`*_\[\]<>&|~:@])|(?<=www)(\.)", re.IGNORECASE)
_BREAKS = re.compile(r"\r\n|[\r\n\u2028\u2029\x85]")


class Raw(str):
    """Markdown written here (figures, emphasis), passed through unescaped."""

    __slots__ = ()


def text(value: object) -> str:
    """``value`` as literal Markdown inline text (line breaks kept); :class:`Raw` as it is."""
    if isinstance(value, Raw | int | float):
        return str(value)
    return _SPECIAL.sub(lambda match: "\\" + match.group(), str(value))


def cell(value: object) -> str:
    """One table cell: literal text, line breaks as ``<br>``."""
    return _BREAKS.sub("<br>", text(value))


def table(header: Sequence[str], rows: Iterable[Sequence[object]], align: str = "") -> str:
    """A Markdown table; ``align`` holds ``l`` or ``r`` per column (default: all left)."""
    marks = ["---:" if mark == "r" else "---" for mark in (align or "l" * len(header))]
    lines = [
        "| " + " | ".join(cell(name) for name in header) + " |",
        "| " + " | ".join(marks) + " |",
    ]
    lines.extend("| " + " | ".join(cell(value) for value in row) + " |" for row in rows)
    return "\n".join(lines) + "\n"
