"""Other values for a fact or claim: the same value in another type, or another value.

SPEC §2.1 makes ``1``, ``1.0``, ``"1"`` and ``true`` four distinct values. A *representation*
of a value is one of the other three that writes the same thing (``1`` → ``1.0``, ``"1"``,
``true``); a *flip* is another value of the same type.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence

from textcontract.model import FactValue, same_value
from textcontract.mutate._choice import Chooser

__all__ = ["flip", "representations"]

_INTEGER = re.compile(r"-?(?:0|[1-9][0-9]*)\Z")
_DECIMAL = re.compile(r"-?(?:0|[1-9][0-9]*)\.[0-9]+\Z")


def _number_forms(number: int | float) -> list[FactValue]:
    """Every type's form of a finite number: int, float, string, boolean when 0 or 1."""
    forms: list[FactValue] = []
    integral = isinstance(number, int) or number.is_integer()
    if integral and abs(number) < 2**53:  # beyond 2**53 a float no longer holds every int
        forms.extend([int(number), float(number)])
    else:
        forms.append(number)
    forms.append(str(number) if isinstance(number, int) else repr(number))
    if integral and number in (0, 1):
        forms.append(bool(number))
    return forms


def _forms(value: FactValue) -> list[FactValue]:
    if isinstance(value, bool):
        return [int(value), float(value), "true" if value else "false", value]
    if isinstance(value, int | float):
        return _number_forms(value)
    if isinstance(value, str):
        if value in ("true", "false"):
            return [value, *_forms(value == "true")[:2], value == "true"]
        if _INTEGER.match(value):
            return [value, *_number_forms(int(value))]
        if _DECIMAL.match(value) and math.isfinite(float(value)):
            number = float(value)
            if repr(number) == value or (number.is_integer() and f"{int(number)}.0" == value):
                return [value, *_number_forms(number)]
    return [value]


def representations(value: FactValue) -> list[FactValue]:
    """The other types' forms of ``value`` that exist for it, in the order int, float,
    string, boolean; empty when there is none (``"shipped"``, ``null``, ``59.9`` → ``"59.9"``).

    A string is a number's representation only in the number's own shortest form (``"1"``,
    ``"59.9"``, ``"1.0"``), so every form maps back to the same value.
    """
    found: list[FactValue] = []
    for form in _forms(value):
        if not same_value(form, value) and not any(same_value(form, seen) for seen in found):
            found.append(form)
    order = {int: 0, float: 1, str: 2, bool: 3}
    return sorted(found, key=lambda form: order[type(form)])


def _candidates(value: FactValue, others: Iterable[FactValue]) -> list[FactValue]:
    """Values of the same type as ``value`` to try instead of it, in a fixed order."""
    same_type = [other for other in others if type(other) is type(value)]
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return [*same_type, value + 1, value - 1, value + 10]
    if isinstance(value, float):
        return [*same_type, *(round(value + step, 10) for step in (1.0, -1.0, 10.0))]
    if isinstance(value, str):
        return [*same_type, f"not {value}" if value else "x", f"{value}-other"]
    return []  # null has no other value of its type


def flip(
    value: FactValue,
    avoid: Sequence[FactValue],
    chooser: Chooser,
    *labels: object,
    others: Iterable[FactValue] = (),
) -> FactValue | None:
    """Another value of the same type as ``value`` and none of ``avoid``; ``None`` if none.

    ``others`` are values seen elsewhere (the same key in another snapshot) and come first,
    since a value from the wrong state is the likeliest real fault; the seed picks among the
    remaining candidates' order.
    """
    taboo = [value, *avoid]
    candidates: list[FactValue] = []
    for candidate in _candidates(value, others):
        if isinstance(candidate, float) and not math.isfinite(candidate):
            continue
        if any(same_value(candidate, item) for item in [*taboo, *candidates]):
            continue
        candidates.append(candidate)
    if not candidates:
        return None
    seen_elsewhere = [c for c in candidates if any(same_value(c, o) for o in others)]
    if seen_elsewhere:
        return seen_elsewhere[0]
    return chooser.pick(candidates, "flip", *labels)
