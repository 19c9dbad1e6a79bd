"""emphasis-toggle: ``**`` added around words of a Markdown surface's prose, or removed
from words that have it (``<b>`` in HTML) (SPEC §18).

The words are chosen among the prose of the surface (never in code, links' destinations or
comments) by the seed, up to three; strong emphasis already around a word is removed.

Valid by construction: emphasis changes how a word looks, not what the text says; a rule
that reads ``[prose]`` reads the same words. A rule that reads the raw text sees ``**`` in
the middle of a phrase, and an audit shows it.
Where it is not: where emphasis carries meaning (a warning in bold that a reader must not
miss), or in text a program reads as it is; such surfaces should not be mutated so.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from textcontract.model import PLAIN, Surface
from textcontract.mutate._base import Baseline, Operator, OperatorClass, Proposal
from textcontract.mutate._choice import Chooser
from textcontract.mutate._preserve import rewrite_surfaces
from textcontract.text import MarkupKind, Run, layout_of

__all__ = ["EmphasisToggle"]

_WORD = re.compile(r"(?<![\w*_~`])[^\W\d_]{3,}(?![\w*_~`])")
_STRONG = re.compile(r"\*\*([^\W\d_]{3,})\*\*")
_MOST = 3


def toggled(surface: Surface, chooser: Chooser) -> str | None:
    """The surface's text with emphasis toggled on some words, or None when none qualify."""
    text = surface.text
    layout = layout_of(text, surface.format)
    prose = [run for run in layout.runs if run.kind is MarkupKind.PROSE and run.text is None]
    if surface.format == "markdown":
        removed = {
            found.start()
            for found in _STRONG.finditer(text)
            if _inside(prose, found.start(1), found.end(1))
        }
        if removed:
            return _STRONG.sub(
                lambda found: found.group(1) if found.start() in removed else found.group(0),
                text,
            )
    words = [found.span() for run in prose for found in _WORD.finditer(text, run.start, run.end)]
    if not words:
        return None
    chosen = sorted(chooser.order(words, surface.name, "words")[:_MOST])
    opening, closing = ("**", "**") if surface.format == "markdown" else ("<b>", "</b>")
    out, position = [], 0
    for start, end in chosen:
        out += [text[position:start], opening, text[start:end], closing]
        position = end
    out.append(text[position:])
    return "".join(out)


def _inside(runs: list[Run], start: int, end: int) -> bool:
    return any(run.start <= start and end <= run.end for run in runs)


class EmphasisToggle(Operator):
    name = "emphasis-toggle"
    probe_class = OperatorClass.PRESERVE
    summary = (
        "** added around up to three words of a Markdown surface's prose (<b> in HTML), or "
        "removed where it is: the same words, emphasized differently"
    )

    def generate(self, baseline: Baseline, chooser: Chooser) -> Iterator[Proposal]:
        surfaces = {s.name: s for s in baseline.document.surfaces if s.format != PLAIN}

        def rewrite(name: str, text: str) -> str | None:
            del text
            surface = surfaces.get(name)
            return None if surface is None else toggled(surface, chooser)

        yield from rewrite_surfaces(baseline, rewrite, "emphasis toggled")
