"""Waivers of audit.yaml checked against the corpus and the contract (SPEC §17.4).

:func:`textcontract.strength.read_waivers` reads the list (fields, dates, unique ids);
what only the audit knows — which probes the corpus has and what they are, which rules
the contract has — is checked here, each problem at the place the waiver names it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from textcontract.errors import Problem
from textcontract.fields import did_you_mean
from textcontract.strength import ProbeRole, Waiver

__all__ = ["waived_probe_ids", "waiver_problems"]


def waived_probe_ids(waivers: Sequence[Waiver]) -> frozenset[str]:
    """Every probe id a waiver names (the first pass reports what each of them is)."""
    return frozenset(probe for waiver in waivers for probe in waiver.probes)


def _probe_problem(waiver: Waiver, probe: str, roles: Mapping[str, ProbeRole]) -> str | None:
    role = roles.get(probe)
    if role is None:
        return f"waiver {waiver.id!r}: the corpus has no probe {probe!r}"
    if role is ProbeRole.CANARY:
        return f"waiver {waiver.id!r}: {probe!r} is a canary; only eligible probes are waivable"
    if role is ProbeRole.CLEAN_CONTROL:
        return (
            f"waiver {waiver.id!r}: {probe!r} is a clean control (a preserve variant); "
            "only eligible probes are waivable"
        )
    return None


def waiver_problems(
    waivers: Sequence[Waiver],
    rules: Collection[str],
    roles: Mapping[str, ProbeRole] | None,
) -> list[Problem]:
    """Probe ids the corpus lacks or that name a canary or control, and unknown rule ids.

    ``roles`` holds what each probe id named by a waiver is in the corpus (absent ids
    are not in the corpus); ``None`` when some case file could not be read, so that a
    probe is not reported missing only because its file is broken.
    """
    problems: list[Problem] = []
    rule_ids = sorted(rules)
    for waiver in waivers:
        for probe, location in zip(waiver.probes, waiver.probe_locations, strict=True):
            message = None if roles is None else _probe_problem(waiver, probe, roles)
            if message is not None:
                problems.append(Problem(message, location))
        for rule, location in zip(waiver.rules, waiver.rule_locations, strict=True):
            if rule not in rules:
                problems.append(
                    Problem(
                        f"waiver {waiver.id!r}: the contract has no rule {rule!r}",
                        location,
                        did_you_mean(rule, rule_ids),
                    )
                )
    return problems
