"""fact-retype: a fact a rule requires takes the same value in another type.

For a RequiredFact with ``equals`` or ``one_of``, and a CompareFields ``eq`` (its right fact),
each other representation that exists for the value becomes one variant: ``1`` → ``1.0``,
``"1"``, ``true``; ``59.9`` → ``"59.9"``; ``"shipped"`` has none and is skipped. A
representation the rule lists itself (``one_of: [1, "1"]``) is allowed by the contract and
is not a fault. CompareFields ``le`` orders numbers and reports other types as errors, so it
is not targeted.

Valid by construction: SPEC §2.1 makes the four values distinct, and a context that says
``"1001"`` where the order service sends ``1001`` is a serialisation fault.
Where it is not: a consumer that compares loosely (JavaScript's ``==``) would not care; the
contract promises type-sensitive equality, so the variant holds it to that promise.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

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
from textcontract.mutate._values import representations
from textcontract.rules import FactRef, RuleType

__all__ = ["FactRetype"]


class FactRetype(Operator):
    name = "fact-retype"
    probe_class = OperatorClass.DEFECT
    targets: ClassVar[tuple[str, ...]] = ("RequiredFact", "CompareFields")
    summary = (
        'a required fact takes the same value in another type (1 → 1.0, "1", true): '
        "values are type-sensitive, so a retyped fact is a serialisation fault"
    )

    def generate(self, baseline: Baseline, chooser: Chooser) -> Iterator[Proposal]:
        del chooser  # every representation is used: nothing to choose
        for entry in baseline.entries(self.targets):
            rule = entry.rule
            if rule.header.type == "RequiredFact":
                yield from self._required(baseline, rule)
            elif rule.options.text("op") == "eq":
                ref = rule.options.fact_ref("right")
                _, left = baseline.context.fact(*_where(rule.options.fact_ref("left")))
                yield from self._variants(baseline, rule, ref, "FIELDS_COMPARE", "$", [left])
            else:
                yield Skip(f"{rule.header.id}: le orders numbers; another type is an error")

    def _required(self, baseline: Baseline, rule: RuleType) -> Iterator[Proposal]:
        options = rule.options
        if not options.has("equals") and options.raw("one_of") is None:
            yield Skip(f"{rule.header.id}: presence only; any type of the value satisfies it")
            return
        allowed = list(options.raw("one_of") or ())
        if options.has("equals"):
            allowed.append(options.scalar("equals"))
        ref = FactRef(options.text("state"), options.text("key"))
        yield from self._variants(baseline, rule, ref, "REQUIRED_FACT", ref.scope, allowed)

    @staticmethod
    def _variants(
        baseline: Baseline,
        rule: RuleType,
        ref: FactRef,
        code: str,
        scope: str,
        allowed: list[FactValue],
    ) -> Iterator[Proposal]:
        _, value = baseline.context.fact(ref.state, ref.key)
        forms = representations(value)
        if not forms:
            yield Skip(f"{rule.header.id}: {describe_value(value)} has no other representation")
            return
        for form in forms:
            if any(same_value(form, item) for item in allowed):
                yield Skip(f"{rule.header.id}: the rule itself allows {describe_value(form)}")
                continue
            yield Mutation(
                baseline.document,
                with_fact(baseline.context, ref.state, ref.key, form),
                f"{ref.key} in snapshot {ref.state!r}: {describe_value(value)} → "
                f"{describe_value(form)} (same value, another type)",
                (expected(rule, code, scope),),
            )


def _where(ref: FactRef) -> tuple[str, str]:
    return ref.state, ref.key
