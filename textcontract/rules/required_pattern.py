"""RequiredPattern: a surface's normalized text must contain a pattern (or all of them).

With ``match: any`` (the default) one matching pattern suffices and the search
stops at the first pattern, in list order, that matches; with ``match: all``
every pattern must match somewhere. Text is normalized as for
ForbiddenPattern. A match proves presence of the words, not that they are
meant: "this is not your order number" satisfies ``order number``.

Violated::

    {id: has-order-number, type: RequiredPattern, patterns: ['order #?\\d+']}
    body: "Thanks for your order!"

Satisfied::

    {id: has-order-number, type: RequiredPattern, patterns: ['order #?\\d+'], match: all}
    body: "Thanks for order #1001."
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from textcontract.model import Check, Kind, Status, Surface
from textcontract.rules._base import (
    PATTERN_TIMEOUT,
    SURFACE_MISSING,
    Code,
    Options,
    PatternRule,
    RuleHeader,
    pattern_name,
)
from textcontract.rules._params import PATTERN_LIST, CompiledPattern, Param, choice
from textcontract.rules._subject import Subject
from textcontract.text import Budget, PatternHit, PatternTimeout

__all__ = ["RequiredPattern"]


class RequiredPattern(PatternRule):
    name = "RequiredPattern"
    kind = Kind.HEURISTIC
    summary = "a pattern (or, with match: all, every pattern) matches the surface"
    params: ClassVar[tuple[Param, ...]] = (
        Param("patterns", PATTERN_LIST, "regular expressions to look for"),
        Param(
            "match",
            choice("any", "all"),
            "any: one matching pattern suffices; all: every pattern must match",
            default="any",
        ),
        *PatternRule.params,
    )
    codes: ClassVar[tuple[Code, ...]] = (
        Code.of(
            "REQUIRED_PATTERN",
            "the required patterns match the surface",
            Status.SATISFIED,
            Status.VIOLATED,
        ),
        SURFACE_MISSING,
        PATTERN_TIMEOUT,
    )
    main_code = "REQUIRED_PATTERN"
    reads_surfaces_only = True

    def __init__(self, header: RuleHeader, options: Options) -> None:
        super().__init__(header, options)
        self._patterns = options.patterns("patterns")
        self._all = options.text("match") == "all"
        self._profile = self.profile

    def searched_patterns(self) -> tuple[CompiledPattern, ...]:
        return self._patterns

    def evaluate_surface(self, subject: Subject, surface: Surface) -> Iterator[Check]:
        text = subject.normalized(surface, self._profile, self.view)
        # Only the patterns that can match are searched; the others count as missing.
        searched = set(self.pattern_list(self._patterns).select(self.candidates(subject, surface)))
        budget: Budget | None = None
        found: list[PatternHit] = []
        missing: list[str] = []
        try:
            for pattern in self._patterns:
                hit = None
                if pattern in searched:
                    budget = budget or self.budget()
                    hit = self.first_match(pattern, text, budget)
                if hit is None:
                    missing.append(pattern.source)
                else:
                    found.append(hit)
                    if not self._all:
                        break
        except PatternTimeout:
            yield self.timeout(surface)
            return
        scope = f"surface:{surface.name}"
        held = not missing if self._all else bool(found)
        if held:
            evidence = self.located(subject, surface, found)
            shown = ", ".join(repr(item["match"]) for item in evidence)
            yield self.check(
                Status.SATISFIED,
                "REQUIRED_PATTERN",
                scope,
                f"surface {surface.name!r} contains {shown}",
                evidence=evidence,
            )
            return
        if self._all:
            names = ", ".join(pattern_name(source, self._patterns) for source in missing)
            message = f"surface {surface.name!r} lacks required pattern(s) {names}"
        else:
            message = f"surface {surface.name!r} matches none of the {len(missing)} pattern(s)"
        yield self.check(
            Status.VIOLATED,
            "REQUIRED_PATTERN",
            scope,
            message,
            evidence=[{"missing": missing}],
        )
