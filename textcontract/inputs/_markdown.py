"""Markdown/text documents (SPEC §2.2): optional YAML front matter, then the ``body``."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from textcontract._surface_origins import markdown_origins
from textcontract._yaml import Positions, load_yaml
from textcontract.errors import InputError, Location, Problem
from textcontract.model import BODY, FORMATS, PLAIN, Document, Surface, TextOrigin, type_name

__all__ = ["parse_markdown", "split_front_matter"]

_FRONT_MATTER_KEYS = ("surfaces", "claims", "states", "anchors")


def split_front_matter(text: str, source: str | None) -> tuple[str | None, str]:
    """``(front matter YAML or None, body)``; the fences are lines holding only ``---``.

    Lines end at a line feed, CR LF or a carriage return (SPEC §10). Only the front
    matter's lines are visited, so a large document costs one copy (its body).
    """
    front, body_start = _split_front_matter(text, source)
    return (None if front is None else front[0]), text[body_start:]


# A line and its break; breaks are \n, \r\n and \r only, as SPEC §10 counts lines.
_LINE = re.compile(r"([^\r\n]*)(\r\n|\r|\n|\Z)")


def _split_front_matter(text: str, source: str | None) -> tuple[tuple[str, int] | None, int]:
    """``((front matter YAML, its offset) or None, offset of the body)``.

    The fences are lines holding only ``---``.
    """
    first = _LINE.match(text)
    assert first is not None  # the pattern matches any text, the empty one too
    if first.group(1) != "---":
        return None, 0
    position = first.end()
    while position < len(text):
        line = _LINE.match(text, position)
        assert line is not None
        if line.group(1) == "---":
            return (text[first.end() : position], first.end()), line.end()
        position = line.end()
    raise InputError.at(
        "front matter opened with '---' on line 1 is never closed", source, line=1, column=1
    )


_WHOLE_FILE = TextOrigin(1, file_lines=True)
"""The origin of a body without front matter: the file from its first line."""


def parse_markdown(
    text: str, source: str | None = None, body_format: str = "markdown", *, decoded: bool = False
) -> Document:
    """A markdown/text document: front matter surfaces, claims, states; the rest is ``body``,
    written in ``body_format`` (SPEC §18: ``markdown`` for ``.md``, ``plain`` for ``.txt``,
    ``html`` for ``.html``).

    ``decoded``: ``text`` was decoded from UTF-8, so it holds no lone surrogate, and a file
    without front matter is its body as it stands (the document ``Document.from_json``
    builds from it, without the checks it cannot fail, or counting lines to find line 1).
    """
    front, body_start = _split_front_matter(text, source)
    body_text = text[body_start:]
    body: str | dict[str, str] = (
        body_text if body_format == PLAIN else {"text": body_text, "format": body_format}
    )
    if front is None:
        if (decoded or body_text.isascii()) and body_format in FORMATS:
            return Document((Surface(BODY, body_text, origin=_WHOLE_FILE, format=body_format),))
        document = Document.from_json({"surfaces": {BODY: body}}, source)
        return document.with_origins(markdown_origins(text, None, 0, {}, None))
    front_matter = front[0]
    try:
        data, positions = load_yaml(front_matter, source)
    except InputError as error:
        # load_yaml counts lines from the start of the front matter, one below the fence.
        raise InputError(_shifted(error.problems, 1)) from None
    positions = positions.shifted(1)
    if data is None:
        data = {}
    if not isinstance(data, Mapping):
        raise InputError(
            Problem(f"front matter must be a mapping, got {type_name(data)}", positions.value(()))
        )
    problems: list[Problem] = []
    for key in data:
        if key not in _FRONT_MATTER_KEYS:
            problems.append(
                Problem(
                    "unknown front matter key (expected surfaces, claims, states, anchors)",
                    positions.key((key,), key=key),
                )
            )
    extra = data.get("surfaces", {})
    if extra is None:
        extra = {}
    if not isinstance(extra, Mapping):
        problems.append(
            Problem(
                f"'surfaces' must map surface names to surfaces, got {type_name(extra)}",
                positions.value(("surfaces",), key="surfaces"),
            )
        )
        extra = {}
    if BODY in extra:
        problems.append(
            Problem(
                "front matter may not define surface 'body': "
                "the text after the front matter is the body",
                positions.key(("surfaces", BODY), key="surfaces.body"),
            )
        )
    if problems:
        raise InputError(problems)
    surfaces: dict[str, Any] = {BODY: body, **extra}
    combined: dict[str, Any] = {"surfaces": surfaces}
    for part in ("claims", "states", "anchors"):
        if part in data:
            combined[part] = data[part]
    try:
        document = Document.from_json(combined, source)
    except InputError as error:
        raise InputError(_with_positions(error.problems, positions)) from None
    return document.with_origins(markdown_origins(text, front, body_start, extra, positions))


def _shifted(problems: tuple[Problem, ...], lines: int) -> list[Problem]:
    """The problems with their line numbers moved down ``lines`` lines."""
    moved = []
    for problem in problems:
        where = problem.location
        if where.line is not None:
            where = replace(where, line=where.line + lines)
        moved.append(replace(problem, location=where))
    return moved


def _with_positions(problems: tuple[Problem, ...], positions: Positions) -> list[Problem]:
    """Add the front-matter line/column to problems that name a key path."""
    located = []
    for problem in problems:
        where = problem.location
        if where.path is not None and where.line is None:
            found = positions.value(where.path)
            where = Location(where.file, found.line, found.column, where.key, path=where.path)
        located.append(Problem(problem.message, where, problem.hint))
    return located
