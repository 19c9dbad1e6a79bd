"""Small builders shared by the strength tests (not a test module)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from textcontract._engine import engine_json
from textcontract.model import Severity
from textcontract.strength import (
    CoverageGap,
    OutcomeState,
    Probe,
    ProbeClass,
    ProbeTrials,
    ScoringPolicy,
    ScoringVersionInputs,
    StrengthResult,
    TrialOutcome,
    score_probes,
)

CAUGHT = OutcomeState.CAUGHT
MISSED = OutcomeState.MISSED
ORACLE = "claims:CLAIM_STATE_MISMATCH:surface:body"


def policy(**fields: Any) -> ScoringPolicy:
    return ScoringPolicy.from_json(fields, "policy.yaml")


def probe_trials(
    probe_id: str,
    states: Sequence[OutcomeState],
    *,
    probe_class: ProbeClass = ProbeClass.DEFECT,
    severity: Severity = Severity.HIGH,
    canary: bool = False,
    clean_control: bool = False,
    first_index: int = 0,
    oracle: str | None = ORACLE,
) -> ProbeTrials:
    return ProbeTrials(
        Probe(probe_id, probe_class, severity, canary, clean_control),
        tuple(
            TrialOutcome(first_index + offset, oracle, state) for offset, state in enumerate(states)
        ),
    )


def counted(caught: int = 0, missed: int = 0, **others: int) -> list[OutcomeState]:
    """``caught`` caught trials, then ``missed`` missed ones, then others by state name."""
    states = [CAUGHT] * caught + [MISSED] * missed
    for name, count in others.items():
        states += [OutcomeState[name.upper()]] * count
    return states


def inputs_for(
    scoring: ScoringPolicy, *, corpus_digest: str | None = "sha256:corpus"
) -> ScoringVersionInputs:
    return ScoringVersionInputs(
        contract_format_version=1,
        corpus_digest=corpus_digest,
        fixture_digest="sha256:fixtures",
        evaluator_configuration_digest="sha256:contract",
        scoring_policy_digest=scoring.digest,
    )


def scored(
    probes: Iterable[ProbeTrials],
    scoring: ScoringPolicy | None = None,
    gaps: Sequence[CoverageGap] = (),
) -> StrengthResult:
    chosen = scoring if scoring is not None else policy()
    return score_probes(probes, chosen, inputs_for(chosen), gaps)


def artifacts_of(
    probes: Iterable[ProbeTrials], scoring: ScoringPolicy | None = None
) -> list[tuple[str, Any]]:
    """``(file name, artifact)`` pairs as ``audit --artifacts`` would write them."""
    return [
        (f"out/{probe_id}.json", artifact)
        for probe_id, artifact in scored(probes, scoring).evidence_artifacts()
    ]


def audit_report(
    result: StrengthResult, *, digest: str = "sha256:contract", lineage: Any = None
) -> dict[str, Any]:
    """The parts of a version-2 audit report that ``compare`` reads, plus an unrelated key."""
    return {
        "audit_version": 2,
        "engine": engine_json(),
        "contract": {"id": "c", "version": 1, "digest": digest, "lineage": lineage},
        "policy": result.policy.report_json(),
        "strength": result.strength_block_json(),
        "verdict": result.verdict.to_json(),
        "families": {"unlabelled": {"detected": 1}},
    }
