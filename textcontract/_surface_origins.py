"""Where each surface's text begins in the file a document was read from (SPEC §10).

A markdown body is the file itself from the line after the front matter, so its locations
are in file lines. Any other surface's text is a value written in the file — a JSON string,
a front-matter scalar — and its origin is the file line where that value begins (for a
``|`` or ``>`` block scalar, the line after the indicator, where the text itself starts).
Lines are counted as SPEC §10 counts them, whatever the YAML reader counts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from textcontract._json import value_offsets
from textcontract._lines import LineCounter
from textcontract._yaml import Positions, offset_of
from textcontract.model import BODY, Document, TextOrigin

__all__ = ["json_origins", "markdown_origins"]


def _value_path(raw: object, name: str) -> tuple[str, ...]:
    """The key path of a surface's text: the surface itself when written as a string."""
    return ("surfaces", name) if isinstance(raw, str) else ("surfaces", name, "text")


def _origins(text: str, offsets: Mapping[str, int]) -> dict[str, TextOrigin]:
    counter = LineCounter(text)
    ordered = sorted(offsets.items(), key=lambda item: item[1])
    return {name: TextOrigin(counter.position(offset)[0]) for name, offset in ordered}


def json_origins(text: str, raw: Mapping[str, Any], document: Document) -> dict[str, TextOrigin]:
    """Each surface's line in the JSON ``text`` it was read from.

    ``raw`` is the parsed text, ``document`` the document built from it (so ``raw`` is an
    object whose ``surfaces`` is one).
    """
    surfaces: Mapping[str, Any] = raw["surfaces"]
    paths = {name: _value_path(surfaces.get(name), name) for name in document.names}
    found = value_offsets(text, set(paths.values()))
    return _origins(text, {name: found[path] for name, path in paths.items() if path in found})


def markdown_origins(
    text: str,
    front_matter: tuple[str, int] | None,
    body_start: int,
    raw_surfaces: Mapping[str, Any],
    positions: Positions | None,
) -> dict[str, TextOrigin]:
    """The body's file line and each front-matter surface's.

    ``front_matter`` is its YAML text and the offset where it starts in ``text``;
    ``positions`` are its values' places, one line down as the loader reports them.
    """
    offsets: dict[str, int] = {}
    if front_matter is not None and positions is not None:
        yaml_text, yaml_start = front_matter
        for name, raw in raw_surfaces.items():
            found = positions.start(_value_path(raw, name))
            if found is not None:
                offsets[name] = yaml_start + _text_start(yaml_text, found[0] - 1, found[1])
    origins = _origins(text, offsets)
    body_line = LineCounter(text).position(body_start)[0]
    return {BODY: TextOrigin(body_line, file_lines=True), **origins}


def _text_start(yaml_text: str, line: int, column: int) -> int:
    """Where a scalar's text begins: after the line of a block scalar's indicator."""
    offset = offset_of(yaml_text, line, column)
    if yaml_text[offset : offset + 1] in ("|", ">"):
        return offset_of(yaml_text, line + 1, 1)
    return offset
