"""refusal: a surface a length rule reads is replaced by a model's refusal.

The text is always ``I'm sorry, but I can't help with that.`` (8 word tokens, 7 distinct), the
output of an LLM step that declined. One variant per MinimumTokens or TokenRange rule (with a
``min``) and surface it reads. The rule's thresholds are not consulted: a contract whose
minimum lets eight words through lets this refusal through, and the audit says so.

Valid by construction: a refusal in place of the e-mail is a zero-action fault whatever the
contract's thresholds. Where it is not: on a surface where a short apology is a correct
answer (a chat reply to an out-of-scope question), a refusal is the intended output.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from textcontract.mutate._base import (
    Baseline,
    Mutation,
    Operator,
    OperatorClass,
    Proposal,
    with_texts,
)
from textcontract.mutate._choice import Chooser
from textcontract.mutate._lengths import LENGTH_TYPES, length_targets

__all__ = ["REFUSAL", "Refusal"]

REFUSAL = "I'm sorry, but I can't help with that."


class Refusal(Operator):
    name = "refusal"
    probe_class = OperatorClass.ZERO_ACTION
    targets: ClassVar[tuple[str, ...]] = LENGTH_TYPES
    summary = (
        "a surface a minimum-length rule reads is replaced by an LLM refusal (\"I'm sorry, "
        "but I can't help with that.\"): nothing the renderer was asked for"
    )

    def generate(self, baseline: Baseline, chooser: Chooser) -> Iterator[Proposal]:
        del chooser  # one fixed text
        for target in length_targets(baseline):
            if not isinstance(target, tuple):
                yield target
                continue
            _, surface, expectation = target
            yield Mutation(
                with_texts(baseline.document, {surface.name: REFUSAL}),
                baseline.context,
                f"surface {surface.name!r} is a refusal",
                (expectation,),
            )
