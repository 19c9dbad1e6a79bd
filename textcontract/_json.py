"""Strict JSON reading for every JSON input (contexts, documents, records, artifacts).

``json.loads`` accepts ``NaN``, turns ``1e400`` into infinity and keeps the last
of two duplicate keys. Here a duplicate key, a non-finite number, a lone
surrogate, invalid UTF-8 or a syntax error is an :class:`InputError` that names
the file and the key path, line/column or byte offset.
"""

from __future__ import annotations

import json
import math
from typing import Any

from textcontract.errors import InputError, Location, Problem

__all__ = ["JsonValue", "decode_utf8", "loads_strict", "read_json_file"]

JsonValue = Any


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
    if isinstance(value, _NonFinite):
        out.append(
            Problem(
                f"{value.text} is not a finite JSON number",
                Location.of_path(file, path),
            )
        )
    elif isinstance(value, _TooLong):
        out.append(
            Problem(
                f"integer with {value.digits} digits is too long to read",
                Location.of_path(file, path),
            )
        )
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
        raise InputError.at("JSON nests too deeply", file) from None
    problems: list[Problem] = []
    _collect(value, [], file, problems)
    if problems:
        raise InputError(problems)
    return _plain(value)


def decode_utf8(data: bytes, file: str | None = None) -> str:
    """Decode UTF-8, dropping one leading BOM; invalid bytes name their 0-based offset."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError.at(f"invalid UTF-8 ({exc.reason})", file, byte_offset=exc.start) from None
    return text[1:] if text.startswith("\ufeff") else text


def read_json_file(path: str, display: str | None = None) -> JsonValue:
    """Read and strictly parse a JSON file; ``display`` is the name used in messages."""
    name = display if display is not None else path
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        raise InputError.at(f"cannot read file: {exc.strerror}", name) from None
    return loads_strict(decode_utf8(data, name), name)
