"""Strict JSON reading for every JSON input (contexts, documents, records, artifacts).

``json.loads`` accepts ``NaN``, turns ``1e400`` into infinity and keeps the last
of two duplicate keys. Here a duplicate key, a non-finite number, a lone
surrogate, invalid UTF-8 or a syntax error is an :class:`InputError` that names
the file and the key path, line/column or byte offset.
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Collection
from typing import Any

from textcontract._files import decode_utf8, read_input_text
from textcontract.errors import InputError, Location, Problem

__all__ = [
    "MAX_NESTING",
    "JsonValue",
    "decode_utf8",
    "integer_too_long",
    "loads_strict",
    "read_json_file",
    "value_offsets",
]

JsonValue = Any
Path = tuple[str | int, ...]

MAX_NESTING = 100
"""Arrays and objects (YAML sequences and mappings) nested deeper than this are refused.

No input of textcontract nests beyond a handful of levels; a fixed limit gives a located
message instead of whatever depth Python's recursion limit happens to allow."""


def integer_too_long(digits: int | None) -> str:
    """The message for an integer beyond Python's int/str conversion limit (4,300 digits)."""
    limit = sys.get_int_max_str_digits()
    size = f"with {digits} digits" if digits is not None else f"of more than {limit} digits"
    return (
        f"integer {size} is too long to read (the limit is {limit} digits, "
        "Python's int/str conversion limit)"
    )


class _NonFinite:
    """Placeholder for NaN/Infinity, reported with its key path after parsing."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


class _TooLong:
    """Placeholder for an integer literal Python refuses to convert (too many digits)."""

    __slots__ = ("digits",)

    def __init__(self, digits: int) -> None:
        self.digits = digits


class _TooDeep(Exception):
    """Raised while validating a value nested deeper than :data:`MAX_NESTING`."""


class _Duplicated(dict[str, Any]):
    """An object that had duplicate keys; ``duplicates`` lists them in order."""

    duplicates: list[str]


def _object_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    duplicates: list[str] = []
    for key, value in pairs:
        if key in result:
            duplicates.append(key)
        result[key] = value
    if duplicates:
        marked = _Duplicated(result)
        marked.duplicates = duplicates
        return marked
    return result


def _parse_float(text: str) -> float | _NonFinite:
    value = float(text)
    return value if math.isfinite(value) else _NonFinite(text)


def _parse_int(text: str) -> int | _TooLong:
    # Python refuses to convert integer text longer than sys.get_int_max_str_digits()
    # (4300 digits by default) with a ValueError; report it with its key path instead.
    try:
        return int(text)
    except ValueError:
        return _TooLong(len(text.lstrip("-")))


def _parse_constant(text: str) -> _NonFinite:
    return _NonFinite(text)


def _valid_unicode(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _collect(value: Any, path: list[str | int], file: str | None, out: list[Problem]) -> None:
    if len(path) >= MAX_NESTING and isinstance(value, dict | list):
        raise _TooDeep
    if isinstance(value, _NonFinite):
        out.append(
            Problem(
                f"{value.text} is not a finite JSON number",
                Location.of_path(file, path),
            )
        )
    elif isinstance(value, _TooLong):
        out.append(Problem(integer_too_long(value.digits), Location.of_path(file, path)))
    elif isinstance(value, str):
        if not _valid_unicode(value):
            out.append(
                Problem(
                    "string holds a lone surrogate (invalid Unicode)", Location.of_path(file, path)
                )
            )
    elif isinstance(value, dict):
        if isinstance(value, _Duplicated):
            for key in value.duplicates:
                out.append(Problem(f"duplicate key {key!r}", Location.of_path(file, [*path, key])))
        for key, item in value.items():
            if not _valid_unicode(key):
                out.append(
                    Problem(
                        "key holds a lone surrogate (invalid Unicode)",
                        Location.of_path(file, [*path, key]),
                    )
                )
            _collect(item, [*path, key], file, out)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _collect(item, [*path, index], file, out)


def _plain(value: Any) -> Any:
    """Replace the marker dict subclass by plain dicts (only after validation passed)."""
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value


def loads_strict(text: str, file: str | None = None) -> JsonValue:
    """Parse JSON text; raise :class:`InputError` listing every problem found."""
    try:
        value = json.loads(
            text,
            object_pairs_hook=_object_pairs,
            parse_float=_parse_float,
            parse_int=_parse_int,
            parse_constant=_parse_constant,
        )
    except json.JSONDecodeError as exc:
        raise InputError.at(
            f"invalid JSON: {exc.msg}", file, line=exc.lineno, column=exc.colno
        ) from None
    except RecursionError:
        raise _too_deep(text, file) from None
    problems: list[Problem] = []
    try:
        _collect(value, [], file, problems)
    except _TooDeep:
        raise _too_deep(text, file) from None
    if problems:
        raise InputError(problems)
    return _plain(value)


_NESTING_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')


def _too_deep(text: str, file: str | None) -> InputError:
    """The error for JSON nested too deeply, at the bracket that opens one level too many.

    Found by a scan of the text (strings skipped), only once parsing failed.
    """
    depth, deepest, where = 0, 0, 0
    for token in _NESTING_TOKENS.finditer(text):
        if token.group() in "[{":
            depth += 1
            if depth > deepest:
                deepest, where = depth, token.start()
            if depth > MAX_NESTING:
                break
        elif token.group() in "]}":
            depth -= 1
    line = text.count("\n", 0, where) + 1
    column = where - (text.rfind("\n", 0, where) + 1) + 1
    message = (
        f"JSON nests deeper than {MAX_NESTING} levels"
        if deepest > MAX_NESTING
        else "JSON nests too deeply"
    )
    return InputError.at(message, file, line=line, column=column)


_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}:,]|[^\s\[\]{}:,"]+')


def value_offsets(text: str, paths: Collection[tuple[str | int, ...]]) -> dict[Path, int]:
    """Where the values at ``paths`` (object keys, array indexes) start in JSON ``text``.

    ``text`` must be valid JSON (read it with :func:`loads_strict` first). Code-point offsets
    of each value's first character (a string's opening quote); a path the text does not
    hold is left out. The scan stops once every path is found and never decodes a value,
    only object keys.
    """
    wanted = set(paths)
    depth = max(map(len, wanted), default=0)
    found: dict[Path, int] = {}
    frames: list[list[Any]] = []  # per open object/array: [opener, current key or index]
    expect_key = False
    for token in _TOKENS.finditer(text):
        start = token.start()
        first = text[start]
        if first in "]}":
            frames.pop()
            continue
        if first == ":":
            expect_key = False
            continue
        if first == ",":
            expect_key = frames[-1][0] == "{"
            if not expect_key:
                frames[-1][1] += 1
            continue
        if expect_key:
            frames[-1][1] = json.loads(token.group())
            continue
        if len(frames) <= depth:
            path = tuple(frame[1] for frame in frames)
            if path in wanted:
                found[path] = start
                if len(found) == len(wanted):
                    break
        if first in "[{":
            frames.append([first, 0])
            expect_key = first == "{"
    return found


def read_json_file(path: str, display: str | None = None) -> JsonValue:
    """Read and strictly parse a JSON file; ``display`` is the name used in messages."""
    name = display if display is not None else path
    return loads_strict(read_input_text(path, name), name)
