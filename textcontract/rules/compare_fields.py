"""CompareFields: two facts, possibly from different snapshots, stand in a relation.

``eq`` is type-sensitive (``1``, ``1.0``, ``true`` and ``"1"`` are four values);
``le`` orders numbers only, and compares an integer with a float numerically.
Checks state, not prose.

Violated::

    {id: paid-covers-total, type: CompareFields, op: le,
     left: {key: order.total}, right: {key: payment.amount}}
    context: {"order.total": 25.0, "payment.amount": 19.99}

Satisfied::

    {id: currency-kept, type: CompareFields, op: eq,
     left: {state: current, key: order.currency}, right: {state: after, key: order.currency}}
    context: {"states": {"current": {"order.currency": "EUR"},
                         "after": {"order.currency": "EUR"}}}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

from textcontract.model import Check, FactValue, Kind, Status, describe_value, same_value
from textcontract.rules._base import Code
from textcontract.rules._fact_pair import FIELD_UNAVAILABLE, FactPairRule
from textcontract.rules._params import FACT_REF, Param, choice

__all__ = ["CompareFields"]

_SYMBOLS = {"eq": "=", "le": "≤"}


def _number(value: FactValue) -> int | float | None:
    """The value when it can be ordered: an integer or a float, never a boolean."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return value


class CompareFields(FactPairRule):
    name = "CompareFields"
    kind = Kind.INVARIANT
    summary = "two facts are equal (type-sensitive) or numerically ordered"
    params: ClassVar[tuple[Param, ...]] = (
        Param("left", FACT_REF, "the left-hand fact {state, key} (state default current)"),
        Param("right", FACT_REF, "the right-hand fact {state, key} (state default current)"),
        Param("op", choice("eq", "le"), "eq: equal type and value; le: left ≤ right, numbers"),
    )
    codes: ClassVar[tuple[Code, ...]] = (
        Code.of(
            "FIELDS_COMPARE",
            "the two facts stand in the relation",
            Status.SATISFIED,
            Status.VIOLATED,
        ),
        FIELD_UNAVAILABLE,
        Code.of(
            "ORDERING_TYPE_ERROR",
            "le was asked to order a value that is not a number (booleans are not numbers)",
            Status.ERROR,
        ),
    )
    main_code = "FIELDS_COMPARE"
    sides = ("left", "right")
    judging = "compare"

    def judge(
        self, left_value: FactValue, right_value: FactValue, evidence: list[dict[str, Any]]
    ) -> Iterator[Check]:
        left, right = self.first, self.second
        op = self.options.text("op")
        if op == "le":
            low, high = _number(left_value), _number(right_value)
            if low is None or high is None:
                wrong = [
                    item
                    for item, number in zip(evidence, (low, high), strict=True)
                    if number is None
                ]
                what = " and ".join(
                    f"{item['key']} is {describe_value(item['value'])}" for item in wrong
                )
                yield self.check(
                    Status.ERROR,
                    "ORDERING_TYPE_ERROR",
                    "$",
                    f"le orders numbers only, but {what}",
                    evidence=evidence,
                )
                return
            # Python orders an int against a float exactly, without rounding the int.
            held = low <= high
        else:
            held = same_value(left_value, right_value)
        relation = _SYMBOLS[op] if held else ("≠" if op == "eq" else ">")
        left_name, right_name = left.key, right.key
        if left.state != right.state:
            left_name, right_name = f"{left.state}:{left.key}", f"{right.state}:{right.key}"
        text = (
            f"{left_name} ({describe_value(left_value)}) {relation} "
            f"{right_name} ({describe_value(right_value)})"
        )
        if not held and op == "eq" and left_value == right_value:
            text += "; the values differ in type"
        yield self.check(
            Status.SATISFIED if held else Status.VIOLATED,
            "FIELDS_COMPARE",
            "$",
            text,
            evidence=evidence,
        )
