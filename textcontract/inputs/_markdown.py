"""Markdown/text documents (SPEC §2.2): optional YAML front matter, then the ``body``."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from textcontract._yaml import Positions, load_yaml
from textcontract.errors import InputError, Location, Problem
from textcontract.model import BODY, Document, type_name

__all__ = ["parse_markdown", "split_front_matter"]

_FRONT_MATTER_KEYS = ("surfaces", "claims", "states", "anchors")


# A line (as ``str.splitlines`` cuts them) holding only ``---``, ended by a line feed, a
# carriage return, both, or the end of the text. Lines start after any of splitlines's
# separators; a fence line must end in one of the first three (``---`` + U+2028 is text).
_FENCE_END = r"(?:\r\n|\r|\n|\Z)"
_OPENING = re.compile("---" + _FENCE_END)
_CLOSING = re.compile(r"(?<=[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029])---" + _FENCE_END)


def split_front_matter(text: str, source: str | None) -> tuple[str | None, str]:
    """``(front matter YAML or None, body)``; the fences are lines holding only ``---``.

    Found by two searches rather than by cutting the text into lines, so a large document
    costs one copy (its body), not a list of its lines and their joins.
    """
    opening = _OPENING.match(text)
    if opening is None:
        return None, text
    closing = _CLOSING.search(text, opening.end())
    if closing is None:
        raise InputError.at(
            "front matter opened with '---' on line 1 is never closed", source, line=1, column=1
        )
    return text[opening.end() : closing.start()], text[closing.end() :]


def parse_markdown(text: str, source: str | None = None) -> Document:
    """A markdown/text document: front matter surfaces, claims, states; the rest is ``body``."""
    front_matter, body = split_front_matter(text, source)
    if front_matter is None:
        return Document.from_json({"surfaces": {BODY: body}}, source)
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
        return Document.from_json(combined, source)
    except InputError as error:
        raise InputError(_with_positions(error.problems, positions)) from None


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
