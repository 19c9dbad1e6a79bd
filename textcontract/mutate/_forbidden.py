"""Texts a pattern rule forbids: the rule's own ``examples.violated``, else derived literals.

Shared by ``forbidden-inject``, ``forbidden-disguise`` and ``code-wrap``. For a
ForbiddenPattern rule the contract author's violated examples come first (they are what the
author calls a violation, and ``textcontract test`` holds them against the rule); without
examples, each pattern gives the text :func:`matching_text` builds for it. For
SettledPremise, only premises the context closes can be re-offered; each of their patterns
gives a derived text.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from textcontract.contract import RuleEntry
from textcontract.model import Context, Surface
from textcontract.mutate._base import Skip
from textcontract.mutate._choice import Chooser
from textcontract.mutate._pattern_text import matching_text
from textcontract.rules import CompiledPattern, PatternRule

__all__ = ["FORBIDDING_TYPES", "ForbiddenText", "forbidden_texts", "spread_texts"]

FORBIDDING_TYPES = ("ForbiddenPattern", "SettledPremise")


@dataclass(frozen=True)
class ForbiddenText:
    """A text the rule forbids and where it came from (for the variant's description)."""

    text: str
    origin: str


def _derived(
    patterns: tuple[CompiledPattern, ...], rule: PatternRule, chooser: Chooser, label: str
) -> Iterator[ForbiddenText]:
    for index, pattern in enumerate(patterns):
        text = matching_text(
            pattern.source, pattern.compiled, rule.profile, chooser, rule.header.id, label, index
        )
        if text is not None:
            yield ForbiddenText(text, f"a text pattern '{pattern.source}' matches")


def _premise_texts(
    rule: PatternRule, context: Context, chooser: Chooser
) -> list[ForbiddenText] | Skip:
    premises: dict[str, tuple[CompiledPattern, ...]] = dict(rule.options.raw("premises"))
    closed = [premise for premise in context.closed_premises if premise in premises]
    if not closed:
        return Skip(f"{rule.header.id}: the context closes no premise the rule has patterns for")
    found = [
        ForbiddenText(item.text, f"premise {premise!r}: {item.origin}")
        for premise in closed
        for item in _derived(premises[premise], rule, chooser, premise)
    ]
    if not found:
        return Skip(f"{rule.header.id}: no pattern of a closed premise yields a matching text")
    return found


def forbidden_texts(
    entry: RuleEntry, context: Context, chooser: Chooser
) -> list[ForbiddenText] | Skip:
    """The texts to plant for one rule, or why there are none."""
    rule = entry.rule
    assert isinstance(rule, PatternRule)
    if rule.header.type == "SettledPremise":
        return _premise_texts(rule, context, chooser)
    examples = [
        ForbiddenText(example.text, f"examples.violated[{index}] of the rule")
        for index, example in enumerate(entry.violated_examples)
        if example.text.strip()
    ]
    if examples:
        return examples
    derived = list(_derived(rule.options.patterns("patterns"), rule, chooser, "patterns"))
    if not derived:
        return Skip(
            f"{rule.header.id}: no violated examples, and no pattern yields a text it matches "
            "(the pattern reader gives up on its syntax, or every built text fails to match)"
        )
    return derived


def spread_texts(
    entry: RuleEntry, surfaces: Sequence[Surface], context: Context, chooser: Chooser
) -> list[tuple[int, ForbiddenText, Surface]] | Skip:
    """The rule's texts, each with its index and the surface it goes on: in turn over
    ``surfaces`` from a seeded first one (or why there are none)."""
    texts = forbidden_texts(entry, context, chooser)
    if isinstance(texts, Skip):
        return texts
    first = chooser.index(len(surfaces), entry.rule.header.id, "surface")
    return [
        (index, item, surfaces[(first + index) % len(surfaces)]) for index, item in enumerate(texts)
    ]
