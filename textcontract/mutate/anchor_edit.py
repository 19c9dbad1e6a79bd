"""anchor-edit: a value printed at a claim's anchor is edited after rendering.

For each claim with anchors on a surface a ClaimsAnchored rule reads, the text at one anchor
(the seed picks which) changes one character, keeping its length: its first digit goes up by
one (``59.90`` → ``69.90``), else its first letter becomes the next one (``Parcelway`` →
``Qarcelway``). Keeping the length keeps every other anchor where it was, so only the edited
claim stops standing. A claim without anchors (``search: true`` looks for it by its written
forms instead) and a value with no digit or letter are skipped.

Valid by construction: the e-mail now prints a value the renderer did not print — the
after-the-fact edit (an LLM polish pass, a string replace) the rule exists to notice, and the
claim no longer describes the text. Where it is not: an edit that keeps the meaning (a
thousands separator added, a name's case changed) also breaks an anchor; this operator never
makes such an edit, but a contract whose renderer is followed by an intended formatting pass
would flag that pass too.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from textcontract.model import Surface
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
from textcontract.rules import RuleType

__all__ = ["AnchorEdit", "edited"]


def edited(text: str) -> str | None:
    """``text`` with one character changed and its length kept; ``None`` when it has no
    ASCII digit or letter."""
    for index, char in enumerate(text):
        if char.isascii() and char.isdigit():
            return text[:index] + str((int(char) + 1) % 10) + text[index + 1 :]
    for index, char in enumerate(text):
        if char.isascii() and char.isalpha():
            base = ord("A") if char.isupper() else ord("a")
            return text[:index] + chr(base + (ord(char) - base + 1) % 26) + text[index + 1 :]
    return None


class AnchorEdit(Operator):
    name = "anchor-edit"
    probe_class = OperatorClass.DEFECT
    targets: ClassVar[tuple[str, ...]] = ("ClaimsAnchored",)
    summary = (
        "a value printed at a claim's anchor is edited after rendering (one character, same "
        "length): the text no longer says what the renderer claimed"
    )

    def generate(self, baseline: Baseline, chooser: Chooser) -> Iterator[Proposal]:
        for entry in baseline.entries(self.targets):
            rule = entry.rule
            for surface in baseline.surfaces_read(rule):
                yield from self._surface(baseline, rule, surface, chooser)

    @staticmethod
    def _surface(
        baseline: Baseline, rule: RuleType, surface: Surface, chooser: Chooser
    ) -> Iterator[Proposal]:
        for key in surface.claims:
            anchors = surface.anchors.get(key, ())
            if not anchors:
                yield Skip(f"{rule.header.id}: claim {key} on {surface.name} has no anchor")
                continue
            anchor = chooser.pick(anchors, rule.header.id, surface.name, key)
            new = edited(anchor.text)
            if new is None:
                yield Skip(f"{rule.header.id}: the anchor text {anchor.text!r} has nothing to edit")
                continue
            text = surface.text[: anchor.start] + new + surface.text[anchor.end :]
            yield Mutation(
                with_texts(baseline.document, {surface.name: text}),
                baseline.context,
                f"claim {key} on surface {surface.name!r}: the text at "
                f"[{anchor.start}, {anchor.end}) edited from {anchor.text!r} to {new!r}",
                (expected(rule, rule.main_code, f"surface:{surface.name}"),),
            )
