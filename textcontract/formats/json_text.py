"""JSON text, in the one layout every command prints: UTF-8 as is, two-space indent.

:func:`dumps_pretty` and :func:`dumps_compact` render a value whole. :func:`write_pretty`
writes the same bytes as :func:`dumps_pretty` piece by piece, and any list in the value may
be given as an *iterator*: its items are rendered and written as they come, so a report
whose long lists are generators (``audit --format json``) is never held in memory, as a
value or as text. The writer encodes strings with the standard library's encoder and
numbers as ``json`` does, so its output is byte for byte ``json.dumps(value,
ensure_ascii=False, indent=2, allow_nan=False)``; a property test holds it to that.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from json.encoder import encode_basestring
from typing import Any

__all__ = ["INDENT", "dumps_compact", "dumps_pretty", "write_pretty"]

INDENT = 2
_STEP = " " * INDENT
_BLOCK = 256
"""Rendered pieces gathered per write: one write per block, not one per item."""


def dumps_pretty(value: Any) -> str:
    """Indented JSON with a final newline."""
    return json.dumps(value, ensure_ascii=False, indent=INDENT, allow_nan=False) + "\n"


def dumps_compact(value: Any) -> str:
    """One-line JSON (for JSON Lines), without a newline."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def write_pretty(value: Any, write: Callable[[str], object]) -> None:
    """Write what :func:`dumps_pretty` returns, final newline included, piece by piece.

    Lists may be iterators (generators): each item is rendered when it is reached and
    written at most :data:`_BLOCK` pieces later, so no list, and no text of one, is held.
    """
    out = _Output(write)
    _write(value, 0, out)
    out.add("\n")
    out.flush()


class _Output:
    """Pieces of text, handed to ``write`` a block at a time."""

    __slots__ = ("pieces", "write")

    def __init__(self, write: Callable[[str], object]) -> None:
        self.write = write
        self.pieces: list[str] = []

    def add(self, text: str) -> None:
        self.pieces.append(text)
        if len(self.pieces) >= _BLOCK:
            self.flush()

    def flush(self) -> None:
        if self.pieces:
            self.write("".join(self.pieces))
            self.pieces = []


class _Streamed(Exception):
    """Raised by :func:`_render` on meeting an iterator: that value must be written in pieces."""


def _write(value: Any, depth: int, out: _Output) -> None:
    """``value`` at ``depth`` (its first line already indented), streaming what streams."""
    if isinstance(value, Iterator):
        _write_items(value, depth, out)
        return
    pieces: list[str] = []
    try:
        _render(value, "\n" + _STEP * depth, pieces)
    except _Streamed:  # an iterator inside: write the container around it piece by piece
        if isinstance(value, dict):
            _write_members(value, depth, out)
        else:
            _write_items(iter(value), depth, out)
        return
    out.add("".join(pieces))


def _write_members(value: dict[Any, Any], depth: int, out: _Output) -> None:
    inner = "\n" + _STEP * (depth + 1)
    opening = "{" + inner
    for key, item in value.items():
        out.add(opening + _key(key) + ": ")
        _write(item, depth + 1, out)
        opening = "," + inner
    out.add("\n" + _STEP * depth + "}")


def _write_items(items: Iterator[Any], depth: int, out: _Output) -> None:
    inner = "\n" + _STEP * (depth + 1)
    opening = "[" + inner
    for item in items:
        out.add(opening)
        _write(item, depth + 1, out)
        opening = "," + inner
    out.add("[]" if opening.startswith("[") else "\n" + _STEP * depth + "]")


def _float(value: float) -> str:
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(f"Out of range float values are not JSON compliant: {value!r}")
    return float.__repr__(value)


def _key(key: Any) -> str:
    """A mapping key as ``json`` writes it (non-string keys become strings)."""
    if isinstance(key, str):
        return str(encode_basestring(key))
    if key is True:
        return '"true"'
    if key is False:
        return '"false"'
    if key is None:
        return '"null"'
    if isinstance(key, int):
        return '"' + int.__repr__(key) + '"'
    if isinstance(key, float):
        return '"' + _float(key) + '"'
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(key).__name__}")


def _boolean(value: bool) -> str:
    return "true" if value else "false"


def _null(_: None) -> str:
    return "null"


_SCALARS: dict[type, Callable[[Any], str]] = {
    str: encode_basestring,
    int: int.__repr__,
    float: _float,
    bool: _boolean,
    type(None): _null,
}
"""The text of a scalar, by its exact type (subclasses take the slower general path)."""


def _render(value: Any, newline: str, pieces: list[str]) -> None:
    """Append the text of a plain value; ``newline`` is a line break plus its indent."""
    scalar = _SCALARS.get(type(value))
    if scalar is not None:
        pieces.append(scalar(value))
    elif isinstance(value, str):  # subclasses, as json renders them
        pieces.append(encode_basestring(value))
    elif isinstance(value, int):
        pieces.append(int.__repr__(value))
    elif isinstance(value, float):
        pieces.append(_float(value))
    elif isinstance(value, dict):
        _render_members(value, newline, pieces)
    elif isinstance(value, list | tuple):
        _render_items(value, newline, pieces)
    elif isinstance(value, Iterator):
        raise _Streamed
    else:
        raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def _render_members(value: dict[Any, Any], newline: str, pieces: list[str]) -> None:
    if not value:
        pieces.append("{}")
        return
    inner = newline + _STEP
    separator = "{" + inner
    for key, item in value.items():
        head = separator + (encode_basestring(key) if type(key) is str else _key(key)) + ": "
        scalar = _SCALARS.get(type(item))
        if scalar is None:
            pieces.append(head)
            _render(item, inner, pieces)
        else:
            pieces.append(head + scalar(item))
        separator = "," + inner
    pieces.append(newline + "}")


def _render_items(value: list[Any] | tuple[Any, ...], newline: str, pieces: list[str]) -> None:
    if not value:
        pieces.append("[]")
        return
    inner = newline + _STEP
    separator = "[" + inner
    for item in value:
        scalar = _SCALARS.get(type(item))
        if scalar is None:
            pieces.append(separator)
            _render(item, inner, pieces)
        else:
            pieces.append(separator + scalar(item))
        separator = "," + inner
    pieces.append(newline + "]")
