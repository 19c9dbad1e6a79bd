"""The claims a DeclaredClaimsConsistent rule compares, for the claim operators."""

from __future__ import annotations

from collections.abc import Iterator

from textcontract.model import FactValue, Surface
from textcontract.mutate._base import Baseline, Expected, expected
from textcontract.rules import RuleType

__all__ = ["CLAIMS_TYPES", "claimed", "mismatch"]

CLAIMS_TYPES = ("DeclaredClaimsConsistent",)


def claimed(baseline: Baseline, rule: RuleType) -> Iterator[tuple[Surface, str, FactValue]]:
    """``(surface, key, value)`` for every claim the rule checks, in surface and claim order."""
    keys = rule.options.strings("keys")
    for surface in baseline.surfaces_read(rule):
        for key, value in surface.claims.items():
            if keys is None or key in keys:
                yield surface, key, value


def mismatch(rule: RuleType, surface: Surface) -> Expected:
    return expected(rule, "CLAIM_STATE_MISMATCH", f"surface:{surface.name}")
