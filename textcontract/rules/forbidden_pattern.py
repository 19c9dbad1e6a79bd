"""ForbiddenPattern: no pattern may match a surface's normalized text.

Patterns are searched on the ``folded`` profile (NFKC, casefold, accents
removed) unless ``accent_folding: false`` selects the ``text`` profile, so a
pattern is written for normalized text: lowercase-insensitive, accent-free.
Regex matching does not understand negation or quotation: "we will never
promise a refund" matches ``refund``.

Violated::

    {id: no-guarantee, type: ForbiddenPattern, patterns: ['\\bguarantee[ds]?\\b']}
    body: "Delivery is GUARANTEED by Friday."

Satisfied::

    {id: no-guarantee, type: ForbiddenPattern, patterns: ['\\bguarantee[ds]?\\b']}
    body: "Delivery is expected by Friday."
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from textcontract.model import Check, Kind, Status, Surface
from textcontract.rules._base import (
    MAX_EXCERPTS,
    PATTERN_TIMEOUT,
    SURFACE_MISSING,
    Code,
    Options,
    PatternRule,
    RuleHeader,
    pattern_name,
)
from textcontract.rules._params import PATTERN_LIST, CompiledPattern, Param
from textcontract.rules._subject import Subject
from textcontract.text import PatternHit, PatternTimeout

__all__ = ["ForbiddenPattern"]


class ForbiddenPattern(PatternRule):
    name = "ForbiddenPattern"
    kind = Kind.HEURISTIC
    summary = "no pattern matches the surface (normalized, accent-folded by default)"
    params: ClassVar[tuple[Param, ...]] = (
        Param("patterns", PATTERN_LIST, "regular expressions, any match violates"),
        *PatternRule.params,
    )
    codes: ClassVar[tuple[Code, ...]] = (
        Code.of(
            "FORBIDDEN_PATTERN",
            "no forbidden pattern matches the surface",
            Status.SATISFIED,
            Status.VIOLATED,
        ),
        SURFACE_MISSING,
        PATTERN_TIMEOUT,
    )
    main_code = "FORBIDDEN_PATTERN"
    reads_surfaces_only = True

    def __init__(self, header: RuleHeader, options: Options) -> None:
        super().__init__(header, options)
        self._patterns = options.patterns("patterns")
        self._profile = self.profile

    def searched_patterns(self) -> tuple[CompiledPattern, ...]:
        return self._patterns

    def reuses_idle_checks(self) -> bool:
        # Where no pattern can match, each surface is "satisfied, 0 matches" and each
        # missing one SURFACE_MISSING: the same checks for every document with these
        # surface names. A subclass may decide otherwise, so only this class says so.
        return type(self) is ForbiddenPattern

    def evaluate_surface(self, subject: Subject, surface: Surface) -> Iterator[Check]:
        text = subject.normalized(surface, self._profile, self.view)
        # The patterns whose required literal is absent cannot match; the others are
        # searched as always, in order, so the result is that of searching every pattern.
        patterns = self.pattern_list(self._patterns).select(self.candidates(subject, surface))
        found: list[PatternHit] = []
        total = 0
        if patterns:
            try:
                found, total = self.search(patterns, text, self.budget(), MAX_EXCERPTS)
            except PatternTimeout:
                yield self.timeout(surface)
                return
        scope = f"surface:{surface.name}"
        if total == 0:
            yield self.check(
                Status.SATISFIED,
                "FORBIDDEN_PATTERN",
                scope,
                f"no forbidden pattern matches surface {surface.name!r}",
                metrics={"matches": 0},
            )
            return
        evidence = self.located(subject, surface, found)
        first = evidence[0]
        plural = "match" if total == 1 else "matches"
        yield self.check(
            Status.VIOLATED,
            "FORBIDDEN_PATTERN",
            scope,
            f"{total} forbidden {plural} on surface {surface.name!r}, "
            f"first {first['match']!r} (pattern {pattern_name(first['pattern'], self._patterns)})",
            evidence=evidence,
            metrics={"matches": total},
        )
