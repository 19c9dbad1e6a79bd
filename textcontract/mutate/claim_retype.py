"""claim-retype: a claim takes the same value in another type (``1001`` → ``1001.0``, ``"1001"``).

One variant per claim and per representation that exists for its value (SPEC §2.1's four
types); a value with none (``"Parcelway"``) is skipped.

Valid by construction: claims follow the fact rules, so a claim of ``1001.0`` for a fact of
``1001`` declares another value — the fault of a renderer that serialises an id as a float.
Where it is not: if a downstream consumer compares loosely, nobody would notice; the
contract promises type-sensitive comparison and the variant holds it to that promise.
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
from textcontract.mutate._values import representations

__all__ = ["ClaimRetype"]


class ClaimRetype(Operator):
    name = "claim-retype"
    probe_class = OperatorClass.DEFECT
    targets: ClassVar[tuple[str, ...]] = CLAIMS_TYPES
    summary = (
        "a declared claim takes the same value in another type: claims are type-sensitive, "
        "so the renderer declares a value the state does not hold"
    )

    def generate(self, baseline: Baseline, chooser: Chooser) -> Iterator[Proposal]:
        del chooser  # every representation is used
        for entry in baseline.entries(self.targets):
            rule = entry.rule
            found = False
            for surface, key, value in claimed(baseline, rule):
                forms = representations(value)
                if not forms:
                    yield Skip(
                        f"{rule.header.id}: claim {key} on {surface.name} "
                        f"({describe_value(value)}) has no other representation"
                    )
                for form in forms:
                    found = True
                    yield Mutation(
                        with_claim(baseline.document, surface.name, key, form),
                        baseline.context,
                        f"claim {key} on surface {surface.name!r}: {describe_value(value)} → "
                        f"{describe_value(form)} (same value, another type)",
                        (mismatch(rule, surface),),
                    )
            if not found:
                yield Skip(f"{rule.header.id}: no claim it checks has another representation")
