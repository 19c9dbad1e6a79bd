"""``compare``: the four-valued dominance relation between two scored measurements."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from textcontract.errors import InputError, Problem
from textcontract.strength._consistency import ClaimedScoring
from textcontract.strength._evidence import Scored, parse_scored
from textcontract.strength._recorded_engine import engine_caveats
from textcontract.strength._states import ProbeClass
from textcontract.strength._vector import ClassStrength

__all__ = ["Relation", "compare", "compare_claims", "compare_scored"]


class Relation(StrEnum):
    A_DOMINATES_B = "a-dominates-b"
    B_DOMINATES_A = "b-dominates-a"
    EQUIVALENT = "equivalent"
    INCOMPARABLE = "incomparable"


def _fraction(component: ClassStrength) -> str:
    return f"{component.caught}/{component.exercised}"


def _result(relation: Relation, reasons: list[str]) -> dict[str, Any]:
    return {"relation": relation.value, "reasons": reasons}


def _self_faults(side: str, scored: Scored) -> list[str]:
    if scored.integrity:
        return [f"integrity: {side} ({scored.integrity[0]})"]
    if scored.faults:
        return [f"does-not-recompute: {side} ({scored.faults[0]})"]
    return []


def _gates(a_side: Scored, b_side: Scored) -> list[str]:
    """Reasons from the first gate that fails, or nothing when all four pass."""
    if a_side.mode != b_side.mode:
        return ["mode-differs"]
    a, b = a_side.claims, b_side.claims
    if a.comparability_key != b.comparability_key:
        return ["comparability-key-differs"]
    not_comparable = [
        f"not-comparable: {side}"
        for side, claims in (("a", a), ("b", b))
        if not claims.vector.comparable
    ]
    if not_comparable:
        return not_comparable
    return _self_faults("a", a_side) + _self_faults("b", b_side)


def _lineage(a: Scored, b: Scored) -> list[str]:
    """The informative lineage reason of two audit reports (SPEC §17.7)."""
    if b.parent_digest is not None and b.parent_digest == a.contract_digest:
        return [f"lineage: b revises a (revision {b.revision_count})"]
    if a.parent_digest is not None and a.parent_digest == b.contract_digest:
        return [f"lineage: a revises b (revision {a.revision_count})"]
    return []


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


def compare_scored(a_side: Scored, b_side: Scored) -> dict[str, Any]:
    """The relation of two parsed measurements, with the informative lineage reason last,
    and the caveats their recorded engines raise (SPEC §20: comparable, but said)."""
    found = compare_claims(a_side, b_side)
    found["reasons"] += _lineage(a_side, b_side)
    found["caveats"] = engine_caveats([a_side.engine, b_side.engine])
    return found


def compare_claims(a_side: Scored, b_side: Scored) -> dict[str, Any]:
    """The relation of two parsed measurements (gates, classes, severity-floor override)."""
    gate_reasons = _gates(a_side, b_side)
    if gate_reasons:
        return _result(Relation.INCOMPARABLE, gate_reasons)
    a, b = a_side.claims, b_side.claims
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
    return compare_scored(parsed[0], parsed[1])
