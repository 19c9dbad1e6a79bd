"""Running an audit: eligibility, evaluation, figures, the strength block and the verdict."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textcontract.audit._config import Thresholds
from textcontract.audit._corpus import Corpus, load_corpus
from textcontract.audit._evaluation import BaselineTask, Evaluator, VariantTask
from textcontract.audit._figures import (
    ExcludedReason,
    Outcome,
    ThresholdCheck,
    VariantVerdict,
    check_threshold,
    preserve_verdict,
    rate,
    violation_verdict,
)
from textcontract.audit._matching import CLEAN_CONTROL_ORACLE, TrialResult
from textcontract.audit._model import Case, Expectation, Relation, Validity, Variant
from textcontract.audit._report import build_report
from textcontract.errors import ExitCode
from textcontract.model import Severity
from textcontract.rules import Registry
from textcontract.strength import (
    CONTRACT_FORMAT_VERSION,
    CONTRACT_SCORING,
    CoverageGap,
    Probe,
    ProbeTrials,
    ScoringVersionInputs,
    StrengthResult,
    TrialOutcome,
    Verdict,
    VerdictValue,
    build_trial_records,
    reduce_trials,
    score_probes,
)

__all__ = [
    "AuditResult",
    "ExcludedRow",
    "Progress",
    "VariantRow",
    "audit_directory",
    "run_audit",
]

Progress = Callable[[int, int], None]
"""Called with (variants evaluated, variants to evaluate) as the audit advances."""


@dataclass(frozen=True)
class VariantRow:
    """One counted variant, as the report lists it."""

    case: str
    variant: str
    relation: Relation
    probe_class: str
    family: str
    severity: Severity
    canary: bool
    verdict: VariantVerdict
    expect: tuple[Expectation, ...]

    @property
    def probe_id(self) -> str:
        return f"{self.case}/{self.variant}"

    def to_json(self) -> dict[str, Any]:
        return {
            "case": self.case,
            "variant": self.variant,
            "relation": self.relation.value,
            "class": self.probe_class,
            "family": self.family,
            "severity": self.severity.value,
            "canary": self.canary,
            "outcome": self.verdict.outcome.value,
            "reason": self.verdict.reason,
            "expected": [
                {**expectation.to_json(), "status": status.value}
                for expectation, status in zip(self.expect, self.verdict.statuses, strict=True)
            ],
        }


@dataclass(frozen=True)
class ExcludedRow:
    """A variant left out of every figure, and why."""

    case: str
    variant: str
    family: str
    reason: ExcludedReason

    def to_json(self) -> dict[str, Any]:
        return {"case": self.case, "variant": self.variant, "reason": self.reason.value}


@dataclass(frozen=True)
class AuditResult:
    """The audit report and what the command needs to decide its exit code and side files."""

    report: dict[str, Any]
    strength: StrengthResult
    contract_digest: str
    thresholds: tuple[ThresholdCheck, ...]

    @property
    def verdict(self) -> Verdict:
        return self.strength.verdict

    @property
    def detection(self) -> float | None:
        value: float | None = self.report["detection"]["score"]
        return value

    @property
    def preservation(self) -> float | None:
        value: float | None = self.report["preservation"]["rate"]
        return value

    @property
    def passed(self) -> bool:
        """Every threshold met and the verdict is not FAIL (SPEC §8, exit 0)."""
        return self.verdict.value is not VerdictValue.FAIL and all(
            check.met for check in self.thresholds
        )

    @property
    def exit_code(self) -> ExitCode:
        return ExitCode.OK if self.passed else ExitCode.FAILED

    def artifacts(self) -> tuple[tuple[str, dict[str, Any]], ...]:
        """``(relative path, evidence artifact)`` per admitted probe: ``<case>/<variant>.json``."""
        return tuple(
            (f"{probe_id}.json", artifact)
            for probe_id, artifact in self.strength.evidence_artifacts()
        )

    def records(self) -> tuple[tuple[str, dict[str, Any]], ...]:
        """``(relative path, sealed record)``: ``<case>/<variant>/trial-<i>.json``."""
        return tuple(
            item
            for trials in self.strength.probes
            for item in build_trial_records(
                trials, self.strength.scoring_version, self.contract_digest
            )
        )


def _severity(corpus: Corpus, variant: Variant) -> Severity:
    """Declared, else the highest severity among the expected rules present, else medium."""
    if variant.severity is not None:
        return variant.severity
    rules = {entry.rule.header.id: entry.rule.header.severity for entry in corpus.contract.entries}
    present = [rules[e.rule] for e in variant.expect if e.rule in rules]
    return max(present, default=Severity.MEDIUM)


def _label_exclusion(variant: Variant) -> ExcludedReason | None:
    if variant.validity is Validity.EQUIVALENT:
        return ExcludedReason.EQUIVALENT
    if variant.validity is Validity.UNREVIEWED:
        return ExcludedReason.UNREVIEWED
    return None


def _probe_trials(
    case: Case, variant: Variant, severity: Severity, trials: tuple[TrialResult, ...]
) -> ProbeTrials:
    violation = variant.relation is Relation.VIOLATION
    oracle = variant.oracle if violation else CLEAN_CONTROL_ORACLE
    probe = Probe(
        probe_id=f"{case.id}/{variant.id}",
        probe_class=variant.probe_class,
        severity=severity,
        canary=variant.canary,
        clean_control=not violation,
    )
    return ProbeTrials(
        probe, tuple(TrialOutcome(trial.index, oracle, trial.state) for trial in trials)
    )


def _coverage_gaps(corpus: Corpus, rows: list[VariantRow]) -> tuple[CoverageGap, ...]:
    """Contract rules (in contract order) that no eligible, non-canary violation expects."""
    targeted = {
        expectation.rule
        for row in rows
        if row.relation is Relation.VIOLATION and not row.canary
        for expectation in row.expect
    }
    return tuple(
        CoverageGap(entry.rule.header.id, entry.rule.header.severity)
        for entry in corpus.contract.entries
        if entry.rule.header.id not in targeted
    )


def _families(rows: list[VariantRow], excluded: list[ExcludedRow]) -> dict[str, dict[str, int]]:
    """Per family, every variant's outcome counted (excluded ones as ``excluded``)."""
    order = [*(outcome.value for outcome in Outcome), "excluded"]
    counted = [(row.family, row.verdict.outcome.value) for row in rows]
    counted += [(row.family, "excluded") for row in excluded]
    counts: dict[str, dict[str, int]] = {}
    for family, outcome in counted:
        found = counts.setdefault(family, {})
        found[outcome] = found.get(outcome, 0) + 1
    return {
        family: {name: counts[family][name] for name in order if counts[family].get(name)}
        for family in sorted(counts)
    }


@dataclass(frozen=True)
class _Slot:
    """A variant in report order: excluded with a reason, or waiting for its results."""

    case: Case
    variant: Variant
    excluded: ExcludedReason | None


def _slots(corpus: Corpus, evaluator: Evaluator) -> list[_Slot]:
    """Eligibility in SPEC order: label, then invalid baseline, then identical."""
    labelled = [
        (case, variant, _label_exclusion(variant))
        for case in corpus.cases
        for variant in case.variants
    ]
    needed = [
        case
        for case in corpus.cases
        if any(variant.validity is Validity.VALID for variant in case.variants)
    ]
    valid_baseline = dict(
        zip(
            (case.id for case in needed),
            evaluator.baselines(BaselineTask(case.document, case.context) for case in needed),
            strict=True,
        )
    )
    slots = []
    for case, variant, reason in labelled:
        if reason is None and not valid_baseline[case.id]:
            reason = ExcludedReason.INVALID_BASELINE
        if reason is None and (case.id, variant.id) in corpus.identical:
            reason = ExcludedReason.IDENTICAL
        slots.append(_Slot(case, variant, reason))
    return slots


def _evaluate(
    evaluator: Evaluator, slots: list[_Slot], progress: Progress | None
) -> Iterator[tuple[_Slot, tuple[TrialResult, ...]]]:
    eligible = [slot for slot in slots if slot.excluded is None]
    tasks = (
        VariantTask(
            slot.variant.relation,
            slot.variant.expect,
            slot.case.document,
            slot.case.context,
            slot.variant.trials,
        )
        for slot in eligible
    )
    for done, (slot, results) in enumerate(
        zip(eligible, evaluator.variants(tasks), strict=True), start=1
    ):
        if progress is not None:
            progress(done, len(eligible))
        yield slot, results


def run_audit(
    corpus: Corpus,
    *,
    jobs: int = 1,
    thresholds: Thresholds | None = None,
    progress: Progress | None = None,
) -> AuditResult:
    """Evaluate every eligible variant of a loaded corpus and build the audit report.

    ``thresholds`` replaces audit.yaml's (the CLI merges its flags first). The
    result is the same, byte for byte, whatever ``jobs`` is.
    """
    policy = corpus.policy
    rows: list[VariantRow] = []
    excluded: list[ExcludedRow] = []
    admitted: list[ProbeTrials] = []
    with Evaluator(corpus.contract, jobs, corpus.contract_path) as evaluator:
        slots = _slots(corpus, evaluator)
        results = _evaluate(evaluator, slots, progress)
        for slot in slots:
            case, variant = slot.case, slot.variant
            if slot.excluded is not None:
                excluded.append(ExcludedRow(case.id, variant.id, variant.family, slot.excluded))
                continue
            evaluated, trials = next(results)
            assert evaluated is slot
            severity = _severity(corpus, variant)
            probe = _probe_trials(case, variant, severity, trials)
            admitted.append(probe)
            if variant.relation is Relation.VIOLATION:
                verdict = violation_verdict(trials, reduce_trials(probe, policy.catch_threshold))
            else:
                verdict = preserve_verdict(trials)
            rows.append(
                VariantRow(
                    case=case.id,
                    variant=variant.id,
                    relation=variant.relation,
                    probe_class=variant.probe_class.value,
                    family=variant.family,
                    severity=severity,
                    canary=variant.canary,
                    verdict=verdict,
                    expect=variant.expect,
                )
            )
    gaps = _coverage_gaps(corpus, rows)
    inputs = ScoringVersionInputs(
        contract_format_version=CONTRACT_FORMAT_VERSION,
        corpus_digest=corpus.digest,
        fixture_digest=corpus.fixture_digest,
        evaluator_configuration_digest=corpus.contract.digest,
        scoring_policy_digest=policy.digest,
        mode=CONTRACT_SCORING,
    )
    strength = score_probes(admitted, policy, inputs, gaps)
    faults = [r for r in rows if r.relation is Relation.VIOLATION and not r.canary]
    canaries = [r for r in rows if r.relation is Relation.VIOLATION and r.canary]
    controls = [r for r in rows if r.relation is Relation.PRESERVE]
    detection = rate(sum(1 for r in faults if r.verdict.outcome is Outcome.DETECTED), len(faults))
    preservation = rate(
        sum(1 for r in controls if r.verdict.outcome is Outcome.PRESERVED), len(controls)
    )
    caught_canaries = sum(1 for r in canaries if r.verdict.outcome is Outcome.DETECTED)
    report = build_report(
        corpus=corpus,
        detection=detection,
        preservation=preservation,
        canaries=(caught_canaries, len(canaries)),
        strength=strength,
        gaps=gaps,
        families=_families(rows, excluded),
        variants=[row.to_json() for row in rows],
        excluded=[row.to_json() for row in excluded],
    )
    chosen = thresholds if thresholds is not None else corpus.thresholds
    checks = tuple(
        check
        for check in (
            check_threshold("detection", chosen.detection, detection.value),
            check_threshold("preservation", chosen.preservation, preservation.value),
        )
        if check is not None
    )
    return AuditResult(report, strength, corpus.contract.digest, checks)


def audit_directory(
    directory: Path | str,
    *,
    contract: Path | str | None = None,
    jobs: int = 1,
    allow_missing_rules: bool = False,
    detection: float | None = None,
    preservation: float | None = None,
    registry: Registry | None = None,
    progress: Progress | None = None,
) -> AuditResult:
    """Load the corpus in ``directory`` and audit it (the library form of ``textcontract audit``).

    ``detection`` / ``preservation`` override the thresholds of audit.yaml.
    """
    corpus = load_corpus(
        Path(directory),
        display=str(directory),
        contract=None if contract is None else Path(contract),
        allow_missing_rules=allow_missing_rules,
        registry=registry,
    )
    return run_audit(
        corpus,
        jobs=jobs,
        thresholds=corpus.thresholds.overridden(detection, preservation),
        progress=progress,
    )
