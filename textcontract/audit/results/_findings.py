"""Everything an audit found, summed up from the per-variant records.

:func:`summarize` walks the records twice — in report order for the figures,
families and coverage, in probe-id order for the strength block — and keeps the
records themselves for the lists the report shows (rows, probes), which are
produced one at a time when the report is built or written.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from textcontract.audit.reading import Expectation, Relation
from textcontract.audit.results._figures import (
    ExcludedReason,
    Outcome,
    Rate,
    VariantVerdict,
    rate,
)
from textcontract.audit.results._strength import StrengthTally
from textcontract.audit.results._variant_records import CaseRecord, Counted, Labels
from textcontract.contract import Lineage, ParsedContract
from textcontract.model import RuleVersion, Severity
from textcontract.strength import (
    CONTRACT_FORMAT_VERSION,
    CONTRACT_SCORING,
    CoverageGap,
    Exposure,
    Recommendation,
    RunEvidence,
    ScoringPolicy,
    ScoringVersionInputs,
    StrengthVector,
    Verdict,
)

__all__ = [
    "AuditedContract",
    "ExcludedRow",
    "Findings",
    "VariantRow",
    "rule_severities",
    "summarize",
    "summarize_records",
]


class AuditedContract(Protocol):
    """What the report says of the contract: a parsed contract, or a merge's record of it."""

    @property
    def id(self) -> str: ...

    @property
    def version(self) -> RuleVersion: ...

    @property
    def digest(self) -> str: ...

    @property
    def lineage(self) -> Lineage | None: ...


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
    exposure: Exposure = Exposure.KNOWN

    @property
    def probe_id(self) -> str:
        return f"{self.case}/{self.variant}"

    @classmethod
    def of(cls, case: str, variant: str, labels: Labels, counted: Counted) -> VariantRow:
        return cls(
            case=case,
            variant=variant,
            relation=labels.relation,
            probe_class=labels.probe_class.value,
            family=labels.family,
            severity=labels.severity,
            canary=labels.canary,
            verdict=counted.verdict,
            expect=labels.expect,
            exposure=labels.exposure,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "case": self.case,
            "variant": self.variant,
            "relation": self.relation.value,
            "class": self.probe_class,
            "family": self.family,
            "severity": self.severity.value,
            "canary": self.canary,
            "exposure": self.exposure.value,
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
class Findings:
    """The audit's figures and identities, with the records behind its lists."""

    contract: AuditedContract
    policy: ScoringPolicy
    corpus_digest: str
    fixture_digest: str
    cases: tuple[CaseRecord, ...]
    """In report order: by case id, variants in file order."""
    probe_order: tuple[CaseRecord, ...]
    """The same cases in the order their probe ids sort (by ``case + "/"``)."""
    tally: StrengthTally
    vector: StrengthVector
    comparability_key: str
    inputs: ScoringVersionInputs
    gaps: tuple[CoverageGap, ...]
    verdict: Verdict
    detection: Rate
    preservation: Rate
    canaries: tuple[int, int]
    families: dict[str, dict[str, int]]
    evidence: RunEvidence = field(default_factory=RunEvidence)
    """Recommendation, waivers and their date, preflight digest, source revision."""

    @property
    def mode(self) -> str:
        return self.inputs.mode

    def waivers_json(self) -> dict[str, Any] | None:
        """The report's ``waivers`` block: ``None`` when audit.yaml declares none."""
        evidence = self.evidence
        if not evidence.waivers or evidence.as_of is None:
            return None
        declared = []
        for waiver in sorted(evidence.waivers, key=lambda w: w.id):
            trials = self.tally.waived.get(waiver.id, [])
            declared.append(
                {
                    **waiver.base_json(),
                    "scope": waiver.scope_json(),
                    "status": waiver.status(evidence.as_of, bool(trials)).value,
                    "trials": list(trials),
                }
            )
        return {"as_of": evidence.as_of.isoformat(), "declared": declared}

    def admitted(self) -> Iterator[tuple[str, Labels, Counted]]:
        """``(probe id, labels, result)`` of every admitted probe, sorted by probe id."""
        yield from _admitted(self.probe_order)

    def rows(self) -> Iterator[VariantRow]:
        for case in self.cases:
            for record in case.variants:
                if isinstance(record.result, Counted):
                    yield VariantRow.of(case.case, record.variant, record.labels, record.result)

    def excluded(self) -> Iterator[ExcludedRow]:
        for case in self.cases:
            for record in case.variants:
                if isinstance(record.result, ExcludedReason):
                    yield ExcludedRow(
                        case.case, record.variant, record.labels.family, record.result
                    )


def _admitted(order: Sequence[CaseRecord]) -> Iterator[tuple[str, Labels, Counted]]:
    # Probe ids of two cases compare as ``case + "/"`` do ("/" is in no id), so
    # sorting cases that way and variant ids within a case sorts every probe id.
    for case in order:
        for record in sorted(case.variants, key=lambda record: record.variant):
            if isinstance(record.result, Counted):
                yield f"{case.case}/{record.variant}", record.labels, record.result


def _families(cases: Sequence[CaseRecord]) -> dict[str, dict[str, int]]:
    """Per family, every variant's outcome counted (excluded ones as ``excluded``)."""
    order = [*(outcome.value for outcome in Outcome), "excluded"]
    counts: dict[str, dict[str, int]] = {}
    for case in cases:
        for record in case.variants:
            result = record.result
            outcome = (
                "excluded" if isinstance(result, ExcludedReason) else result.verdict.outcome.value
            )
            found = counts.setdefault(record.labels.family, {})
            found[outcome] = found.get(outcome, 0) + 1
    return {
        family: {name: counts[family][name] for name in order if counts[family].get(name)}
        for family in sorted(counts)
    }


def rule_severities(parsed: ParsedContract) -> tuple[tuple[str, Severity], ...]:
    """Every rule's id and severity, in contract order (what coverage gaps are read from)."""
    return tuple((entry.rule.header.id, entry.rule.header.severity) for entry in parsed.entries)


def _coverage_gaps(
    rules: Sequence[tuple[str, Severity]], cases: Sequence[CaseRecord]
) -> tuple[CoverageGap, ...]:
    """Contract rules (in contract order) that no eligible, non-canary violation expects."""
    targeted = {
        expectation.rule
        for case in cases
        for record in case.variants
        if isinstance(record.result, Counted)
        and record.labels.relation is Relation.VIOLATION
        and not record.labels.canary
        for expectation in record.labels.expect
    }
    return tuple(CoverageGap(rule, severity) for rule, severity in rules if rule not in targeted)


def _figures(cases: Sequence[CaseRecord]) -> tuple[Rate, Rate, tuple[int, int]]:
    """Detection over non-canary faults, preservation over controls, canaries apart."""
    detected = faults = preserved = controls = caught = canaries = 0
    for case in cases:
        for record in case.variants:
            result, labels = record.result, record.labels
            if isinstance(result, ExcludedReason):
                continue
            outcome = result.verdict.outcome
            if labels.relation is Relation.PRESERVE:
                controls += 1
                preserved += outcome is Outcome.PRESERVED
            elif labels.canary:
                canaries += 1
                caught += outcome is Outcome.DETECTED
            else:
                faults += 1
                detected += outcome is Outcome.DETECTED
    return rate(detected, faults), rate(preserved, controls), (caught, canaries)


def summarize(
    parsed: ParsedContract,
    policy: ScoringPolicy,
    cases: tuple[CaseRecord, ...],
    corpus_digest: str,
    fixture_digest: str,
    *,
    mode: str = CONTRACT_SCORING,
    evidence: RunEvidence | None = None,
) -> Findings:
    """The findings of evaluated cases (``cases`` sorted by case id).

    ``evidence.recommendation`` is the production recommendation (``None`` in
    contract-scoring).
    """
    return summarize_records(
        parsed,
        rule_severities(parsed),
        policy,
        cases,
        corpus_digest,
        fixture_digest,
        mode=mode,
        evidence=evidence,
    )


def summarize_records(
    contract: AuditedContract,
    rules: Sequence[tuple[str, Severity]],
    policy: ScoringPolicy,
    cases: tuple[CaseRecord, ...],
    corpus_digest: str,
    fixture_digest: str,
    *,
    mode: str = CONTRACT_SCORING,
    evidence: RunEvidence | None = None,
) -> Findings:
    """:func:`summarize` from the contract's identity and its rules' severities."""
    run = evidence if evidence is not None else RunEvidence()
    recommendation = None if run.recommendation is None else Recommendation(run.recommendation)
    probe_order = tuple(sorted(cases, key=lambda case: case.case + "/"))
    tally = StrengthTally(policy)
    for probe_id, labels, counted in _admitted(probe_order):
        tally.add(probe_id, labels, counted)
    gaps = _coverage_gaps(rules, cases)
    detection, preservation, canaries = _figures(cases)
    return Findings(
        contract=contract,
        policy=policy,
        corpus_digest=corpus_digest,
        fixture_digest=fixture_digest,
        cases=cases,
        probe_order=probe_order,
        tally=tally,
        vector=tally.vector(),
        comparability_key=tally.comparability_key(),
        inputs=ScoringVersionInputs(
            contract_format_version=CONTRACT_FORMAT_VERSION,
            corpus_digest=corpus_digest,
            fixture_digest=fixture_digest,
            evaluator_configuration_digest=contract.digest,
            scoring_policy_digest=policy.digest,
            mode=mode,
        ),
        gaps=gaps,
        verdict=tally.verdict(gaps, mode, recommendation),
        detection=detection,
        preservation=preservation,
        canaries=canaries,
        families=_families(cases),
        evidence=run,
    )
