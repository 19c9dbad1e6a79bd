"""Reading contexts and documents from files (SPEC §2.1, §2.2).

A document file is JSON when its name ends in ``.json``; anything else is
markdown/text with optional YAML front matter whose text after the front
matter becomes surface ``body``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from textcontract._files import read_input_text
from textcontract._json import loads_strict
from textcontract._surface_origins import json_origins, markdown_origins
from textcontract._yaml import Positions, load_yaml
from textcontract.errors import InputError, Location, Problem
from textcontract.model import BODY, Context, Document, type_name

__all__ = ["load_context_file", "load_document_file", "parse_markdown", "read_text_file"]

_FRONT_MATTER_KEYS = ("surfaces", "claims", "states", "anchors")


def read_text_file(path: Path, display: str) -> str:
    """UTF-8 text of a file (BOM dropped); unreadable, refused or invalid input is an error.

    The file is read by the one bounded reader (:mod:`textcontract._files`): regular files
    and pipes only, at most the input size cap.
    """
    return read_input_text(path, display)


def load_context_file(path: Path, display: str | None = None) -> Context:
    name = display if display is not None else str(path)
    return Context.from_json(loads_strict(read_text_file(path, name), name), name)


def load_document_file(path: Path, display: str | None = None) -> Document:
    name = display if display is not None else str(path)
    text = read_text_file(path, name)
    if path.name.endswith(".json"):
        raw = loads_strict(text, name)
        document = Document.from_json(raw, name)
        return document.with_origins(json_origins(text, raw, document))
    return parse_markdown(text, name)


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


def parse_markdown(text: str, source: str | None = None) -> Document:
    """A markdown/text document: front matter surfaces, claims, states; the rest is ``body``."""
    front, body_start = _split_front_matter(text, source)
    body = text[body_start:]
    if front is None:
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
