"""A sharded audit's parts against the corpus itself (SPEC §22, ``merge --corpus DIR``).

Without the corpus, ``merge`` can check that each part agrees with itself, but not that
a record's labels are the ones its case file gives: nothing in a part can be recomputed
into them. With the corpus loaded and preflighted as ``audit`` does (baselines only, never
a trial), :class:`CorpusFacts` holds what the parts must agree with: the corpus and fixture
digests, the contract and its rules' severities, the scoring policy and the waivers of
audit.yaml, the preflight (its digest for the parts' mode, and in production the
recommendation it gives), and each case's plan — its variants in file order, their labels
(severity resolved against the contract), trial counts and exclusions.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum
from functools import cached_property
from itertools import zip_longest
from typing import Any

from textcontract.audit.reading import Expectation
from textcontract.audit.results._figures import ExcludedReason
from textcontract.audit.results._findings import AuditedContract
from textcontract.audit.results._preflight import CasePlan, PlannedVariant, Preflight
from textcontract.audit.results._record_checks import RecordFault
from textcontract.audit.results._report import contract_json
from textcontract.audit.results._variant_records import CaseRecord, Labels, VariantRecord
from textcontract.canonical import canonical_json
from textcontract.model import Severity
from textcontract.strength import PRODUCTION, Waiver

__all__ = ["CorpusFacts", "corpus_record_fault", "run_difference"]

_LABELS = {
    "relation": "relation",
    "probe_class": "class",
    "family": "family",
    "severity": "severity",
    "canary": "canary",
    "expect": "expect",
    "exposure": "exposure",
}
"""Each label's name in :class:`Labels` and in a record."""


@dataclass(frozen=True)
class CorpusFacts:
    """What ``merge --corpus DIR`` read from DIR: ``name`` is DIR as given."""

    name: str
    preflight: Preflight
    """The corpus's preflight (for audit.yaml's mode), its digests filled in."""
    contract: AuditedContract
    policy: Mapping[str, Any]
    """The report's ``policy`` block (audit.yaml's scoring policy)."""
    rules: tuple[tuple[str, Severity], ...]
    waivers: tuple[Waiver, ...]
    """audit.yaml's waivers."""

    @cached_property
    def plans(self) -> dict[str, CasePlan]:
        return {plan.case: plan for plan in self.preflight.cases}

    def declared(self) -> list[dict[str, Any]] | None:
        """The waivers as a report declares them (without what a run found)."""
        if not self.waivers:
            return None
        return [
            {**waiver.base_json(), "scope": waiver.scope_json()}
            for waiver in sorted(self.waivers, key=lambda waiver: waiver.id)
        ]


def _text(value: Any) -> str:
    """A value as the part's JSON shows it."""
    return json.dumps(value, ensure_ascii=False)


def _same(one: Any, other: Any) -> bool:
    """Equal as JSON values, types included (``1`` is not ``1.0``)."""
    return canonical_json(one) == canonical_json(other)


def run_difference(
    report: Mapping[str, Any],
    declared: Mapping[str, Any] | None,
    facts: CorpusFacts,
    mode: str,
) -> str | None:
    """What first differs between a part's run (``declared``: its waivers without what the
    run found) and the corpus; ``None`` when nothing does."""
    preflight = facts.preflight
    corpus = {"digest": preflight.corpus_digest, "fixture_digest": preflight.fixture_digest}
    run = replace(preflight, mode=mode)
    shard = report["shard"]
    rules = [{"rule": rule, "severity": severity.value} for rule, severity in facts.rules]
    waivers = None if declared is None else declared["declared"]
    pairs = [
        ("corpus", report["corpus"], corpus),
        ("contract", report["contract"], contract_json(facts.contract)),
        ("policy", report["policy"], facts.policy),
        ("shard.rules", shard["rules"], rules),
        ("shard.cases_in_corpus", shard["cases_in_corpus"], len(preflight.cases)),
        ("waivers", waivers, facts.declared()),
        ("preflight", report["preflight"], run.report_json()),
    ]
    if mode == PRODUCTION:
        given = report["evaluator_recommendation"]
        pairs.append(("evaluator_recommendation", given, preflight.recommendation.value))
    for key, given, expected in pairs:
        if not _same(given, expected):
            return f"its {key} differs from {facts.name}'s"
    return None


def _value(value: Any) -> Any:
    """A label as a record shows it."""
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Expectation):
        return [value.rule, value.code, value.scope]
    if isinstance(value, tuple):
        return [_value(item) for item in value]
    return value


def _label_difference(labels: Labels, planned: Labels, name: str) -> str | None:
    for field, shown in _LABELS.items():
        mine, theirs = _value(getattr(labels, field)), _value(getattr(planned, field))
        if not _same(mine, theirs):
            return f"its {shown} is {_text(mine)}, {name} gives {_text(theirs)}"
    return None


def _result_difference(record: VariantRecord, planned: PlannedVariant, name: str) -> str | None:
    result = record.result
    if isinstance(result, ExcludedReason):
        if planned.excluded is None:
            return f"it is excluded as {_text(result.value)}, {name} counts it"
        if result is not planned.excluded:
            theirs = _text(planned.excluded.value)
            return f"it is excluded as {_text(result.value)}, {name} as {theirs}"
        return None
    if planned.excluded is not None:
        return f"it is counted, {name} excludes it as {_text(planned.excluded.value)}"
    if len(result.states) != planned.trials:
        return f"it has {len(result.states)} trial states, {name} gives it {planned.trials} trials"
    return None


def corpus_record_fault(record: CaseRecord, facts: CorpusFacts) -> RecordFault | None:
    """Where a case record differs from its case in the corpus: its variants (ids, in
    file order), their labels, trial counts and exclusions."""
    name = facts.name
    plan = facts.plans.get(record.case)
    if plan is None:
        return RecordFault(None, f"{name} has no case {_text(record.case)}")
    pairs = zip_longest(record.variants, plan.variants)
    for index, (variant, planned) in enumerate(pairs):
        if variant is None:
            missing = _text(planned.variant)
            return RecordFault(None, f"variant {missing} of {name}'s case is missing")
        mine = _text(variant.variant)
        if planned is None:
            return RecordFault(index, f"{name}'s case has no variant {mine}")
        if variant.variant != planned.variant:
            theirs = _text(planned.variant)
            return RecordFault(index, f"its variant id is {mine}, {name} has {theirs} here")
        fault = _label_difference(variant.labels, planned.labels, name) or _result_difference(
            variant, planned, name
        )
        if fault is not None:
            return RecordFault(index, fault)
    return None
