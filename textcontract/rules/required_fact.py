"""RequiredFact: a fact in a snapshot is present, and optionally has a given value.

Checks state, not prose: it says nothing about whether the text mentions the fact.

Violated::

    {id: shipped, type: RequiredFact, key: order.status, equals: shipped}
    context: {"order.status": "pending"}

Satisfied::

    {id: shipped, type: RequiredFact, key: order.status, one_of: [shipped, delivered]}
    context: {"order.status": "delivered"}
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from textcontract.model import Check, Kind, Status, describe_value, same_value
from textcontract.rules._base import Code, RuleType
from textcontract.rules._params import (
    ABSENT,
    SCALAR,
    SCALAR_LIST,
    STATE,
    STRING,
    Param,
    ParamProblem,
)
from textcontract.rules._subject import Subject

__all__ = ["RequiredFact"]


class RequiredFact(RuleType):
    name = "RequiredFact"
    kind = Kind.INVARIANT
    summary = "a fact is present in a snapshot, optionally equal to a value or one of several"
    params: ClassVar[tuple[Param, ...]] = (
        Param("key", STRING, "the fact key"),
        Param(
            "equals",
            SCALAR,
            "the required value (type-sensitive; null requires a present null)",
            default=ABSENT,
        ),
        Param("one_of", SCALAR_LIST, "the allowed values (type-sensitive)", default=None),
        Param("state", STATE, "the snapshot to read", default="current"),
    )
    codes: ClassVar[tuple[Code, ...]] = (
        Code.of(
            "REQUIRED_FACT",
            "the fact is present with a required value",
            Status.SATISFIED,
            Status.VIOLATED,
        ),
        Code.of("FACT_UNAVAILABLE", "the snapshot or the key is missing", Status.UNDETERMINED),
    )
    main_code = "REQUIRED_FACT"

    @classmethod
    def validate_options(cls, options: Mapping[str, Any]) -> list[ParamProblem]:
        if "equals" in options and options.get("one_of") is not None:
            return [ParamProblem("give 'equals' or 'one_of', not both", ("one_of",))]
        return []

    def evaluate(self, subject: Subject) -> Iterator[Check]:
        key = self.options.text("key")
        state = self.options.text("state")
        scope = f"state:{state}:{key}"
        present, value = subject.context.fact(state, key)
        if not present:
            missing = "snapshot" if state not in subject.context.states else "key"
            yield self.check(
                Status.UNDETERMINED,
                "FACT_UNAVAILABLE",
                scope,
                f"{key} is unknown: the {missing} is missing from the context",
                evidence=[{"state": state, "key": key, "missing": missing}],
            )
            return
        evidence: dict[str, Any] = {"state": state, "key": key, "actual": value}
        one_of = self.options.raw("one_of")
        if self.options.has("equals"):
            equals = self.options.scalar("equals")
            held = same_value(value, equals)
            evidence["expected"] = equals
            wanted = describe_value(equals)
        elif one_of is not None:
            held = any(same_value(value, allowed) for allowed in one_of)
            evidence["one_of"] = list(one_of)
            wanted = "one of " + ", ".join(describe_value(v) for v in one_of)
        else:
            held = True
            wanted = "present"
        if held:
            message = f"{key} is {describe_value(value)}"
        else:
            message = f"{key} is {describe_value(value)}, expected {wanted}"
        yield self.check(
            Status.SATISFIED if held else Status.VIOLATED,
            "REQUIRED_FACT",
            scope,
            message,
            evidence=[evidence],
        )
