"""A case's plan: its baseline checked twice, each variant's eligibility, vacuous faults.

What the preflight (SPEC §17.3) knows of one case, computed where the case is first
read and validated. Eligibility here is the audit's own, in SPEC order: the label, an
invalid baseline, identical trials.

With ``audit --cache`` the first of the baseline's two check runs may take a rule's
result from the cache (an earlier run's); the second always runs every rule, so the
determinism check compares a fresh run with the first and never a cached result with
itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from textcontract.audit.reading import Case, Relation, Trial, Validity, Variant
from textcontract.audit.results import (
    CasePlan,
    CheckOutcome,
    ExcludedReason,
    ExpectedStatus,
    Labels,
    PlannedVariant,
    violation_trial,
)
from textcontract.audit.running._evaluation import (
    Judgement,
    TextMemo,
    check_trial,
    check_trial_cached,
)
from textcontract.audit.running._rule_cache import RuleResults
from textcontract.canonical import canonical_json
from textcontract.contract import ParsedContract
from textcontract.model import Severity

__all__ = ["exclusion", "label_exclusion", "labels", "plan_case"]


def labels(variant: Variant, severity: Severity) -> Labels:
    """A variant's labels as the report shows them (``severity`` resolved)."""
    return Labels(
        variant.relation,
        variant.probe_class,
        variant.family,
        severity,
        variant.canary,
        variant.expect,
        variant.exposure,
    )


def label_exclusion(variant: Variant) -> ExcludedReason | None:
    if variant.validity is Validity.EQUIVALENT:
        return ExcludedReason.EQUIVALENT
    if variant.validity is Validity.UNREVIEWED:
        return ExcludedReason.UNREVIEWED
    return None


def exclusion(
    case: Case, variant: Variant, built: Sequence[Trial], clean: bool
) -> ExcludedReason | None:
    """Why a variant is not counted, in SPEC order (label, invalid baseline, identical)."""
    reason = label_exclusion(variant)
    if reason is None and not clean:
        reason = ExcludedReason.INVALID_BASELINE
    if reason is None and all(trial.same_as(case.document, case.context) for trial in built):
        reason = ExcludedReason.IDENTICAL
    return reason


def _difference(first: Judgement, second: Judgement) -> str | None:
    """What first differs between two check runs of one baseline, or ``None``."""
    for index, (one, two) in enumerate(zip(first.checks, second.checks, strict=False)):
        if canonical_json(one.to_json()) != canonical_json(two.to_json()):
            return (
                f"check {index + 1} ({one.rule_id} {one.code} at {one.scope}) was "
                f"{one.status.value} on the first run and {two.status.value} "
                f"({two.code}) on the second"
            )
    if len(first.checks) != len(second.checks):
        return f"the first run gave {len(first.checks)} checks, the second {len(second.checks)}"
    return None


def _faults(
    variant: Variant, baseline: Judgement, rules: Mapping[str, Severity]
) -> tuple[CheckOutcome, ...]:
    """Per expectation of an eligible violation: is it already violated on the baseline?"""
    statuses = violation_trial(0, baseline, variant.expect).statuses
    return tuple(
        CheckOutcome.EXEMPT
        if expectation.rule not in rules
        else CheckOutcome.FAILED
        if status is ExpectedStatus.VIOLATED
        else CheckOutcome.SATISFIED
        for expectation, status in zip(variant.expect, statuses, strict=True)
    )


def plan_case(
    parsed: ParsedContract,
    case: Case,
    trials: Sequence[Sequence[Trial]],
    rules: Mapping[str, Severity],
    severity_of: Callable[[Variant], Severity],
    first_run: RuleResults | None = None,
) -> CasePlan:
    """Check the baseline twice (never a trial) and plan every variant of the case.

    ``first_run`` is where the first check run finds cached results; the second runs
    every rule.
    """
    memo = TextMemo()
    if first_run is None:
        first = check_trial(parsed, case.document, case.context, memo)
    else:
        first = check_trial_cached(parsed, case.document, case.context, memo, first_run)
    second = check_trial(parsed, case.document, case.context, memo)
    clean = first.accepted and first.complete
    planned = []
    for variant, built in zip(case.variants, trials, strict=True):
        reason = exclusion(case, variant, built, clean)
        faults: tuple[CheckOutcome, ...] = ()
        if reason is None and variant.relation is Relation.VIOLATION:
            faults = _faults(variant, first, rules)
        planned.append(
            PlannedVariant(
                variant.id, labels(variant, severity_of(variant)), len(built), reason, faults
            )
        )
    return CasePlan(
        case.id, _difference(first, second), first.accepted, first.complete, tuple(planned)
    )
