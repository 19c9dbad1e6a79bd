"""MinimumTokens: a surface has at least ``minimum`` word tokens, ``minimum_unique`` distinct.

Tokens are counted on the ``text`` profile (NFKC, casefold, NFC): "Straße" and
"STRASSE" are one distinct token. Counting words says nothing about whether
they make sense; filler passes. A surface whose letters are more than 5% of a
script written without spaces is ``undetermined`` (UNSUPPORTED_SCRIPT), with no
counts, since word counts there would be wrong.

Violated::

    {id: substantive, type: MinimumTokens, minimum: 5}
    body: "OK, done."

Satisfied::

    {id: substantive, type: MinimumTokens, minimum: 5, minimum_unique: 4}
    body: "Your parcel left our warehouse today."
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from textcontract.model import Check, Kind, Status, Surface
from textcontract.rules._base import (
    SURFACE_MISSING,
    UNSUPPORTED_SCRIPT,
    Code,
    Options,
    RuleHeader,
    TokenRule,
)
from textcontract.rules._params import INTEGER, Param
from textcontract.rules._subject import Subject

__all__ = ["MinimumTokens"]


class MinimumTokens(TokenRule):
    name = "MinimumTokens"
    kind = Kind.HEURISTIC
    summary = "the surface has at least a number of word tokens, and of distinct ones"
    params: ClassVar[tuple[Param, ...]] = (
        *TokenRule.params,
        Param("minimum", INTEGER, "fewest word tokens (repeats counted)", minimum=0),
        Param("minimum_unique", INTEGER, "fewest distinct word tokens", default=1, minimum=0),
    )
    codes: ClassVar[tuple[Code, ...]] = (
        Code.of(
            "LOW_LEXICAL_CONTENT",
            "the surface reaches both token minimums",
            Status.SATISFIED,
            Status.VIOLATED,
        ),
        UNSUPPORTED_SCRIPT,
        SURFACE_MISSING,
    )
    main_code = "LOW_LEXICAL_CONTENT"
    reads_surfaces_only = True

    def __init__(self, header: RuleHeader, options: Options) -> None:
        super().__init__(header, options)
        self._minimum = options.integer("minimum")
        self._minimum_unique = options.integer("minimum_unique")

    def evaluate_tokens(
        self, subject: Subject, surface: Surface, tokens: tuple[str, ...]
    ) -> Iterator[Check]:
        count = len(tokens)
        unique = len(self.token_set(subject, surface))
        short: list[str] = []
        if count < self._minimum:
            short.append(f"{count} tokens, at least {self._minimum} required")
        if unique < self._minimum_unique:
            short.append(f"{unique} distinct tokens, at least {self._minimum_unique} required")
        metrics = {"tokens": count, "unique_tokens": unique}
        scope = f"surface:{surface.name}"
        if short:
            yield self.check(
                Status.VIOLATED,
                "LOW_LEXICAL_CONTENT",
                scope,
                f"surface {surface.name!r} is too short: " + "; ".join(short),
                metrics=metrics,
            )
        else:
            yield self.check(
                Status.SATISFIED,
                "LOW_LEXICAL_CONTENT",
                scope,
                f"surface {surface.name!r} has {count} tokens ({unique} distinct)",
                metrics=metrics,
            )
