"""The preflight pass (SPEC §17.3): baselines only, never a trial.

Each validated case is read again (its fingerprint checked), its baseline checked
twice, and its variants planned: eligibility as the audit decides it, and for every
expectation of an eligible violation whether the baseline already violates it. The
result is a :class:`~textcontract.audit.results.Preflight`; ``audit`` runs it first and
stops when it failed, and ``textcontract preflight`` prints it.
"""

from __future__ import annotations

from dataclasses import dataclass

from textcontract.audit.reading import Case, Relation, Trial, Variant
from textcontract.audit.results import (
    CasePlan,
    CheckOutcome,
    ExpectedStatus,
    PlannedVariant,
    Preflight,
    violation_trial,
)
from textcontract.audit.running._case_passes import (
    CaseEntry,
    CaseWork,
    exclusion,
    labels_of,
    read_checked,
)
from textcontract.audit.running._corpus import Corpus, CorpusDigest
from textcontract.audit.running._evaluation import Judgement, TextMemo, check_trial
from textcontract.audit.running._pool import Pool
from textcontract.canonical import canonical_json, digest
from textcontract.errors import ExitCode, TextcontractError

__all__ = ["PreflightFailed", "preflight_case", "run_preflight"]

_PREFLIGHT_BATCH = 8
"""Cases per batch sent to a worker: a baseline checked twice each."""


class PreflightFailed(TextcontractError):
    """The audit stops before any trial: its preflight verdict failed (exit 5)."""

    exit_code = ExitCode.INVALID

    def __init__(self, preflight: Preflight) -> None:
        self.preflight = preflight
        failed = [check["subject"] for check in preflight.checks() if check["outcome"] == "failed"]
        shown = ", ".join(failed[:3]) + (f" and {len(failed) - 3} more" if len(failed) > 3 else "")
        super().__init__(f"preflight failed: {shown}")


@dataclass(frozen=True)
class CasePreflight:
    """What the preflight of one case gives back: its plan and its parts of the digests."""

    plan: CasePlan
    item: bytes
    baseline_digest: str


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


def _faults(work: CaseWork, variant: Variant, baseline: Judgement) -> tuple[CheckOutcome, ...]:
    """Per expectation of an eligible violation: already violated on the baseline?"""
    statuses = violation_trial(0, baseline, variant.expect).statuses
    rules = work.setup.rules or {}
    return tuple(
        CheckOutcome.EXEMPT
        if expectation.rule not in rules
        else CheckOutcome.FAILED
        if status is ExpectedStatus.VIOLATED
        else CheckOutcome.SATISFIED
        for expectation, status in zip(variant.expect, statuses, strict=True)
    )


def _planned(
    work: CaseWork, case: Case, trials: list[list[Trial]], baseline: Judgement
) -> tuple[PlannedVariant, ...]:
    clean = baseline.accepted and baseline.complete
    planned = []
    for variant, built in zip(case.variants, trials, strict=True):
        reason = exclusion(case, variant, built, clean)
        faults: tuple[CheckOutcome, ...] = ()
        if reason is None and variant.relation is Relation.VIOLATION:
            faults = _faults(work, variant, baseline)
        planned.append(
            PlannedVariant(variant.id, labels_of(work, variant), len(built), reason, faults)
        )
    return tuple(planned)


def preflight_case(work: CaseWork, entry: CaseEntry) -> CasePreflight:
    """One validated case: its baseline checked twice, its variants planned."""
    case, trials, item = read_checked(work, entry)
    memo = TextMemo()
    first = check_trial(work.parsed, case.document, case.context, memo)
    second = check_trial(work.parsed, case.document, case.context, memo)
    plan = CasePlan(
        case.id,
        _difference(first, second),
        first.accepted,
        first.complete,
        _planned(work, case, trials, first),
    )
    return CasePreflight(plan, item, case.baseline_digest)


def run_preflight(pool: Pool[CaseWork], corpus: Corpus, mode: str) -> Preflight:
    """The preflight of a loaded corpus, its cases checked in ``pool`` (started if need be)."""
    pool.start(len(corpus.entries))
    plans: list[CasePlan] = []
    baselines: list[str] = []
    streamed = CorpusDigest()
    entries = corpus.entries
    found = pool.map(preflight_case, entries, _PREFLIGHT_BATCH, corpus.work(), corpus.worker_setup)
    for outcome in found:
        plans.append(outcome.plan)
        baselines.append(outcome.baseline_digest)
        streamed.add(outcome.item)
    return Preflight(
        contract=corpus.contract.ref,
        corpus_digest=streamed.hexdigest(),
        fixture_digest=digest(sorted(baselines)),
        policy_digest=corpus.policy.digest,
        mode=mode,
        cases=tuple(plans),
    )
