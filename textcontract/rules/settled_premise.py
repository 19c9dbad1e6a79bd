"""SettledPremise: the text does not reopen a premise the context has closed.

The context lists ``closed_premises`` (ids such as ``refund-offered``: the
customer was already offered a refund); the rule maps each id to patterns that
would offer it again. A closed premise the rule has no patterns for is
undetermined rather than silently passed. Patterns see folded text (NFKC,
casefold, accents removed) unless ``accent_folding`` is false. Regexes do not
understand negation, quotation or who is speaking: "we will not offer a refund
again" matches ``refund``.

Violated::

    {id: no-reoffer, type: SettledPremise, premises: {refund-offered: ['\\brefund']}}
    document: "We can offer you a full REFUND."
    context: {"states": {"current": {}}, "closed_premises": ["refund-offered"]}

Satisfied::

    (same rule)
    document: "Your replacement ships tomorrow."
    context: {"states": {"current": {}}, "closed_premises": ["refund-offered"]}
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

from textcontract.model import Check, Kind, Status, Surface
from textcontract.rules._base import (
    PATTERN_TIMEOUT,
    SURFACE_MISSING,
    Code,
    Options,
    PatternRule,
    PatternTimeout,
    RuleHeader,
    pattern_name,
)
from textcontract.rules._params import (
    ACCENT_FOLDING,
    PREMISE_MAP,
    SURFACES,
    TIMEOUT_MS,
    VIEW_PARAMS,
    CompiledPattern,
    Param,
)
from textcontract.rules._subject import Subject
from textcontract.text import Budget

__all__ = ["SettledPremise"]


def _closed(subject: Subject) -> tuple[str, ...]:
    """Closed premise ids in context order; an id closed twice is one premise."""
    return tuple(dict.fromkeys(subject.context.closed_premises))


class SettledPremise(PatternRule):
    name = "SettledPremise"
    kind = Kind.HEURISTIC
    summary = "no surface re-offers a premise that the context lists as closed"
    params: ClassVar[tuple[Param, ...]] = (
        Param(
            "premises",
            PREMISE_MAP,
            "premise id → patterns that would offer it again (authored for normalized text)",
        ),
        SURFACES,
        ACCENT_FOLDING,
        TIMEOUT_MS,
        *VIEW_PARAMS,
    )
    codes: ClassVar[tuple[Code, ...]] = (
        Code.of(
            "SETTLED_PREMISE_REOFFER",
            "a surface does not reopen a closed premise (violated on a pattern match)",
            Status.SATISFIED,
            Status.VIOLATED,
        ),
        Code.of(
            "PREMISE_UNSUPPORTED",
            "the context closes a premise the rule has no patterns for",
            Status.UNDETERMINED,
        ),
        Code.of(
            "NO_CLOSED_PREMISES",
            "the context closes no premise, so there is nothing to re-offer",
            Status.SATISFIED,
        ),
        SURFACE_MISSING,
        PATTERN_TIMEOUT,
    )
    main_code = "SETTLED_PREMISE_REOFFER"

    def __init__(self, header: RuleHeader, options: Options) -> None:
        super().__init__(header, options)
        premises: Mapping[str, tuple[CompiledPattern, ...]] = options.raw("premises")
        self._premises = dict(premises)

    def searched_patterns(self) -> tuple[CompiledPattern, ...]:
        return tuple(pattern for patterns in self._premises.values() for pattern in patterns)

    def evaluate(self, subject: Subject) -> Iterator[Check]:
        closed = _closed(subject)
        if not closed:
            yield self.check(
                Status.SATISFIED,
                "NO_CLOSED_PREMISES",
                "$",
                "the context closes no premise; nothing can be re-offered",
            )
            return
        supported = self._supported(closed)
        # Searched surface by surface, so each surface's budget covers only its own searches;
        # emitted premise by premise, as SPEC §5 orders them.
        per_surface: list[list[Check]] = []
        if supported:
            for name, surface in self.surfaces(subject):
                if surface is None:
                    per_surface.append([self.missing_surface(name)] * len(supported))
                else:
                    per_surface.append(list(self.evaluate_surface(subject, surface)))
        index = 0
        for premise in closed:
            if premise not in self._premises:
                yield self.check(
                    Status.UNDETERMINED,
                    "PREMISE_UNSUPPORTED",
                    "$",
                    f"premise {premise!r} is closed, but the rule has no patterns for it",
                    evidence=[{"premise": premise}],
                )
                continue
            for checks in per_surface:
                yield checks[index]
            index += 1

    def evaluate_surface(self, subject: Subject, surface: Surface) -> Iterator[Check]:
        """One check per closed premise the rule has patterns for, in context order."""
        text = subject.normalized(surface, self.profile, self.view)
        chosen = self.candidates(subject, surface)
        budget = self.budget()  # started after normalization: the budget is for searching
        for premise, patterns in self._supported(_closed(subject)):
            # Only the patterns that can match are searched (the others cannot re-offer it).
            searched = self.pattern_list(patterns).select(chosen)
            yield self._search(subject, surface, text, premise, searched, budget)

    def _supported(self, closed: tuple[str, ...]) -> list[tuple[str, tuple[CompiledPattern, ...]]]:
        return [
            (premise, self._premises[premise]) for premise in closed if premise in self._premises
        ]

    def _search(
        self,
        subject: Subject,
        surface: Surface,
        text: str,
        premise: str,
        patterns: Sequence[CompiledPattern],
        budget: Budget,
    ) -> Check:
        try:
            found, total = self.search(patterns, text, budget)
        except PatternTimeout:
            return self.timeout(surface)
        scope = f"surface:{surface.name}"
        if not total:
            return self.check(
                Status.SATISFIED,
                "SETTLED_PREMISE_REOFFER",
                scope,
                f"does not re-offer the closed premise {premise!r}",
                evidence=[{"premise": premise}],
                metrics={"matches": 0},
            )
        evidence: list[dict[str, Any]] = [
            {"premise": premise, **item} for item in self.located(subject, surface, found)
        ]
        first = evidence[0]
        shown = pattern_name(first["pattern"], self._premises[premise], quote="/")
        return self.check(
            Status.VIOLATED,
            "SETTLED_PREMISE_REOFFER",
            scope,
            f"re-offers the closed premise {premise!r}: {first['match']!r} matches {shown}"
            + (f" ({total} matches)" if total > 1 else ""),
            evidence=evidence,
            metrics={"matches": total},
        )
