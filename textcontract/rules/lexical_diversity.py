"""LexicalDiversity: distinct word tokens over all word tokens reaches ``min``.

The ratio falls as texts grow, so compare it only between texts of similar
length; below ``min_tokens`` tokens it is not judged (INSUFFICIENT_TOKENS,
``undetermined``, with the counts as metrics). A ratio equal to ``min`` holds.
Unspaced scripts make the check ``undetermined`` (UNSUPPORTED_SCRIPT). Unique
words added at random raise the ratio: diversity is not quality.

Violated::

    {id: not-repetitive, type: LexicalDiversity, min: 0.5, min_tokens: 4}
    body: "great great great great great product"

Satisfied::

    {id: not-repetitive, type: LexicalDiversity, min: 0.5, min_tokens: 4}
    body: "The parcel left the warehouse this morning."
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
from textcontract.rules._params import INTEGER, NUMBER, Param
from textcontract.rules._subject import Subject

__all__ = ["LexicalDiversity"]


class LexicalDiversity(TokenRule):
    name = "LexicalDiversity"
    kind = Kind.HEURISTIC
    summary = "distinct/total word tokens reaches a minimum"
    params: ClassVar[tuple[Param, ...]] = (
        *TokenRule.params,
        Param("min", NUMBER, "lowest allowed distinct/total ratio", minimum=0, maximum=1),
        Param(
            "min_tokens",
            INTEGER,
            "fewest tokens for the ratio to be judged",
            default=10,
            minimum=1,
        ),
    )
    codes: ClassVar[tuple[Code, ...]] = (
        Code.of(
            "LEXICAL_DIVERSITY",
            "distinct/total word tokens reaches the minimum",
            Status.SATISFIED,
            Status.VIOLATED,
        ),
        Code.of(
            "INSUFFICIENT_TOKENS",
            "too few tokens for the ratio to mean anything",
            Status.UNDETERMINED,
        ),
        UNSUPPORTED_SCRIPT,
        SURFACE_MISSING,
    )
    main_code = "LEXICAL_DIVERSITY"
    reads_surfaces_only = True

    def __init__(self, header: RuleHeader, options: Options) -> None:
        super().__init__(header, options)
        self._min = options.number("min")
        self._min_tokens = options.integer("min_tokens")

    def evaluate_tokens(
        self, subject: Subject, surface: Surface, tokens: tuple[str, ...]
    ) -> Iterator[Check]:
        count = len(tokens)
        unique = len(self.token_set(subject, surface))
        scope = f"surface:{surface.name}"
        if count < self._min_tokens:
            yield self.check(
                Status.UNDETERMINED,
                "INSUFFICIENT_TOKENS",
                scope,
                f"surface {surface.name!r} has {count} tokens; "
                f"diversity is judged from {self._min_tokens}",
                metrics={"tokens": count, "unique_tokens": unique},
            )
            return
        # Division, not multiplication: a ratio equal to `min` as written compares equal.
        diversity = unique / count
        low = diversity < self._min
        yield self.check(
            Status.VIOLATED if low else Status.SATISFIED,
            "LEXICAL_DIVERSITY",
            scope,
            f"surface {surface.name!r} has {unique} distinct of {count} tokens "
            f"({diversity:.3f}); {'below' if low else 'meets'} the minimum {self._min:g}",
            metrics={"tokens": count, "unique_tokens": unique, "diversity": diversity},
        )
