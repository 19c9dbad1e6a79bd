"""A plugin operator for the tests: the subject line in capitals (a preserve variation)."""

from __future__ import annotations

from collections.abc import Iterator

from textcontract.mutate import (
    Baseline,
    Chooser,
    Mutation,
    Operator,
    OperatorClass,
    Proposal,
    Skip,
    with_texts,
)


class ShoutSubject(Operator):
    """shout-subject: the subject in capitals. Valid by construction: the same words.
    Where it is not: a subject in capitals reads as shouting."""

    name = "shout-subject"
    probe_class = OperatorClass.PRESERVE
    summary = "the subject line in capitals: the same words, louder"

    def generate(self, baseline: Baseline, chooser: Chooser) -> Iterator[Proposal]:
        del chooser
        subject = baseline.document.surface("subject")
        if subject is None:
            yield Skip("the document has no subject")
            return
        yield Mutation(
            with_texts(baseline.document, {"subject": subject.text.upper()}),
            baseline.context,
            "subject in capitals",
        )


class NoName(Operator):
    probe_class = OperatorClass.DEFECT
    targets = ("RequiredFact",)
    summary = "declares no name"

    def generate(self, baseline: Baseline, chooser: Chooser) -> Iterator[Proposal]:
        del baseline, chooser
        yield from ()


class PreserveWithTargets(ShoutSubject):
    name = "preserve-with-targets"
    targets = ("RequiredFact",)
