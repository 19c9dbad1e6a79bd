"""trailing-newline: a multi-line surface gains a final line break, or loses one.

A surface of several lines that ends without a line break gets one; one that ends with one
loses it. One-line surfaces (a subject line) are left alone: a break after a subject is a
header fault, not a variation.

Valid by construction: whether a file or a rendered body ends in a line break is an
artefact of the writer, invisible to a reader. Where it is not: a format that counts lines
(a fixed-layout SMS, a signature block glued to the next part) may differ.
"""

from __future__ import annotations

from collections.abc import Iterator

from textcontract.mutate._base import Baseline, Operator, OperatorClass, Proposal
from textcontract.mutate._choice import Chooser
from textcontract.mutate._preserve import rewrite_surfaces

__all__ = ["TrailingNewline", "toggle_newline"]


def toggle_newline(text: str) -> str | None:
    """``text`` with its final line break added or removed; ``None`` for one-line text."""
    if "\n" not in text.rstrip("\n"):
        return None
    return text[:-1] if text.endswith("\n") else text + "\n"


class TrailingNewline(Operator):
    name = "trailing-newline"
    probe_class = OperatorClass.PRESERVE
    summary = (
        "a multi-line surface gains a final line break, or loses one: an artefact of the "
        "writer, invisible to a reader"
    )

    def generate(self, baseline: Baseline, chooser: Chooser) -> Iterator[Proposal]:
        del chooser  # nothing to choose
        yield from rewrite_surfaces(
            baseline, lambda _, text: toggle_newline(text), "final line break toggled"
        )
