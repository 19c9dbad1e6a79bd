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
from textcontract.rules._base import Code, Options, RuleHeader, RuleType
from textcontract.rules._params import FACT_REF, PAIR_LIST, FactRef, Param
from textcontract.rules._subject import Subject

__all__ = ["AllowedTransition"]

# (type, value) keeps 1, 1.0, true and "1" apart in sets and dicts.
_Key = tuple[type, FactValue]


def _key(value: FactValue) -> _Key:
    return (type(value), value)


class AllowedTransition(RuleType):
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
        Code.of("FIELD_UNAVAILABLE", "a snapshot or a key is missing", Status.UNDETERMINED),
    )
    main_code = "ALLOWED_TRANSITION"

    def __init__(self, header: RuleHeader, options: Options) -> None:
        super().__init__(header, options)
        self._before = options.fact_ref("before")
        self._after = options.fact_ref("after")
        pairs: tuple[tuple[FactValue, FactValue], ...] = tuple(options.raw("allowed"))
        self._allowed = frozenset((_key(old), _key(new)) for old, new in pairs)
        # Successors of each old value, in contract order, for the violation message.
        successors: dict[_Key, dict[_Key, FactValue]] = {}
        for old, new in pairs:
            successors.setdefault(_key(old), {}).setdefault(_key(new), new)
        self._successors = {old: tuple(news.values()) for old, news in successors.items()}

    def evaluate(self, subject: Subject) -> Iterator[Check]:
        before, after = self._before, self._after
        old_known, old = subject.context.fact(before.state, before.key)
        new_known, new = subject.context.fact(after.state, after.key)
        if not (old_known and new_known):
            missing = [
                _missing(side, ref, subject)
                for side, ref, known in (("before", before, old_known), ("after", after, new_known))
                if not known
            ]
            yield self.check(
                Status.UNDETERMINED,
                "FIELD_UNAVAILABLE",
                "$",
                _unknown_message(missing),
                evidence=missing,
            )
            return
        evidence = [_described("before", before, old), _described("after", after, new)]
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


def _missing(side: str, ref: FactRef, subject: Subject) -> dict[str, Any]:
    missing = "snapshot" if ref.state not in subject.context.states else "key"
    return {"side": side, "state": ref.state, "key": ref.key, "missing": missing}


def _unknown_message(missing: list[dict[str, Any]]) -> str:
    parts = [
        f"{item['key']} ("
        + ("no snapshot" if item["missing"] == "snapshot" else "not in snapshot")
        + f" {item['state']!r})"
        for item in missing
    ]
    return "cannot judge the transition: unknown " + " and ".join(parts)


def _described(side: str, ref: FactRef, value: FactValue) -> dict[str, Any]:
    return {"side": side, "state": ref.state, "key": ref.key, "value": value}
