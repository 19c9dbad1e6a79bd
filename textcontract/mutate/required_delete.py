"""required-delete: the text a required pattern matches is removed from a surface.

For each surface a RequiredPattern rule reads: with ``match: any`` every match of every
pattern is cut (one variant); with ``match: all`` the matches of one pattern are cut (one
variant per pattern). Matches are found in the surface's normalized text, as the rule finds
them, and mapped back to the original characters that produced them; a space left doubled
by the cut goes with it. When cutting joins text into a new match, the new match is cut too
(three more rounds at most); a pattern whose matches are empty, or text whose normalized form
cannot be mapped back, is skipped.

Valid by construction: the output no longer says what the contract requires it to say (the
order number, the tracking link). Where it is not: a pattern looser than its intent (any
``#\\d{4,}`` for "the order number") may lose a match that was not the required mention.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

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
from textcontract.mutate._texts import TextMap
from textcontract.rules import CompiledPattern, PatternRule, RuleType
from textcontract.text import Budget, PatternTimeout, Profile, find_matches

__all__ = ["RequiredDelete", "delete_matches"]

_ROUNDS = 4
_CLOSERS = frozenset(" \t\n.,;:!?)]}")


def _cut(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` without the spans (merged), each with a space it would leave doubled; the
    kept pieces joined once. (A space before a span that a later cut also took is a
    closer, like the character after that cut, so each span reads ``text`` as it is.)"""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    kept: list[str] = []
    done = len(text)  # where the last cut so far starts
    for start, end in reversed(merged):
        if start > 0 and text[start - 1] == " " and (end == len(text) or text[end] in _CLOSERS):
            start -= 1
        kept.append(text[end:done])
        done = start
    kept.append(text[:done])
    return "".join(reversed(kept))


def _spans(
    text: str, patterns: tuple[CompiledPattern, ...], profile: Profile, timeout_ms: int
) -> list[tuple[int, int]] | str:
    mapped = TextMap.build(text, profile)
    if mapped is None:
        return "its normalized text cannot be mapped back to the original characters"
    spans = []
    for pattern in patterns:
        for found in find_matches(pattern.compiled, mapped.normalized, Budget(timeout_ms)):
            if found.end() == found.start():
                return f"pattern '{pattern.source}' matches empty text, which cannot be cut"
            spans.append(mapped.original_span(found.start(), found.end()))
    return spans


def delete_matches(
    text: str, patterns: tuple[CompiledPattern, ...], profile: Profile, timeout_ms: int
) -> str:
    """``text`` with every match of ``patterns`` cut; raises ``ValueError`` saying why not."""
    for _ in range(_ROUNDS):
        try:
            spans = _spans(text, patterns, profile, timeout_ms)
        except PatternTimeout:
            raise ValueError("a pattern search ran out of its time budget") from None
        if isinstance(spans, str):
            raise ValueError(spans)
        if not spans:
            return text
        text = _cut(text, spans)
    raise ValueError(f"cutting the matches kept forming new ones ({_ROUNDS} rounds)")


class RequiredDelete(Operator):
    name = "required-delete"
    probe_class = OperatorClass.DEFECT
    targets: ClassVar[tuple[str, ...]] = ("RequiredPattern",)
    summary = (
        "the text a required pattern matches is cut from a surface it reads: the output no "
        "longer says what the contract requires"
    )

    def generate(self, baseline: Baseline, chooser: Chooser) -> Iterator[Proposal]:
        del chooser  # every surface and pattern is used
        for entry in baseline.entries(self.targets):
            rule = entry.rule
            assert isinstance(rule, PatternRule)
            patterns = rule.options.patterns("patterns")
            groups = (
                [(f"pattern '{p.source}'", (p,)) for p in patterns]
                if rule.options.text("match") == "all"
                else [("every pattern", patterns)]
            )
            for surface in baseline.surfaces_read(rule):
                for label, group in groups:
                    yield _proposal(baseline, rule, surface, label, group)


def _proposal(
    baseline: Baseline,
    rule: RuleType,
    surface: Surface,
    label: str,
    patterns: tuple[CompiledPattern, ...],
) -> Proposal:
    assert isinstance(rule, PatternRule)
    try:
        cut = delete_matches(
            surface.text, patterns, rule.profile, rule.options.integer("timeout_ms")
        )
    except ValueError as why:
        return Skip(f"{rule.header.id} on surface {surface.name!r}: {why}")
    return Mutation(
        with_texts(baseline.document, {surface.name: cut}),
        baseline.context,
        f"cut from surface {surface.name!r}: the matches of {label}",
        (expected(rule, rule.main_code, f"surface:{surface.name}"),),
    )
