"""TokenRange: a surface's word-token count lies within ``min`` and ``max`` (both inclusive).

Either bound may be left out, not both. ``min`` above ``max`` loads (the rule
then never holds) and ``textcontract lint`` warns about it. Tokens are counted
on the ``text`` profile, repeats included; unspaced scripts make the check
``undetermined`` (UNSUPPORTED_SCRIPT).

Violated::

    {id: sms-length, type: TokenRange, max: 5}
    body: "Your order has shipped and will arrive on Friday."

Satisfied::

    {id: sms-length, type: TokenRange, min: 2, max: 12}
    body: "Your order has shipped and will arrive on Friday."
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from textcontract.model import Check, Kind, Status, Surface
from textcontract.rules._base import (
    SURFACE_MISSING,
    UNSUPPORTED_SCRIPT,
    Code,
    Options,
    RuleHeader,
    TokenRule,
)
from textcontract.rules._params import INTEGER, Param, ParamProblem
from textcontract.rules._subject import Subject

__all__ = ["TokenRange"]


class TokenRange(TokenRule):
    name = "TokenRange"
    kind = Kind.HEURISTIC
    summary = "the surface's word-token count is within bounds (inclusive)"
    params: ClassVar[tuple[Param, ...]] = (
        *TokenRule.params,
        Param("min", INTEGER, "fewest word tokens allowed (inclusive)", default=None, minimum=0),
        Param("max", INTEGER, "most word tokens allowed (inclusive)", default=None, minimum=0),
    )
    codes: ClassVar[tuple[Code, ...]] = (
        Code.of(
            "TOKEN_COUNT",
            "the word-token count is within the bounds",
            Status.SATISFIED,
            Status.VIOLATED,
        ),
        UNSUPPORTED_SCRIPT,
        SURFACE_MISSING,
    )
    main_code = "TOKEN_COUNT"
    reads_surfaces_only = True

    @classmethod
    def validate_options(cls, options: Mapping[str, Any]) -> list[ParamProblem]:
        problems = super().validate_options(options)
        if options.get("min") is None and options.get("max") is None:
            problems.append(ParamProblem("TokenRange needs 'min', 'max' or both"))
        return problems

    def __init__(self, header: RuleHeader, options: Options) -> None:
        super().__init__(header, options)
        self._min = options.optional_integer("min")
        self._max = options.optional_integer("max")

    def _bounds(self) -> str:
        if self._max is None:
            return f"at least {self._min}"
        if self._min is None:
            return f"at most {self._max}"
        return f"between {self._min} and {self._max}"

    def evaluate_tokens(
        self, subject: Subject, surface: Surface, tokens: tuple[str, ...]
    ) -> Iterator[Check]:
        del subject
        count = len(tokens)
        outside = (self._min is not None and count < self._min) or (
            self._max is not None and count > self._max
        )
        yield self.check(
            Status.VIOLATED if outside else Status.SATISFIED,
            "TOKEN_COUNT",
            f"surface:{surface.name}",
            f"surface {surface.name!r} has {count} tokens; "
            f"{'expected' if outside else 'allowed'} {self._bounds()}",
            metrics={"tokens": count},
        )
