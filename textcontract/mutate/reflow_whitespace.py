"""reflow-whitespace: prose paragraphs re-wrapped at another line width.

A paragraph counts as prose when none of its lines starts like markup (a list item, a
heading, a quote, a table row, an indented or fenced block) and every line but its last is
40 characters or longer — hard-wrapped text, not a signature or an address. Its words are
re-wrapped at a width the seed picks (40 to 88 columns; the next width is tried when that
one changes nothing); runs of spaces and tabs between words become one space. Words are
never split, so links stay whole. A surface holding ``\\r`` is left alone.

Valid by construction: plain-text e-mail clients re-wrap paragraphs themselves; the words,
their order and the paragraph breaks are unchanged. Where it is not: in Markdown two
trailing spaces are a line break, and in a poem or a street address line breaks are
content — such lines are not prose by the test above only when they are short.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterator

import regex

from textcontract.mutate._base import Baseline, Operator, OperatorClass, Proposal
from textcontract.mutate._choice import Chooser
from textcontract.mutate._preserve import rewrite_surfaces
from textcontract.mutate._texts import paragraphs

__all__ = ["ReflowWhitespace", "reflow"]

_WIDTHS = (40, 56, 64, 72, 88)
_PROSE_LINE = 40
_MARKUP = regex.compile(r"[ \t]|[-*+>|#]|\d+[.)]\s|```|~~~")
_SPACES = regex.compile(r"[ \t]+")


def _is_prose(lines: list[str]) -> bool:
    if any(_MARKUP.match(line) for line in lines):
        return False
    return all(len(line) >= _PROSE_LINE for line in lines[:-1])


def reflow(text: str, width: int) -> str:
    """``text`` with its prose paragraphs re-wrapped at ``width``."""
    pieces = []
    position = 0
    for start, end in paragraphs(text):
        lines = text[start:end].split("\n")
        pieces.append(text[position:start])
        if _is_prose(lines):
            words = _SPACES.sub(" ", " ".join(lines)).strip()
            pieces.append(
                "\n".join(
                    textwrap.wrap(words, width, break_long_words=False, break_on_hyphens=False)
                )
            )
        else:
            pieces.append(text[start:end])
        position = end
    pieces.append(text[position:])
    return "".join(pieces)


class ReflowWhitespace(Operator):
    name = "reflow-whitespace"
    probe_class = OperatorClass.PRESERVE
    summary = (
        "prose paragraphs re-wrapped at another width, spaces between words collapsed: the "
        "same words in the same order, as a mail client would show them"
    )

    def generate(self, baseline: Baseline, chooser: Chooser) -> Iterator[Proposal]:
        def rewrite(name: str, text: str) -> str | None:
            if "\r" in text:
                return None
            for width in chooser.order(_WIDTHS, "width", name):
                new = reflow(text, width)
                if new != text:
                    return new
            return None

        yield from rewrite_surfaces(baseline, rewrite, "prose re-wrapped")
