"""restate-source: the target surface of a LexicalRestatement rule restates its source.

The target's text becomes the source's sentences in reverse order (the source itself when it
has one sentence): every word of the source, none of its own — a summary that only repeats
the question, a reply that quotes the request back.

Valid by construction: the target adds nothing to the source, which is the restatement the
rule exists to catch. Where it is not: a target meant to confirm the source verbatim (an
order summary that must repeat the order) would be right to restate it; such a pair should
not carry this rule.
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
from textcontract.mutate._texts import sentences

__all__ = ["RestateSource"]


class RestateSource(Operator):
    name = "restate-source"
    probe_class = OperatorClass.GAMEABILITY
    targets: ClassVar[tuple[str, ...]] = ("LexicalRestatement",)
    summary = (
        "the target surface restates the source (its sentences in reverse order): it looks "
        "like an answer and adds nothing"
    )

    def generate(self, baseline: Baseline, chooser: Chooser) -> Iterator[Proposal]:
        del chooser  # one construction
        for entry in baseline.entries(self.targets):
            rule = entry.rule
            source = baseline.document.surface(rule.options.text("source"))
            target = baseline.document.surface(rule.options.text("target"))
            assert source is not None  # the baseline is complete: both surfaces exist
            assert target is not None
            if source.name == target.name:
                yield Skip(f"{rule.header.id}: source and target are the same surface")
                continue
            parts = sentences(source.text)
            text = " ".join(reversed(parts)) if len(parts) > 1 else source.text
            yield Mutation(
                with_texts(baseline.document, {target.name: text}),
                baseline.context,
                f"surface {target.name!r} restates surface {source.name!r}",
                (expected(rule, rule.main_code, f"surface:{target.name}"),),
            )
