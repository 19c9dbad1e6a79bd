"""no-op-transition: the snapshot after a transition repeats the one before on every key.

For a StateChanged rule, every listed key of the ``after`` snapshot takes its ``before``
value, so the text announcing a change (``shipped``, ``refunded``) speaks of a transition
that did not happen. Keys missing from either snapshot would make the rule undetermined,
not violated; the baseline is complete, so both snapshots hold every key.

Valid by construction: a confirmation of a change that did not take place is the fault the
rule names (an action reported but not done). Where it is not: for an idempotent request
("cancel" on an order already cancelled) saying so may be right; such a flow should not
carry a StateChanged rule.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from textcontract.model import Context, FactValue, same_value
from textcontract.mutate._base import (
    Baseline,
    Mutation,
    Operator,
    OperatorClass,
    Proposal,
    expected,
)
from textcontract.mutate._choice import Chooser

__all__ = ["NoOpTransition"]


class NoOpTransition(Operator):
    name = "no-op-transition"
    probe_class = OperatorClass.DEFECT
    targets: ClassVar[tuple[str, ...]] = ("StateChanged",)
    summary = (
        "the snapshot after the transition repeats the one before on every key the rule "
        "lists: the text reports a change that did not happen"
    )

    def generate(self, baseline: Baseline, chooser: Chooser) -> Iterator[Proposal]:
        del chooser  # nothing to choose
        context = baseline.context
        for entry in baseline.entries(self.targets):
            rule = entry.rule
            before_name, after_name = rule.options.text("before"), rule.options.text("after")
            before = context.states[before_name]
            after: dict[str, FactValue] = dict(context.states[after_name])
            keys = rule.options.strings("keys") or ()
            moved = [key for key in keys if not same_value(before[key], after[key])]
            for key in keys:
                after[key] = before[key]
            states = {name: dict(facts) for name, facts in context.states.items()}
            states[after_name] = after
            yield Mutation(
                baseline.document,
                Context(states, context.closed_premises, context.history),
                f"snapshot {after_name!r} repeats {before_name!r} on " + ", ".join(moved or keys),
                (expected(rule, "NO_DOMAIN_CHANGE", f"transition:{before_name}->{after_name}"),),
            )
