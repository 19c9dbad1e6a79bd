"""smart-quotes: straight quotes and apostrophes become typographic ones.

``'`` between letters (``can't``) and at the end of a word becomes ``’``, at the start of a
word ``‘``; ``"`` becomes ``“`` at the start of a word and ``”`` elsewhere — what a word
processor or an LLM's formatting step does. Quotes inside http(s) links are left alone. A
document without straight quotes gives nothing.

Valid by construction: typographic and straight quotes spell the same words.
Where it is not: in code, JSON or a command the user must paste, a curly quote breaks it; such text
should not be in a surface this operator is run on.
"""

from __future__ import annotations

from collections.abc import Iterator

import regex

from textcontract.mutate._base import Baseline, Operator, OperatorClass, Proposal
from textcontract.mutate._choice import Chooser
from textcontract.mutate._preserve import rewrite_surfaces

__all__ = ["SmartQuotes", "curl"]

_LINK = regex.compile(r"https?://\S+", regex.IGNORECASE)
_QUOTE = regex.compile(r"['\"]")


def _curled(text: str, index: int) -> str:
    char = text[index]
    before = text[index - 1] if index > 0 else " "
    opening = before.isspace() or before in "([{“‘—–-"
    if char == '"':
        return "“" if opening else "”"
    return "‘" if opening else "’"


def curl(text: str) -> str:
    """``text`` with its straight quotes curled, links excepted."""
    links = [found.span() for found in _LINK.finditer(text)]
    out = []
    position = 0
    for found in _QUOTE.finditer(text):
        index = found.start()
        if any(start <= index < end for start, end in links):
            continue
        out.append(text[position:index])
        out.append(_curled(text, index))
        position = index + 1
    out.append(text[position:])
    return "".join(out)


class SmartQuotes(Operator):
    name = "smart-quotes"
    probe_class = OperatorClass.PRESERVE
    summary = (
        'straight quotes and apostrophes become typographic ones (can\'t → can’t, "x" → '
        "“x”): the same words, as a word processor writes them"
    )

    def generate(self, baseline: Baseline, chooser: Chooser) -> Iterator[Proposal]:
        del chooser  # nothing to choose
        yield from rewrite_surfaces(baseline, lambda _, text: curl(text), "quotes curled")
