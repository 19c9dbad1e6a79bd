"""fact-flip: a fact a relation rule reads gets another value of the same type.

RequiredFact: the required fact takes a value that is neither ``equals`` nor in ``one_of``
(a presence-only rule accepts any value and is skipped). CompareFields: ``eq`` — the right
fact takes another value than the left; ``le`` — the left number rises above the right.
AllowedTransition: the new value becomes one the allowed pairs do not list after the old.
Values seen for the same key in another snapshot come first (a value from the wrong state is
the likeliest real fault), then ±1 / ``not …`` forms picked by the seed.

Valid by construction: the contract itself declares what the fact must be, and the variant
states a fact that is not that; nothing else of the output changes. Where it is not: a
value from another snapshot may be one the business would accept (an order ``delivered``
where the rule asked for ``shipped``) — the contract is then stricter than the business.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import ClassVar

from textcontract.contract import RuleEntry
from textcontract.model import FactValue, describe_value, same_value
from textcontract.mutate._base import (
    Baseline,
    Mutation,
    Operator,
    OperatorClass,
    Proposal,
    Skip,
    expected,
    with_fact,
)
from textcontract.mutate._choice import Chooser
from textcontract.mutate._values import flip
from textcontract.rules import FactRef, RuleType

__all__ = ["FactFlip"]


def _elsewhere(baseline: Baseline, state: str, key: str) -> list[FactValue]:
    """The values ``key`` has in the other snapshots, in snapshot order."""
    return [
        facts[key]
        for name, facts in baseline.context.states.items()
        if name != state and key in facts
    ]


def _mutation(
    baseline: Baseline, rule: RuleType, ref: FactRef, value: FactValue, scope: str, code: str
) -> Mutation:
    _, old = baseline.context.fact(ref.state, ref.key)
    return Mutation(
        baseline.document,
        with_fact(baseline.context, ref.state, ref.key, value),
        f"{ref.key} in snapshot {ref.state!r}: {describe_value(old)} → {describe_value(value)}",
        (expected(rule, code, scope),),
    )


class FactFlip(Operator):
    name = "fact-flip"
    probe_class = OperatorClass.DEFECT
    targets: ClassVar[tuple[str, ...]] = ("RequiredFact", "CompareFields", "AllowedTransition")
    summary = (
        "a fact the rule reads takes another value of the same type, one the rule does not "
        "allow: the state is wrong by the contract's own declaration"
    )

    def generate(self, baseline: Baseline, chooser: Chooser) -> Iterator[Proposal]:
        for entry in baseline.entries(self.targets):
            yield self._rule(baseline, entry, chooser)

    def _rule(self, baseline: Baseline, entry: RuleEntry, chooser: Chooser) -> Proposal:
        rule = entry.rule
        kind = rule.header.type
        if kind == "RequiredFact":
            return self._required(baseline, rule, chooser)
        first, second = (rule.options.fact_ref(side) for side in _SIDES[kind])
        _, left = baseline.context.fact(first.state, first.key)
        _, right = baseline.context.fact(second.state, second.key)
        if kind == "CompareFields" and rule.options.text("op") == "le":
            return self._above(baseline, rule, first, right)
        if kind == "CompareFields":
            others = _elsewhere(baseline, second.state, second.key)
            value = flip(right, [left], chooser, rule.header.id, others=others)
            code = "FIELDS_COMPARE"
        else:
            allowed = [pair[1] for pair in rule.options.raw("allowed") if same_value(pair[0], left)]
            others = _elsewhere(baseline, second.state, second.key)
            value = flip(right, allowed, chooser, rule.header.id, others=others)
            code = "ALLOWED_TRANSITION"
        if value is None:
            return Skip(f"{rule.header.id}: {describe_value(right)} has no other value to take")
        return _mutation(baseline, rule, second, value, "$", code)

    @staticmethod
    def _required(baseline: Baseline, rule: RuleType, chooser: Chooser) -> Proposal:
        options = rule.options
        ref = FactRef(options.text("state"), options.text("key"))
        if not options.has("equals") and options.raw("one_of") is None:
            return Skip(f"{rule.header.id}: presence only; any value of the fact satisfies it")
        allowed = list(options.raw("one_of") or ())
        if options.has("equals"):
            allowed.append(options.scalar("equals"))
        _, value = baseline.context.fact(ref.state, ref.key)
        others = _elsewhere(baseline, ref.state, ref.key)
        new = flip(value, allowed, chooser, rule.header.id, others=others)
        if new is None:
            return Skip(f"{rule.header.id}: {describe_value(value)} has no other value to take")
        return _mutation(baseline, rule, ref, new, ref.scope, "REQUIRED_FACT")

    @staticmethod
    def _above(baseline: Baseline, rule: RuleType, left: FactRef, right: FactValue) -> Proposal:
        if isinstance(right, bool) or not isinstance(right, int | float):
            return Skip(f"{rule.header.id}: le compares numbers; the right fact is not one")
        _, old = baseline.context.fact(left.state, left.key)
        # Another value of the left fact's own type, just above the right one.
        raised: FactValue
        if isinstance(old, int) and not isinstance(old, bool):
            raised = math.floor(right) + 1
        else:
            raised = float(right) + 1.0
        return _mutation(baseline, rule, left, raised, "$", "FIELDS_COMPARE")


_SIDES = {"CompareFields": ("left", "right"), "AllowedTransition": ("before", "after")}
