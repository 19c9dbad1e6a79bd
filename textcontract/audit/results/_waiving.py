"""Waivers applied to a case's records (SPEC §17.4), after its trials were evaluated.

An audit evaluates, then waives: a case's records are computed (or found in the cache)
without any waiver, and the waivers in force on the audit's date are applied to them
here. So what is evaluated, and what the cache keeps, never depends on ``--as-of``.

Waiving a violation turns each ``missed`` trial into ``not-applicable`` naming the
waiver, and reduces the trials again. Its verdict follows from the unwaived one:
waiving removes only missed votes, so a detected variant stays detected (with the
statuses of its first trial, unchanged), and an undetected one keeps its first trial
that was not caught — whose reason becomes ``waived`` when that trial was missed. An
undetected variant that waiving makes detected reports its first trial's statuses:
those of the first non-caught trial when that is trial 0, else every expectation
violated (a trial is caught exactly when every expectation is violated).
"""

from __future__ import annotations

from datetime import date

from textcontract.audit.reading import Relation
from textcontract.audit.results._figures import WAIVED, Outcome, VariantVerdict
from textcontract.audit.results._matching import ExpectedStatus
from textcontract.audit.results._strength import probe_trials
from textcontract.audit.results._variant_records import CaseRecord, Counted, Labels, VariantRecord
from textcontract.strength import OutcomeState, Waiver, covering_waiver, reduce_trials

__all__ = ["waive_counted", "waive_record"]


def _verdict(counted: Counted, caught: bool, expected: int) -> VariantVerdict:
    verdict = counted.verdict
    if verdict.outcome is Outcome.DETECTED:
        return verdict
    states = counted.states
    first = next(i for i, state in enumerate(states) if state is not OutcomeState.CAUGHT)
    if caught:
        statuses = verdict.statuses if first == 0 else (ExpectedStatus.VIOLATED,) * expected
        return VariantVerdict(Outcome.DETECTED, None, statuses)
    reason = WAIVED if states[first] is OutcomeState.MISSED else verdict.reason
    return VariantVerdict(Outcome.UNDETECTED, reason, verdict.statuses)


def waive_counted(labels: Labels, counted: Counted, waiver: str, catch_threshold: float) -> Counted:
    """An evaluated violation with its missed trials waived by ``waiver``."""
    states = counted.states
    if OutcomeState.MISSED not in states:
        return counted
    waived = tuple(
        OutcomeState.NOT_APPLICABLE if state is OutcomeState.MISSED else state for state in states
    )
    named = tuple(waiver if state is OutcomeState.MISSED else None for state in states)
    reduced = reduce_trials(probe_trials("", labels, waived, named), catch_threshold)
    return Counted(_verdict(counted, reduced.caught, len(labels.expect)), waived, named)


def waive_record(
    record: CaseRecord, waivers: tuple[Waiver, ...], as_of: date, catch_threshold: float
) -> CaseRecord:
    """A case's records with every in-force waiver applied (the lowest id when several
    cover a probe); canaries and controls are never waived."""
    variants = []
    changed = False
    for variant in record.variants:
        labels, result = variant.labels, variant.result
        if (
            isinstance(result, Counted)
            and labels.relation is Relation.VIOLATION
            and not labels.canary
        ):
            rules = [expectation.rule for expectation in labels.expect]
            found = covering_waiver(waivers, f"{record.case}/{variant.variant}", rules, as_of)
            if found is not None:
                waived = waive_counted(labels, result, found.id, catch_threshold)
                changed = changed or waived is not result
                variant = VariantRecord(variant.variant, labels, waived)
        variants.append(variant)
    return CaseRecord(record.case, variants) if changed else record
