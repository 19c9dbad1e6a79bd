"""``compare``: the four-valued dominance relation between two scored measurements."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from textcontract.errors import InputError, Problem
from textcontract.strength._consistency import ClaimedScoring
from textcontract.strength._evidence import parse_scored
from textcontract.strength._states import ProbeClass
from textcontract.strength._vector import ClassStrength

__all__ = ["Relation", "compare", "compare_claims"]


class Relation(StrEnum):
    A_DOMINATES_B = "a-dominates-b"
    B_DOMINATES_A = "b-dominates-a"
    EQUIVALENT = "equivalent"
    INCOMPARABLE = "incomparable"


def _fraction(component: ClassStrength) -> str:
    return f"{component.caught}/{component.exercised}"


def _result(relation: Relation, reasons: list[str]) -> dict[str, Any]:
    return {"relation": relation.value, "reasons": reasons}


def _gates(
    a: ClaimedScoring, b: ClaimedScoring, a_faults: list[str], b_faults: list[str]
) -> list[str]:
    """Reasons from the first gate that fails, or nothing when all three pass."""
    if a.comparability_key != b.comparability_key:
        return ["comparability-key-differs"]
    not_comparable = [
        f"not-comparable: {side}"
        for side, claims in (("a", a), ("b", b))
        if not claims.vector.comparable
    ]
    if not_comparable:
        return not_comparable
    return [
        f"does-not-recompute: {side} ({faults[0]})"
        for side, faults in (("a", a_faults), ("b", b_faults))
        if faults
    ]


def _override(favoured: ClaimedScoring, other: ClaimedScoring, names: tuple[str, str]) -> list[str]:
    """Probes at/above the floor the other side caught and the favoured side did not."""
    floor = favoured.policy.severity_floor
    reasons = []
    for theirs in sorted(other.probes, key=lambda claimed: claimed.probe_id):
        if not (theirs.eligible and theirs.reduced.caught):
            continue
        mine = favoured.probe(theirs.probe_id)
        if mine is not None and mine.reduced.caught:
            continue
        severity = theirs.trials.probe.severity
        if mine is not None:
            severity = max(severity, mine.trials.probe.severity)
        if severity >= floor:
            reasons.append(
                f"severity-floor-override: {theirs.probe_id} ({severity.value}; caught in"
                f" {names[1]}, not in {names[0]})"
            )
    return reasons


def compare_claims(
    a: ClaimedScoring, b: ClaimedScoring, a_faults: list[str], b_faults: list[str]
) -> dict[str, Any]:
    """The relation of two parsed measurements; ``*_faults`` are what does not recompute."""
    gate_reasons = _gates(a, b, a_faults, b_faults)
    if gate_reasons:
        return _result(Relation.INCOMPARABLE, gate_reasons)
    reasons: list[str] = []
    contributing = 0
    identical = True
    a_wins = b_wins = False
    for probe_class in ProbeClass:
        mine, theirs = a.vector[probe_class], b.vector[probe_class]
        name = probe_class.value
        if mine.rate is None or theirs.rate is None:
            missing = " and ".join(
                side for side, c in (("a", mine), ("b", theirs)) if c.rate is None
            )
            reasons.append(f"not-contributing: {name} (no exercised probe in {missing})")
            continue
        contributing += 1
        counts = f"{_fraction(mine)} vs {_fraction(theirs)}"
        if (mine.caught, mine.exercised) == (theirs.caught, theirs.exercised):
            reasons.append(f"same-counts: {name} ({_fraction(mine)})")
            continue
        identical = False
        if mine.rate > theirs.rate:
            a_wins = True
            reasons.append(f"higher-in-a: {name} ({counts})")
        elif mine.rate < theirs.rate:
            b_wins = True
            reasons.append(f"higher-in-b: {name} ({counts})")
        else:
            reasons.append(f"equal-rate-different-counts: {name} ({counts})")
    if contributing == 0:
        return _result(Relation.INCOMPARABLE, ["no-contributing-class", *reasons])
    if identical:
        return _result(Relation.EQUIVALENT, reasons)
    if a_wins and not b_wins:
        override = _override(a, b, ("a", "b"))
        relation = Relation.INCOMPARABLE if override else Relation.A_DOMINATES_B
        return _result(relation, reasons + override)
    if b_wins and not a_wins:
        override = _override(b, a, ("b", "a"))
        relation = Relation.INCOMPARABLE if override else Relation.B_DOMINATES_A
        return _result(relation, reasons + override)
    return _result(Relation.INCOMPARABLE, reasons)


def compare(a: tuple[str, Any], b: tuple[str, Any]) -> dict[str, Any]:
    """Compare two ``(display name, parsed JSON)`` artifacts or audit reports.

    Each side may be either kind. A malformed file is an :class:`InputError`; one that
    contradicts itself is not an error here: it makes the relation ``incomparable``.
    """
    parsed = []
    problems: list[Problem] = []
    for name, value in (a, b):
        try:
            parsed.append(parse_scored(value, name))
        except InputError as error:
            problems.extend(error.problems)
    if problems:
        raise InputError(problems)
    (a_claims, a_faults), (b_claims, b_faults) = parsed
    return compare_claims(a_claims, b_claims, list(a_faults), list(b_faults))
