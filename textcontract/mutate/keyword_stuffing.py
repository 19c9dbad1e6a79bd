"""keyword-stuffing: a surface padded with its own keywords, over and over.

The keywords are the surface's three most frequent word tokens of five letters or more outside
its links (ties in order of appearance; shorter words are mostly function words). For
LexicalDiversity, as many stuffed tokens as the surface already holds are added as a
paragraph of their own at a point the seed picks, doubling its length.
For MinimumTokens, the surface is cut to the start of its first sentence — whole words, a
third of the rule's ``minimum`` in word tokens at most — and padded with keywords up to the
``minimum``, the count a gamer aims at (a rule asking for fewer than two tokens leaves
nothing to pad and is skipped). The variant is caught only if the rule also watches
something padding cannot buy (``minimum_unique``, the diversity ratio).

Valid by construction: repeated keywords add no content; an output made long or "on topic"
that way games the length and diversity checks. Where it is not: this is the operator whose
label is easiest to argue — a stuffed paragraph after a complete e-mail still carries the
complete e-mail; it is a quality fault, not a wrong statement.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import ClassVar

import regex

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
from textcontract.mutate._texts import insert, sentences
from textcontract.rules import RuleType
from textcontract.text import WORDS, Profile, Segmenter, normalize

__all__ = ["KeywordStuffing", "keywords"]

_KEYWORDS = 3
_SHORTEST = 5
_LINK = regex.compile(r"https?://\S+", regex.IGNORECASE)
_WORD = regex.compile(r"\S+")


def _tokens(text: str, segmenter: Segmenter = WORDS) -> tuple[str, ...]:
    return segmenter.tokens(normalize(text, Profile.TEXT))


def keywords(text: str, segmenter: Segmenter = WORDS) -> list[str]:
    """The most frequent tokens of five letters or more outside links, most frequent first
    (ties in order of appearance)."""
    prose = _LINK.sub(" ", text)
    counts = Counter(token for token in _tokens(prose, segmenter) if len(token) >= _SHORTEST)
    return [token for token, _ in counts.most_common(_KEYWORDS)]


def _terse_core(text: str, limit: int, segmenter: Segmenter) -> str:
    """The start of the first sentence, whole words up to ``limit`` tokens."""
    parts = sentences(text)
    sentence = parts[0] if parts else text.strip()
    core = ""
    for found in _WORD.finditer(sentence):
        core = sentence[: found.end()]
        if len(_tokens(core, segmenter)) >= limit:
            break
    return core


def _stuffing(words: list[str], count: int) -> str:
    return " ".join(words[index % len(words)] for index in range(count))


class KeywordStuffing(Operator):
    name = "keyword-stuffing"
    probe_class = OperatorClass.GAMEABILITY
    targets: ClassVar[tuple[str, ...]] = ("LexicalDiversity", "MinimumTokens")
    summary = (
        "a surface padded with its own keywords, over and over: longer and on topic, with "
        "no more content"
    )

    def generate(self, baseline: Baseline, chooser: Chooser) -> Iterator[Proposal]:
        for entry in baseline.entries(self.targets):
            rule = entry.rule
            for surface in baseline.surfaces_read(rule):
                yield self._surface(baseline, rule, surface, chooser)

    @staticmethod
    def _surface(
        baseline: Baseline, rule: RuleType, surface: Surface, chooser: Chooser
    ) -> Proposal:
        # the tokens the rule counts: a rule may cut them with the icu segmenter (SPEC §19)
        segmenter: Segmenter = getattr(rule, "segmenter", WORDS)
        words = keywords(surface.text, segmenter)
        where = f"{rule.header.id} on surface {surface.name!r}"
        if not words:
            return Skip(f"{where}: no word of five letters or more to stuff")
        if rule.header.type == "LexicalDiversity":
            padding = _stuffing(words, len(_tokens(surface.text, segmenter)))
            text = insert(surface.text, padding, chooser, rule.header.id, surface.name)
            what = f"{len(_tokens(padding, segmenter))} repetitions of {', '.join(words)} added"
        else:
            minimum = rule.options.integer("minimum")
            core = _terse_core(surface.text, max(1, minimum // 3), segmenter)
            missing = minimum - len(_tokens(core, segmenter))
            if missing <= 0:
                return Skip(f"{where}: the rule asks for too few tokens to pad ({minimum})")
            text = f"{core} {_stuffing(words, missing)}"
            what = f"cut to {core!r} and padded with {', '.join(words)} to the minimum"
        return Mutation(
            with_texts(baseline.document, {surface.name: text}),
            baseline.context,
            f"surface {surface.name!r} {what}",
            (expected(rule, rule.main_code, f"surface:{surface.name}"),),
        )
