"""The JSON Schemas shipped for what textcontract writes: check reports, audit reports,
evidence artifacts, ``compare`` and ``aggregate-strength`` (their ``engine`` blocks, SPEC §20)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from textcontract import Context, Document, load_contract, load_contract_text
from textcontract.audit import AuditResult, audit_directory
from textcontract.formats.json_text import write_pretty
from textcontract.strength import ScoringPolicy, aggregate, compare

ROOT = Path(__file__).resolve().parents[1]
NAMES = ("report", "audit", "artifact", "compare", "aggregate")


def _schema(name: str) -> dict[str, Any]:
    text = resources.files("textcontract").joinpath(f"schema/{name}.schema.json")
    loaded: dict[str, Any] = json.loads(text.read_text(encoding="utf-8"))
    return loaded


def _errors(name: str, value: Any) -> list[str]:
    validator = Draft202012Validator(_schema(name))
    return [f"{list(error.path)}: {error.message}" for error in validator.iter_errors(value)]


@cache
def _audit() -> AuditResult:
    return audit_directory(ROOT / "fixtures" / "mutations")


def _audit_report() -> dict[str, Any]:
    parts: list[str] = []
    write_pretty(_audit().streamed_report(), parts.append)
    loaded: dict[str, Any] = json.loads("".join(parts))
    return loaded


@pytest.mark.parametrize("name", NAMES)
def test_each_schema_is_valid_draft_2020_12(name: str) -> None:
    Draft202012Validator.check_schema(_schema(name))


def test_the_engine_block_is_one_definition_everywhere() -> None:
    engines = [
        json.dumps(_schema(name)["$defs"]["engine"], sort_keys=True)
        for name in ("report", "audit", "artifact", "aggregate")
    ]
    assert len(set(engines)) == 1


def test_check_reports_validate() -> None:
    """The batch fixture checked against its last reports: every report marked (SPEC §21)."""
    orders = ROOT / "fixtures" / "orders"
    ran = subprocess.run(
        [
            sys.executable,
            "-m",
            "textcontract",
            "check",
            "fixtures/orders/",
            "--contract",
            "fixtures/orders/textcontract.yaml",
            "--baseline",
            "fixtures/baselines/orders.jsonl",
            "--format",
            "jsonl",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert ran.returncode in (0, 1), ran.stderr
    reports = [json.loads(line) for line in ran.stdout.splitlines()]
    assert any("baseline" in check for report in reports for check in report["checks"])
    for report in reports:
        assert "baseline" in report
        assert _errors("report", report) == []
        unmarked = {key: value for key, value in report.items() if key != "baseline"}
        unmarked["checks"] = [
            {key: value for key, value in check.items() if key != "baseline"}
            for check in report["checks"]
        ]
        assert _errors("report", unmarked) == []
    icu = load_contract_text(
        "textcontract: 1\nid: ja\ntokens: {segmenter: icu}\n"
        "rules: [{id: m, type: MinimumTokens, minimum: 3}]\n"
    ).check(Document.from_text("これは日本語のテキストです。"), Context.from_json({}))
    assert "icu" in icu.to_dict()["engine"]
    assert _errors("report", icu.to_dict()) == []
    plain = load_contract(orders / "textcontract.yaml").check(
        Document.from_text("Your order shipped."), Context.from_json({})
    )
    assert _errors("report", json.loads(plain.to_json())) == []


def test_the_audit_report_and_its_artifacts_validate() -> None:
    assert _errors("audit", _audit_report()) == []
    golden_file = ROOT / "tests" / "audit" / "golden-mutations-report.json"
    golden = json.loads(golden_file.read_text(encoding="utf-8"))
    assert _errors("audit", golden) == []
    artifacts = list(_audit().artifacts())
    assert artifacts
    for _, artifact in artifacts:
        assert _errors("artifact", artifact) == []


def test_compare_and_aggregate_outputs_validate() -> None:
    (a_name, a), (b_name, b) = list(_audit().artifacts())[:2]
    assert _errors("compare", compare((a_name, a), (a_name, a))) == []
    assert _errors("compare", compare(("a.json", _audit_report()), ("b.json", a))) == []
    merged = aggregate([(a_name, a), (b_name, b)], ScoringPolicy.from_json({}, "p.yaml"))
    assert _errors("aggregate", merged) == []


@pytest.mark.parametrize(
    ("change", "message"),
    [
        pytest.param(
            lambda e: e.pop("unicode"), "'unicode' is a required property", id="no-unicode"
        ),
        pytest.param(lambda e: e["unicode"].pop("regex"), "'regex' is a required", id="no-regex"),
        pytest.param(lambda e: e.update(icu=""), "should be non-empty", id="empty-icu"),
        pytest.param(lambda e: e.update(icu_version="78"), "Additional properties", id="extra"),
    ],
)
def test_an_engine_block_that_breaks_the_promise_is_refused(change: Any, message: str) -> None:
    report = _audit_report()
    broken = copy.deepcopy(report)
    change(broken["engine"])
    assert any(message in error for error in _errors("audit", broken))
