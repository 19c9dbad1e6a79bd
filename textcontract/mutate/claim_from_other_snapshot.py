"""claim-from-other-snapshot: a claim takes the value its key has in another snapshot.

For each claim the rule checks and each other snapshot of the context that holds the same
key with a different value, one variant declares that value — the renderer read the state
before (or after) the one the surface speaks about. A context with one snapshot, or whose
snapshots agree on every claimed key, gives nothing.

Valid by construction: the claim now states a value of another moment than the surface's
``state``; the text that says "has shipped" while claiming the pre-shipping state is the
stale-state fault. Where it is not: a surface that rightly speaks about two moments ("was
pending, is now shipped") should declare them on two surfaces; one surface with one state
cannot tell which was meant.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from textcontract.model import describe_value, same_value
from textcontract.mutate._base import (
    Baseline,
    Mutation,
    Operator,
    OperatorClass,
    Proposal,
    Skip,
    with_claim,
)
from textcontract.mutate._choice import Chooser
from textcontract.mutate._claims import CLAIMS_TYPES, claimed, mismatch

__all__ = ["ClaimFromOtherSnapshot"]


class ClaimFromOtherSnapshot(Operator):
    name = "claim-from-other-snapshot"
    probe_class = OperatorClass.DEFECT
    targets: ClassVar[tuple[str, ...]] = CLAIMS_TYPES
    summary = (
        "a claim takes the value its key has in another snapshot of the context: the "
        "renderer read a stale (or future) state"
    )

    def generate(self, baseline: Baseline, chooser: Chooser) -> Iterator[Proposal]:
        del chooser  # every other snapshot is used
        states = baseline.context.states
        for entry in baseline.entries(self.targets):
            rule = entry.rule
            found = False
            for surface, key, value in claimed(baseline, rule):
                for name, facts in states.items():
                    if name == surface.state or key not in facts:
                        continue
                    if same_value(facts[key], value):
                        continue
                    found = True
                    yield Mutation(
                        with_claim(baseline.document, surface.name, key, facts[key]),
                        baseline.context,
                        f"claim {key} on surface {surface.name!r}: {describe_value(value)} → "
                        f"{describe_value(facts[key])}, its value in snapshot {name!r}",
                        (mismatch(rule, surface),),
                    )
            if not found:
                yield Skip(
                    f"{rule.header.id}: no other snapshot holds a different value for a claimed key"
                )
