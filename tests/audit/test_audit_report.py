"""The report written piece by piece is the report: same bytes, same order, same identities."""

from __future__ import annotations

from pathlib import Path

import pytest
from scipy.stats import binomtest

from tests.audit.audit_builders import (
    REFUND,
    REWORD,
    SHIPPED,
    audit_of,
    case_text,
    preserve,
    violation,
    write_corpus,
)
from textcontract.audit import AuditResult, audit_directory, wilson_interval
from textcontract.formats.json_text import dumps_pretty, write_pretty
from textcontract.strength import comparability_key

NOTHING = "{replace: [{find: today, with: now}]}"


def written(result: AuditResult) -> str:
    parts: list[str] = []
    write_pretty(result.streamed_report(), parts.append)
    return "".join(parts)


def corpora(tmp_path: Path) -> dict[str, Path]:
    excluded_only = "- {id: p1, relation: preserve, change: " + REWORD + "}\n"
    mixed = (
        violation("v1", REFUND)
        + violation("v2", NOTHING)
        + violation("canary", REFUND, extra="  canary: true\n")
        + preserve("p1", REWORD)
        + "- {id: p2, relation: preserve, validity: equivalent, change: "
        + REWORD
        + "}\n"
        + "- id: t\n  relation: violation\n  validity: valid\n  provenance: t\n"
        "  expect: [{rule: no-refund, code: NO_REFUND_PROMISE, scope: 'surface:body'}]\n"
        f"  trials: [{REFUND}, {NOTHING}, {REFUND}]\n"
    )
    return {
        "excluded-only": write_corpus(tmp_path / "a", {"c1.yaml": case_text(excluded_only)}),
        "mixed": write_corpus(
            tmp_path / "b",
            {
                "c1.yaml": case_text(mixed),
                "c2.yaml": case_text(mixed, "c2"),
                "x.yaml": case_text(violation("x-1", REFUND), "x"),
            },
        ),
        "no-case": write_corpus(tmp_path / "c", {}),
    }


@pytest.mark.parametrize("name", ["excluded-only", "mixed", "no-case"])
def test_the_written_report_is_the_report(tmp_path: Path, name: str) -> None:
    corpus = corpora(tmp_path)[name]
    result = audit_of(corpus)
    assert written(result) == dumps_pretty(result.report)


def test_the_shipped_report_is_written_byte_for_byte() -> None:
    result = audit_directory(SHIPPED)
    assert written(result) == dumps_pretty(result.report)


def test_probes_sort_by_probe_id_across_case_ids_that_prefix_each_other(tmp_path: Path) -> None:
    """``a/…`` sorts after ``a-b/…`` and ``a.b/…``: the order is by probe id, not by case."""
    ids = ["a", "a-b", "a.b", "a_b", "ab", "A"]
    cases = {
        f"{name}.yaml": case_text(violation("v", REFUND) + violation("w", REFUND), name)
        for name in ids
    }
    result = audit_of(write_corpus(tmp_path, cases))
    probes = [probe["probe_id"] for probe in result.report["strength"]["probes"]]
    assert probes == sorted(f"{case}/{variant}" for case in ids for variant in ("v", "w"))
    assert [row["case"] for row in result.report["variants"]] == [
        case for case in sorted(ids) for _ in ("v", "w")
    ]
    policy = result.report["policy"]["digest"]
    assert result.report["strength"]["comparability_key"] == comparability_key(policy, probes)
    assert written(result) == dumps_pretty(result.report)


def test_the_strength_block_is_the_strength_scorers(tmp_path: Path) -> None:
    """Added up probe by probe, the block equals what ``score_probes`` makes of all at once."""
    result = audit_of(corpora(tmp_path)["mixed"])
    assert result.report["strength"] == result.strength.strength_block_json()
    assert result.verdict == result.strength.verdict


def test_wilson_interval_has_scipys_bits() -> None:
    for total in range(1, 60):
        for successes in range(total + 1):
            interval = binomtest(successes, total).proportion_ci(0.95, method="wilson")
            expected = (float(interval.low), float(interval.high))
            assert wilson_interval(successes, total) == expected, (successes, total)
