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
from functools import partial
from typing import NamedTuple

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
from textcontract.model import Context, Document, Severity

__all__ = ["Outline", "exclusion", "label_exclusion", "labels", "plan_case", "plan_outline"]


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
    return _excluded(
        variant,
        clean,
        lambda: all(trial.same_as(case.document, case.context) for trial in built),
    )


def _excluded(
    variant: Variant, clean: bool, identical: Callable[[], bool]
) -> ExcludedReason | None:
    """:func:`exclusion` with "every trial equals the baseline" asked of ``identical``
    (only when neither the label nor the baseline excludes the variant)."""
    reason = label_exclusion(variant)
    if reason is None and not clean:
        reason = ExcludedReason.INVALID_BASELINE
    if reason is None and identical():
        reason = ExcludedReason.IDENTICAL
    return reason


def _difference(first: Judgement, second: Judgement) -> str | None:
    """What first differs between two check runs of one baseline, or ``None``."""
    # two lists have one canonical form exactly when their items pairwise do
    if canonical_json([one.to_json() for one in first.checks]) == canonical_json(
        [two.to_json() for two in second.checks]
    ):
        return None
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


class Outline(NamedTuple):
    """What planning needs of a case besides its baseline: its variants (their trials
    need not be built), each one's trial count, and whether its trials all equal the
    baseline (asked only of variants neither label nor baseline excludes)."""

    case: str
    variants: Sequence[Variant]
    trials: Sequence[int]
    identical: Callable[[int], bool]


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

    def identical(index: int) -> bool:
        return all(trial.same_as(case.document, case.context) for trial in trials[index])

    outline = Outline(case.id, case.variants, [len(built) for built in trials], identical)
    return plan_outline(parsed, outline, case.document, case.context, rules, severity_of, first_run)


def plan_outline(
    parsed: ParsedContract,
    outline: Outline,
    document: Document,
    context: Context,
    rules: Mapping[str, Severity],
    severity_of: Callable[[Variant], Severity],
    first_run: RuleResults | None = None,
) -> CasePlan:
    """:func:`plan_case` of a case given by its baseline and its :class:`Outline`."""
    memo = TextMemo()
    if first_run is None:
        first = check_trial(parsed, document, context, memo)
    else:
        first = check_trial_cached(parsed, document, context, memo, first_run)
    second = check_trial(parsed, document, context, memo)
    clean = first.accepted and first.complete
    planned = []
    for index, variant in enumerate(outline.variants):
        reason = _excluded(variant, clean, partial(outline.identical, index))
        faults: tuple[CheckOutcome, ...] = ()
        if reason is None and variant.relation is Relation.VIOLATION:
            faults = _faults(variant, first, rules)
        planned.append(
            PlannedVariant(
                variant.id,
                labels(variant, severity_of(variant)),
                outline.trials[index],
                reason,
                faults,
            )
        )
    return CasePlan(
        outline.case, _difference(first, second), first.accepted, first.complete, tuple(planned)
    )
