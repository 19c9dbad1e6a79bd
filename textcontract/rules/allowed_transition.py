"""AllowedTransition: the move from a fact's old value to its new value is a listed one.

Pairs compare type-sensitively on both sides (``[1, 2]`` does not allow ``1.0 → 2``).
Staying put is a transition like any other: allow it with a pair such as
``[pending, pending]``. Checks state, not prose.

Violated::

    {id: status-flow, type: AllowedTransition,
     before: {state: current, key: order.status}, after: {state: after, key: order.status},
     allowed: [[pending, shipped], [pending, cancelled], [shipped, delivered]]}
    context: {"states": {"current": {"order.status": "delivered"},
                         "after": {"order.status": "pending"}}}

Satisfied::

    (same rule)
    context: {"states": {"current": {"order.status": "pending"},
                         "after": {"order.status": "shipped"}}}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

from textcontract.model import Check, FactValue, Kind, Status, describe_value
from textcontract.rules._base import Code, Options, RuleHeader
from textcontract.rules._fact_pair import FIELD_UNAVAILABLE, FactPairRule
from textcontract.rules._params import FACT_REF, PAIR_LIST, Param

__all__ = ["AllowedTransition"]

# (type, value) keeps 1, 1.0, true and "1" apart in sets and dicts.
_Key = tuple[type, FactValue]


def _key(value: FactValue) -> _Key:
    return (type(value), value)


class AllowedTransition(FactPairRule):
    name = "AllowedTransition"
    kind = Kind.INVARIANT
    summary = "the change of a fact from one snapshot to another is one of the allowed pairs"
    params: ClassVar[tuple[Param, ...]] = (
        Param("before", FACT_REF, "the fact's old value {state, key} (state default current)"),
        Param("after", FACT_REF, "the fact's new value {state, key} (state default current)"),
        Param("allowed", PAIR_LIST, "the allowed [old, new] pairs (type-sensitive)"),
    )
    codes: ClassVar[tuple[Code, ...]] = (
        Code.of(
            "ALLOWED_TRANSITION",
            "the [old, new] pair is one of the allowed transitions",
            Status.SATISFIED,
            Status.VIOLATED,
        ),
        FIELD_UNAVAILABLE,
    )
    main_code = "ALLOWED_TRANSITION"
    sides = ("before", "after")
    judging = "judge the transition"

    def __init__(self, header: RuleHeader, options: Options) -> None:
        super().__init__(header, options)
        pairs: tuple[tuple[FactValue, FactValue], ...] = tuple(options.raw("allowed"))
        self._allowed = frozenset((_key(old), _key(new)) for old, new in pairs)
        # Successors of each old value, in contract order, for the violation message.
        successors: dict[_Key, dict[_Key, FactValue]] = {}
        for old, new in pairs:
            successors.setdefault(_key(old), {}).setdefault(_key(new), new)
        self._successors = {old: tuple(news.values()) for old, news in successors.items()}

    def judge(
        self, old: FactValue, new: FactValue, evidence: list[dict[str, Any]]
    ) -> Iterator[Check]:
        after = self.second
        change = f"{describe_value(old)} → {describe_value(new)}"
        if (_key(old), _key(new)) in self._allowed:
            yield self.check(
                Status.SATISFIED,
                "ALLOWED_TRANSITION",
                "$",
                f"{after.key} went {change}, an allowed transition",
                evidence=evidence,
            )
            return
        targets = self._successors.get(_key(old), ())
        if targets:
            hint = f"allowed from {describe_value(old)}: " + ", ".join(
                describe_value(target) for target in targets
            )
        else:
            hint = f"no transition from {describe_value(old)} is allowed"
        yield self.check(
            Status.VIOLATED,
            "ALLOWED_TRANSITION",
            "$",
            f"{after.key} went {change}, which is not allowed ({hint})",
            evidence=evidence,
        )
