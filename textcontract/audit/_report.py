"""The audit report as a JSON-ready dict, keys in the order SPEC §6 shows."""

from __future__ import annotations

from typing import Any

from textcontract._version import ENGINE_NAME, __version__
from textcontract.audit._corpus import Corpus
from textcontract.audit._figures import Rate
from textcontract.strength import CoverageGap, StrengthResult

__all__ = ["AUDIT_VERSION", "build_report"]

AUDIT_VERSION = 1


def build_report(
    *,
    corpus: Corpus,
    detection: Rate,
    preservation: Rate,
    canaries: tuple[int, int],
    strength: StrengthResult,
    gaps: tuple[CoverageGap, ...],
    families: dict[str, dict[str, int]],
    variants: list[dict[str, Any]],
    excluded: list[dict[str, Any]],
) -> dict[str, Any]:
    contract = corpus.contract
    return {
        "audit_version": AUDIT_VERSION,
        "engine": {"name": ENGINE_NAME, "version": __version__},
        "contract": {"id": contract.id, "version": contract.version, "digest": contract.digest},
        "corpus": {"digest": corpus.digest, "fixture_digest": corpus.fixture_digest},
        "policy": corpus.policy.report_json(),
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
        "canaries": {"caught": canaries[0], "total": canaries[1]},
        "strength": strength.strength_block_json(),
        "verdict": strength.verdict.to_json(),
        "coverage_gaps": [gap.to_json() for gap in gaps],
        "families": families,
        "variants": variants,
        "excluded": excluded,
    }
