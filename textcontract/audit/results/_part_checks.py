"""A part's report against the report its own records give (SPEC §22, ``merge``).

A part file is an audit report over its shard's cases plus the records it was summed up
from (:mod:`~textcontract.audit.results._shards`). ``merge`` sums the records up again,
exactly as the shard did, and compares every value of the report with the result — the
rows of the variants and exclusions and the probes' entries first (a difference there
names its record), then figures, strength, verdict, gaps, waivers and families: a part
whose report is not what its records give disagrees with itself. Values compare with
their JSON types, so ``1``, ``1.0`` and ``true`` differ as they do in the part's text.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from itertools import zip_longest
from typing import Any

from textcontract.errors import render_key_path

__all__ = ["PART_ONLY", "report_difference"]

PART_ONLY = ("shard", "cache")
"""The keys a part has beyond its report: the records, and ``--cache``'s counts."""
_ROWS = (("variants",), ("excluded",), ("strength", "probes"))
"""The report's lists with one entry per record, compared first."""
_SHOWN = 60
"""Characters of a value quoted in a message."""

Path = tuple[str | int, ...]
_END = object()


def _kind(value: Any) -> str:
    """A JSON value's type: ``bool`` is no ``int``, and a str enum is a string."""
    if value is None or isinstance(value, bool):
        return repr(value)
    for kind in (int, float, str, dict):
        if isinstance(value, kind):
            return kind.__name__
    return "list" if isinstance(value, list | tuple) else type(value).__name__


def _shown(value: Any) -> str:
    if value is _END:
        return "absent"
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


def _text(value: Any) -> str | None:
    """``value`` as JSON text (which tells ``1``, ``1.0`` and ``true`` apart), or ``None``."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return None


def _difference(given: Any, expected: Any, path: Path) -> tuple[Path, Any, Any] | None:
    """The first place where ``given`` (the part's) is not ``expected`` (the records')."""
    text = _text(given)
    if text is not None and text == _text(expected):
        return None  # the common case, compared at the JSON encoder's speed
    return _walk(given, expected, path)


def _walk(given: Any, expected: Any, path: Path) -> tuple[Path, Any, Any] | None:
    if _kind(given) != _kind(expected):
        return path, given, expected
    if isinstance(expected, dict):
        if list(given) != list(expected):
            return _key_difference(given, expected, path)
        for key, value in expected.items():
            found = _walk(given[key], value, (*path, key))
            if found is not None:
                return found
        return None
    if isinstance(expected, list | tuple):
        if len(given) != len(expected):
            return path, f"{len(given)} entries", f"{len(expected)} entries"
        for index, (mine, theirs) in enumerate(zip(given, expected, strict=True)):
            found = _walk(mine, theirs, (*path, index))
            if found is not None:
                return found
        return None
    return None if given == expected else (path, given, expected)


def _key_difference(
    given: dict[str, Any], expected: dict[str, Any], path: Path
) -> tuple[Path, Any, Any]:
    """A key one object has and the other lacks, or (the same keys) their order."""
    for key in expected:
        if key not in given:
            return (*path, key), _END, expected[key]
    for key in given:
        if key not in expected:
            return (*path, key), given[key], _END
    return path, f"keys in the order {list(given)}", f"{list(expected)}"


def _named(entry: Any) -> str:
    """The record a row is about: ``case/variant``, or a probe's id."""
    if isinstance(entry, dict):
        if "probe_id" in entry:
            return str(entry["probe_id"])
        if "case" in entry and "variant" in entry:
            return f"{entry['case']}/{entry['variant']}"
    return "?"


def _message(found: tuple[Path, Any, Any], row: tuple[Path, str] | None = None) -> str:
    """``its PATH is X, its records give Y``; in a row, ``its ROW (RECORD): PATH is …``."""
    path, given, expected = found
    values = f"is {_shown(given)}, its records give {_shown(expected)}"
    if row is None:
        return f"its {render_key_path(path)} {values}"
    at, named = row
    inside = path[len(at) :]
    if not inside:
        return f"its {render_key_path(at)} ({named}) {values}"
    return f"its {render_key_path(at)} ({named}): {render_key_path(inside)} {values}"


def _rows_difference(given: Any, expected: Iterable[Any], path: Path) -> str | None:
    if not isinstance(given, list):
        return _message((path, given, "a list"))
    rows: Iterator[tuple[Any, Any]] = zip_longest(given, expected, fillvalue=_END)
    for index, (mine, theirs) in enumerate(rows):
        at = (*path, index)
        if mine is _END or theirs is _END:
            row = _named(mine if theirs is _END else theirs)
            return _message((at, mine, theirs), (at, row))
        found = _difference(mine, theirs, at)
        if found is not None:
            return _message(found, (at, _named(theirs)))
    return None


def _at(report: Any, path: Path) -> Any:
    for key in path:
        report = report[key]
    return report


def report_difference(part: dict[str, Any], expected: dict[str, Any]) -> str | None:
    """What first differs between a part's report and ``expected``, the report its
    records give (its three row lists may be one-pass iterators); ``None`` when nothing
    does. The part's own keys (:data:`PART_ONLY`) are left out."""
    keys = [key for key in part if key not in PART_ONLY]
    if keys != list(expected):
        return f"its keys are {_shown(keys)}, an audit report's are {_shown(list(expected))}"
    if not isinstance(part["strength"], dict) or "probes" not in part["strength"]:
        return _message((("strength",), part["strength"], "an object with probes"))
    for path in _ROWS:
        found = _rows_difference(_at(part, path), _at(expected, path), path)
        if found is not None:
            return found
    for key, value in expected.items():
        if key == "strength":
            value = {name: item for name, item in value.items() if name != "probes"}
            mine = {name: item for name, item in part[key].items() if name != "probes"}
        elif key in ("variants", "excluded"):
            continue
        else:
            mine = part[key]
        difference = _difference(mine, value, (key,))
        if difference is not None:
            return _message(difference)
    return None
