"""forbidden-inject: a text the rule forbids is planted in a surface it reads.

The text is each of the rule's ``examples.violated`` (what its author calls a violation),
or, for a rule without examples, a literal each pattern matches, built from the pattern's
parse tree and verified against the compiled pattern (``_pattern_text.py``). SettledPremise
rules get texts for the premises the context closes. Each text goes into one surface the
rule reads (in turn), as a paragraph of its own (a sentence of its own in a one-line
surface), at a point the seed picks. Built-in packs included with ``include:`` are rules
like any other, so their examples probe them too.

Valid by construction: the planted text is the author's own example of a violation, or a
text the rule's pattern matches on its own. Where it is not: a pattern anchored to the
start or end of the text (``^``, ``$``) or relying on context may not match once the
example sits among other paragraphs — the variant is still forbidden content, and a miss
shows how much the rule relies on position; a derived literal can read oddly ("as a ai").
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
    Skip,
    expected,
    with_texts,
)
from textcontract.mutate._choice import Chooser
from textcontract.mutate._forbidden import FORBIDDING_TYPES, spread_texts
from textcontract.mutate._texts import insert

__all__ = ["ForbiddenInject"]


class ForbiddenInject(Operator):
    name = "forbidden-inject"
    probe_class = OperatorClass.DEFECT
    targets: ClassVar[tuple[str, ...]] = FORBIDDING_TYPES
    summary = (
        "a text the rule forbids (its examples.violated, else a literal its pattern matches) "
        "is planted in a surface it reads"
    )

    def generate(self, baseline: Baseline, chooser: Chooser) -> Iterator[Proposal]:
        for entry in baseline.entries(self.targets):
            rule = entry.rule
            surfaces = baseline.surfaces_read(rule)
            if not surfaces:
                yield Skip(f"{rule.header.id}: the document has none of the surfaces it reads")
                continue
            spread = spread_texts(entry, surfaces, baseline.context, chooser)
            if isinstance(spread, Skip):
                yield spread
                continue
            for index, item, surface in spread:
                planted = insert(surface.text, item.text, chooser, rule.header.id, index)
                yield Mutation(
                    with_texts(baseline.document, {surface.name: planted}),
                    baseline.context,
                    f"planted on surface {surface.name!r}: {item.origin}",
                    (expected(rule, rule.main_code, f"surface:{surface.name}"),),
                )
