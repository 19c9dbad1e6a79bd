"""``merge_parts`` in process: every check a part goes through, and what each failure says."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest

from tests.audit.audit_builders import SHIPPED
from textcontract.audit import Part, Shard, audit_directory, merge_audit
from textcontract.audit.results import RecordError, case_record_from_json, case_record_json
from textcontract.errors import InputError, RefusedArtifactSet

Change = Callable[[dict[str, Any]], Any]


@cache
def _parts(count: int) -> tuple[dict[str, Any], ...]:
    return tuple(
        audit_directory(SHIPPED, shard=Shard(index, count)).report for index in range(1, count + 1)
    )


def parts(count: int, change: Change | None = None, at: int = 0) -> list[Part]:
    found = [copy.deepcopy(report) for report in _parts(count)]
    if change is not None:
        change(found[at])
    return [Part(f"part-{i}.json", report) for i, report in enumerate(found, start=1)]


def test_merging_in_process_is_the_unsharded_report() -> None:
    assert merge_audit(parts(2)).report == audit_directory(SHIPPED).report
    assert merge_audit(parts(1)).report == audit_directory(SHIPPED).report


def _set(path: str, value: Any) -> Change:
    def change(report: dict[str, Any]) -> None:
        *heads, last = path.split(".")
        target: Any = report
        for head in heads:
            target = target[int(head)] if head.isdigit() else target[head]
        target[int(last) if last.isdigit() else last] = value

    return change


def _drop(key: str) -> Change:
    return lambda report: report.pop(key)


BAD = [
    (lambda report: report.clear(), "not an audit report"),
    (_drop("shard"), "not a part file"),
    (_drop("corpus"), "corpus: missing"),
    (_set("shard", []), "shard: expected an object"),
    (_set("shard.index", 0), "shard.index: expected an index"),
    (_set("shard.index", True), "shard.index: expected an index"),
    (_set("shard.cases", {}), "shard.cases: expected a list"),
    (_set("shard.cases.0.variants.0.outcome", "found"), "'found' is not one of"),
    (_set("shard.cases.0.variants.0.canary", 1), "expected true or false"),
    (_set("shard.cases.0.variants.0.expect", [["a", "b"]]), "[rule, code, scope]"),
    (_set("shard.cases.0.variants.0.statuses", []), "one status per expectation"),
    (_set("shard.cases.0.variants.0.states", []), "at least one trial state"),
    (_set("shard.cases.0.variants.0.reason", 3), "a string or null"),
    (_set("shard.cases.0", {"case": "x"}), "expected the keys case, variants"),
    (_set("policy", []), "policy: expected an object"),
    (_set("policy.digest", "sha256:0"), "policy: does not recompute"),
    (_set("shard.rules", [{"rule": "x"}]), "shard.rules[0]: expected"),
    (_set("shard.rules", [{"rule": "x", "severity": "huge"}]), "not a severity"),
    (_set("contract", {"id": "x"}), "contract: expected an object"),
    (_set("shard.thresholds", {}), "shard.thresholds: expected"),
    (_set("shard.thresholds.detection", "high"), "a number or null"),
    (_set("corpus", {"digest": 1}), "corpus: expected an object"),
    (_drop("waivers"), "waivers: missing"),
    (_set("mode", "sometimes"), "mode: expected one of contract-scoring, production"),
    (_set("evaluator_recommendation", "PASS"), "expected null (contract-scoring)"),
    (_set("preflight", {"passed": False, "digest": "x"}), "preflight: expected null or"),
    (_set("source_revision", {"commit": 1}), "source_revision"),
    (_set("contract.lineage", {"revision_count": 1}), "contract.lineage: expected null or"),
    (_set("waivers", []), "waivers: expected null or an object"),
    (_set("waivers", {"as_of": "soon", "declared": []}), "waivers.as_of: expected a date"),
    (_set("waivers", {"as_of": "2026-01-01", "declared": [{}]}), "declared[0]: expected"),
    (_set("shard.cases.0.variants.0.exposure", "secret"), "'secret' is not one of"),
    (_set("shard.cases.0.variants.0.waivers", [None]), "expected [] or one waiver id"),
    (_set("shard.cases.0.variants.0.waivers", ["w"]), "only a not-applicable trial"),
]


def _production(report: dict[str, Any]) -> None:
    report["mode"], report["evaluator_recommendation"] = "production", "SOMETIMES"


def test_a_production_part_needs_a_known_recommendation() -> None:
    with pytest.raises(InputError, match="expected one of PASS, CONCERNS, FAIL"):
        merge_audit(parts(1, _production))


def test_waivers_are_read_back_with_their_dates_and_scopes() -> None:
    declared = {
        "id": "w1",
        "reason": "r",
        "approved_by": "a",
        "expires": "2026-12-31",
        "scope": {"probes": [], "rules": ["status-shipped"]},  # covers no missed trial
        "status": "unused",
        "trials": [],
    }
    block = {"as_of": "2026-06-01", "declared": [declared]}
    merged = merge_audit(parts(1, _set("waivers", block)))
    assert merged.report["waivers"] == block
    for key, value, message in [
        ("expires", "never", "expires: expected a date"),
        ("scope", {"probes": []}, "scope: expected {probes, rules}"),
        ("reason", 3, "expected id, reason and approved_by as strings"),
    ]:
        bad = {"as_of": "2026-06-01", "declared": [{**declared, key: value}]}
        with pytest.raises(InputError, match=message):
            merge_audit(parts(1, _set("waivers", bad)))


@pytest.mark.parametrize(("change", "message"), BAD)
def test_a_malformed_part_is_an_input_error_naming_the_file(change: Change, message: str) -> None:
    with pytest.raises(InputError) as raised:
        merge_audit(parts(1, change))
    assert "part-1.json" in str(raised.value)
    assert message in str(raised.value)


REFUSED = [
    (_set("engine.version", "9.9"), "written by engine"),
    (_set("audit_version", 99), "audit_version 99 is not 2"),
    (_set("contract.digest", "sha256:1"), "its contract differs"),
    (_set("shard.hash", "crc32"), "its shard.hash differs"),
    (_set("shard.cases_in_corpus", 99), "its shard.cases_in_corpus differs"),
    (_set("shard.thresholds.detection", 0.1), "its shard.thresholds differs"),
    (_set("mode", "production"), "its mode differs"),
    (_set("contract.lineage", {"parent_digest": None, "revision_count": 0}), "its contract"),
    (_set("preflight.digest", "sha256:0"), "its preflight differs"),
    (_set("evaluator_recommendation", "PASS"), "its evaluator_recommendation differs"),
    (_set("source_revision", {"commit": None, "dirty": None, "basis": "unknown"}), "its source"),
    (_set("waivers", {"as_of": "2026-01-01", "declared": []}), "its waivers (or their as_of"),
]


@pytest.mark.parametrize(("change", "message"), REFUSED)
def test_a_part_of_another_run_is_refused_naming_it(change: Change, message: str) -> None:
    with pytest.raises(RefusedArtifactSet) as raised:
        merge_audit(parts(2, change, at=1))
    assert str(raised.value).startswith("merge refuses part-2.json: ")
    assert message in str(raised.value)


def test_a_single_part_with_a_foreign_hash_is_refused() -> None:
    with pytest.raises(RefusedArtifactSet, match=r"shard\.hash 'crc32' is not"):
        merge_audit(parts(1, _set("shard.hash", "crc32")))


def test_a_case_in_two_parts_or_missing_is_refused() -> None:
    def twice(report: dict[str, Any]) -> None:
        other = _parts(2)[0]["shard"]["cases"]
        report["shard"]["cases"] = [*report["shard"]["cases"], *copy.deepcopy(other)]

    with pytest.raises(RefusedArtifactSet, match=r"does not belong to shard|is also in"):
        merge_audit(parts(2, twice, at=1))

    def fewer(report: dict[str, Any]) -> None:
        report["shard"]["cases"] = report["shard"]["cases"][1:]

    with pytest.raises(RefusedArtifactSet, match="do not hold every case"):
        merge_audit(parts(2, fewer, at=0))
    with pytest.raises(InputError, match="at least one part"):
        merge_audit([])


def test_merge_thresholds_override_the_parts() -> None:
    merged = merge_audit(parts(2), detection=1.0)
    assert [check.to_json()["minimum"] for check in merged.thresholds] == [1.0, 0.8]
    assert int(merged.exit_code) == 1


def test_records_round_trip_and_refuse_other_shapes() -> None:
    report = _parts(1)[0]
    for value in report["shard"]["cases"]:
        assert case_record_json(case_record_from_json(value)) == value
    with pytest.raises(RecordError, match=r"^\$: expected an object"):
        case_record_from_json([])
    excluded = copy.deepcopy(report["shard"]["cases"][0])
    row = next(v for v in excluded["variants"] if "excluded" in v)
    row["excluded"] = "gone"
    with pytest.raises(RecordError, match="excluded: 'gone' is not one of"):
        case_record_from_json(excluded)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("2/1", "shard 2/1: K must be between 1 and N (1/1 to 1/1)"),
        ("x", "expected K/N, shard K of N counted from 1 (e.g. 2/4), got 'x'"),
        ("01/2", "expected K/N, shard K of N counted from 1 (e.g. 2/4), got '01/2'"),
        ("0/0", "N is the number of shards, at least 1, got '0/0'"),
        ("0/2", "K counts from 1: the shards of 2 are 1/2 to 2/2, got '0/2'"),
    ],
)
def test_a_shard_is_k_of_n(text: str, said: str) -> None:
    with pytest.raises(ValueError, match=re.escape(said)):
        Shard.parse(text)
    assert str(Shard(1, 2)) == "1/2"
