"""The length rules the zero-action operators aim at: who asks for at least some words."""

from __future__ import annotations

from collections.abc import Iterator

from textcontract.model import Surface
from textcontract.mutate._base import Baseline, Expected, Skip, expected
from textcontract.rules import RuleType

__all__ = ["LENGTH_TYPES", "length_targets"]

LENGTH_TYPES = ("MinimumTokens", "TokenRange")


def _floor_problem(rule: RuleType) -> str | None:
    """Why a rule asks for no minimum length at all (``None`` when it does)."""
    options = rule.options
    if rule.header.type == "TokenRange":
        if not options.raw("min"):
            return "it bounds the length from above only"
        return None
    if options.integer("minimum") == 0 and options.integer("minimum_unique") == 0:
        return "it requires no token at all"
    return None


def length_targets(
    baseline: Baseline,
) -> Iterator[tuple[RuleType, Surface, Expected] | Skip]:
    """``(rule, surface, expectation)`` per length rule and surface it reads, or a skip."""
    for entry in baseline.entries(LENGTH_TYPES):
        rule = entry.rule
        problem = _floor_problem(rule)
        if problem is not None:
            yield Skip(f"{rule.header.id}: {problem}")
            continue
        for surface in baseline.surfaces_read(rule):
            yield rule, surface, expected(rule, rule.main_code, f"surface:{surface.name}")
