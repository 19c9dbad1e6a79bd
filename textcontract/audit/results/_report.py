"""The audit report (SPEC §6, version 2 of §17), keys in the order SPEC shows.

:func:`report_json` builds it whole. :func:`streamed_report` gives the same report with
its three long lists — ``strength.probes``, ``variants``, ``excluded`` — as iterators that
produce one entry at a time from the audit's records; written with
:func:`textcontract.formats.json_text.write_pretty`, it is the same bytes as the whole
report printed, and neither the report nor its text is ever held.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from textcontract.audit.results._findings import AuditedContract, Findings, VariantRow
from textcontract.audit.results._variant_records import Counted, Labels

__all__ = ["AUDIT_VERSION", "contract_json", "report_json", "streamed_report"]

AUDIT_VERSION = 2
_SHAPES_KEPT = 4096
"""Distinct row shapes kept while writing; real corpora repeat a few, this bounds the rest."""


Entries = Iterable[dict[str, Any]]


def contract_json(contract: AuditedContract) -> dict[str, Any]:
    """The report's ``contract`` block."""
    lineage = contract.lineage
    return {
        "id": contract.id,
        "version": contract.version,
        "digest": contract.digest,
        "lineage": None if lineage is None else lineage.to_json(),
    }


def _head(findings: Findings) -> dict[str, Any]:
    """The report's keys before its figures."""
    evidence = findings.evidence
    preflight = None
    if evidence.preflight_digest is not None:
        preflight = {"passed": True, "digest": evidence.preflight_digest}
    return {
        "audit_version": AUDIT_VERSION,
        "engine": findings.evidence.engine_json(),
        "mode": findings.mode,
        "contract": contract_json(findings.contract),
        "corpus": {"digest": findings.corpus_digest, "fixture_digest": findings.fixture_digest},
        "preflight": preflight,
        "policy": findings.policy.report_json(),
        "evaluator_recommendation": evidence.recommendation,
    }


def _report(
    findings: Findings, probes: Entries, variants: Entries, excluded: Entries
) -> dict[str, Any]:
    """The report around its three long lists, given as lists or as iterators."""
    detection, preservation = findings.detection, findings.preservation
    revision = findings.evidence.source_revision
    return {
        **_head(findings),
        "detection": {
            "detected": detection.count,
            "eligible": detection.eligible,
            "score": detection.value,
            "interval95": detection.interval_json(),
        },
        "preservation": {
            "preserved": preservation.count,
            "eligible": preservation.eligible,
            "rate": preservation.value,
            "interval95": preservation.interval_json(),
        },
        "canaries": {"caught": findings.canaries[0], "total": findings.canaries[1]},
        "strength": {
            **findings.vector.to_json(),
            "comparability_key": findings.comparability_key,
            "scoring_version": findings.inputs.scoring_version,
            "scoring_version_inputs": findings.inputs.to_json(),
            "probes": probes,
        },
        "verdict": findings.verdict.to_json(),
        "coverage_gaps": [gap.to_json() for gap in findings.gaps],
        "waivers": findings.waivers_json(),
        "source_revision": None if revision is None else revision.to_json(),
        "families": findings.families,
        "variants": variants,
        "excluded": excluded,
    }


def _probes(findings: Findings) -> Iterator[dict[str, Any]]:
    for probe_id, labels, counted in findings.admitted():
        yield findings.tally.summary(labels, counted).entry_json(probe_id)


def _variants(findings: Findings) -> Iterator[dict[str, Any]]:
    """Rows of counted variants, in report order.

    Variants share labels and results (they are interned), and a row is its ids plus
    what those two give: that part is built once per pair and copied with the ids set.
    """
    shapes: dict[tuple[Labels, Counted], dict[str, Any]] = {}
    for case in findings.cases:
        for record in case.variants:
            if not isinstance(record.result, Counted):
                continue
            key = (record.labels, record.result)
            shape = shapes.get(key)
            if shape is None:
                if len(shapes) >= _SHAPES_KEPT:
                    shapes.clear()
                shape = shapes[key] = VariantRow.of("", "", *key).to_json()
            yield {**shape, "case": case.case, "variant": record.variant}


def _excluded(findings: Findings) -> Iterator[dict[str, Any]]:
    return (row.to_json() for row in findings.excluded())


def report_json(findings: Findings) -> dict[str, Any]:
    """The whole report as a JSON-ready dict."""
    return _report(
        findings, list(_probes(findings)), list(_variants(findings)), list(_excluded(findings))
    )


def streamed_report(findings: Findings) -> dict[str, Any]:
    """The report with its long lists as iterators (each can be walked once)."""
    return _report(findings, _probes(findings), _variants(findings), _excluded(findings))
