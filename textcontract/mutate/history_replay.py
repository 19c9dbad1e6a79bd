"""history-replay: a surface repeats an earlier text of the thread, word for word.

For each surface a NoRepeatedText rule reads and each text of the context's ``history``, one
variant whose surface text is that earlier text. A context without history gives nothing.

Valid by construction: sending the customer a message they already received, instead of
the new one, is the fault the rule names. Where it is not: a deliberate reminder repeating
an earlier message should not carry this rule.
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

__all__ = ["HistoryReplay"]


class HistoryReplay(Operator):
    name = "history-replay"
    probe_class = OperatorClass.DEFECT
    targets: ClassVar[tuple[str, ...]] = ("NoRepeatedText",)
    summary = (
        "a surface repeats an earlier text of the thread (the context's history) word for "
        "word: the customer gets a message they already had"
    )

    def generate(self, baseline: Baseline, chooser: Chooser) -> Iterator[Proposal]:
        del chooser  # every history text is used
        history = baseline.context.history
        for entry in baseline.entries(self.targets):
            rule = entry.rule
            if not history:
                yield Skip(f"{rule.header.id}: the context has no history to replay")
                continue
            for surface in baseline.surfaces_read(rule):
                for index, earlier in enumerate(history):
                    yield Mutation(
                        with_texts(baseline.document, {surface.name: earlier}),
                        baseline.context,
                        f"surface {surface.name!r} is history[{index}] again",
                        (expected(rule, rule.main_code, f"surface:{surface.name}"),),
                    )
