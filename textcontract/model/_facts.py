"""Fact values: finite JSON scalars compared by type and value."""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Mapping, Sequence
from typing import TypeAlias, TypeGuard

from textcontract._json import integer_too_long
from textcontract.errors import Location, Problem
from textcontract.fields import type_name

__all__ = [
    "FactValue",
    "Facts",
    "describe_value",
    "is_fact_value",
    "is_valid_unicode",
    "same_value",
    "type_name",
    "validate_facts",
]

FactValue: TypeAlias = str | int | float | bool | None
Facts: TypeAlias = Mapping[str, FactValue]

NAME_PATTERN = re.compile(r"[a-z0-9][a-z0-9_.-]*\Z")


def is_fact_value(value: object) -> TypeGuard[FactValue]:
    """A finite JSON scalar (``bool`` is a subclass of ``int`` and counts as a boolean)."""
    if value is None or isinstance(value, str | bool | int):
        return True
    return isinstance(value, float) and math.isfinite(value)


def is_valid_unicode(text: str) -> bool:
    """False for a string holding a lone surrogate (which JSON's ``"\\ud800"`` can produce)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _too_long_for_text(number: int) -> bool:
    """Python refuses to write this integer in decimal (its int/str limit), so no digest can."""
    limit = sys.get_int_max_str_digits()
    # a number of fewer than 3 * (limit - 1) bits has fewer than `limit` decimal digits
    if limit == 0 or number.bit_length() < 3 * (limit - 1):
        return False
    try:
        str(number)
    except ValueError:
        return True
    return False


def same_value(a: FactValue, b: FactValue) -> bool:
    """Type-sensitive equality: ``1``, ``1.0``, ``True`` and ``"1"`` are all different."""
    return type(a) is type(b) and a == b


def describe_value(value: FactValue) -> str:
    """A short, type-revealing rendering for messages (``"1"`` vs ``1`` vs ``1.0``)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return repr(value)


def validate_facts(
    value: object, path: Sequence[str | int], file: str | None, problems: list[Problem]
) -> dict[str, FactValue]:
    """Check a flat ``key -> scalar`` object, appending one problem per offending key."""
    if not isinstance(value, Mapping):
        problems.append(
            Problem(
                f"expected an object of facts, got {type_name(value)}",
                Location.of_path(file, path),
            )
        )
        return {}
    facts: dict[str, FactValue] = {}
    for key, item in value.items():
        problem = _fact_problem(key, item)
        if problem is None:
            facts[key] = item
        else:  # the location is built only for a problem: most facts have none
            problems.append(Problem(problem, Location.of_path(file, [*path, key])))
    return facts


def _fact_problem(key: object, item: object) -> str | None:
    """What is wrong with one ``key: item`` fact, or None."""
    if not isinstance(key, str):
        return "fact keys must be strings"
    if key == "":
        return "fact keys must not be empty"
    if not is_valid_unicode(key):
        return "fact key holds a lone surrogate (invalid Unicode)"
    if isinstance(item, Mapping | list | tuple):
        return "nested values are not facts; project them into flat keys such as 'order.total'"
    if not is_fact_value(item):
        return f"{type_name(item)} is not a finite JSON scalar"
    if isinstance(item, str) and not is_valid_unicode(item):
        return "string holds a lone surrogate (invalid Unicode)"
    if isinstance(item, int) and _too_long_for_text(item):
        return integer_too_long(None)
    return None
