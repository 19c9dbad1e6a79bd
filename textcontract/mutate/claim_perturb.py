"""claim-perturb: a claim the renderer declares takes another value of the same type.

One variant per claim the rule checks: integers ±1 or +10, floats ±1.0 or +10.0, booleans
negated, strings ``not …``; the seed picks among them. The surface text is left as it is:
the claim is what the renderer says it printed, and the rule compares claims, not prose.

Valid by construction: the declared value no longer equals the fact of the surface's own
snapshot, which is the fault the rule exists for (a renderer reading the wrong field).
Where it is not: when the text still prints the right value, a reader sees no fault — the
variant then measures the annotation, not the e-mail (see ``docs/mutate.md``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from textcontract.model import describe_value
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
from textcontract.mutate._values import flip

__all__ = ["ClaimPerturb"]


class ClaimPerturb(Operator):
    name = "claim-perturb"
    probe_class = OperatorClass.DEFECT
    targets: ClassVar[tuple[str, ...]] = CLAIMS_TYPES
    summary = (
        "a declared claim takes another value of the same type: the renderer says it "
        "printed something the state does not hold"
    )

    def generate(self, baseline: Baseline, chooser: Chooser) -> Iterator[Proposal]:
        for entry in baseline.entries(self.targets):
            rule = entry.rule
            found = False
            for surface, key, value in claimed(baseline, rule):
                found = True
                new = flip(value, [], chooser, rule.header.id, surface.name, key)
                if new is None:
                    yield Skip(f"{rule.header.id}: claim {key} on {surface.name} is null")
                    continue
                yield Mutation(
                    with_claim(baseline.document, surface.name, key, new),
                    baseline.context,
                    f"claim {key} on surface {surface.name!r}: {describe_value(value)} → "
                    f"{describe_value(new)}",
                    (mismatch(rule, surface),),
                )
            if not found:
                yield Skip(f"{rule.header.id}: no surface it reads declares a claim")
