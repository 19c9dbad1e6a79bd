"""``check --format sarif``: valid SARIF 2.1.0 (OASIS schema and the SARIF Multitool), and
every result where SPEC §12 says it goes."""

from __future__ import annotations

import json
import subprocess
from io import StringIO
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from typer.testing import CliRunner

from tests.formats.ci_builders import CONTRACT, FIXTURES, RULES, SCHEMAS, checked_documents
from textcontract.cli import app
from textcontract.formats.json_text import write_pretty
from textcontract.formats.sarif import SarifRun, artifact_uri, fingerprint, sarif_log

ORDERS = FIXTURES / "orders"


def render(base: str = "/work") -> dict[str, Any]:
    out = StringIO()
    log = sarif_log([SarifRun(CONTRACT, RULES, checked_documents())], "0.1.0", base)
    write_pretty(log, out.write)
    value: dict[str, Any] = json.loads(out.getvalue())
    return value


def schema_errors(log: dict[str, Any]) -> list[str]:
    schema = json.loads((SCHEMAS / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft4Validator(schema, format_checker=jsonschema.FormatChecker())
    return [f"{list(error.absolute_path)}: {error.message}" for error in validator.iter_errors(log)]


def real_run(tmp_path: Path) -> Path:
    target = tmp_path / "real.sarif"
    result = CliRunner().invoke(
        app,
        [
            "check",
            str(ORDERS / "order-1002.md"),
            str(ORDERS / "order-1003.json"),
            "--contract",
            str(ORDERS / "textcontract.yaml"),
            "--format",
            "sarif",
            "--output",
            str(target),
        ],
    )
    assert result.exit_code == 1, result.output
    return target


def baseline_run(tmp_path: Path) -> Path:
    """A real run against a baseline of one of its two documents: results of both states."""
    contract = ["--contract", str(ORDERS / "textcontract.yaml"), "--format", "sarif"]
    base, target = tmp_path / "base.sarif", tmp_path / "against-baseline.sarif"
    documents = [str(ORDERS / "order-1002.md"), str(ORDERS / "order-1003.json")]
    runner = CliRunner()
    assert runner.invoke(app, ["check", documents[0], *contract, "-o", str(base)]).exit_code == 1
    arguments = ["check", *documents, *contract, "--baseline", str(base), "-o", str(target)]
    assert runner.invoke(app, arguments).exit_code == 1  # order-1003's finding is new
    states = [r["baselineState"] for r in json.loads(target.read_text())["runs"][0]["results"]]
    assert states == ["unchanged"] * 3 + ["new"]
    return target


def test_the_log_is_valid_against_the_oasis_schema(tmp_path: Path) -> None:
    assert schema_errors(render()) == []
    assert schema_errors(json.loads(real_run(tmp_path).read_text(encoding="utf-8"))) == []
    assert schema_errors(json.loads(baseline_run(tmp_path).read_text(encoding="utf-8"))) == []


def test_the_schema_check_can_fail() -> None:
    log = render()
    log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0
    log["runs"][0]["columnKind"] = "bytes"
    assert len(schema_errors(log)) == 2


def _multitool(tool: Path, paths: list[Path], out: Path) -> list[tuple[str, str, str]]:
    """``(rule, level, file)`` of every result of the Multitool's default rule set."""
    completed = subprocess.run(
        [str(tool), "validate", *map(str, paths), "--output", str(out), "--log", "ForceOverwrite"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    found = []
    for run in json.loads(out.read_text(encoding="utf-8-sig"))["runs"]:
        for result in run.get("results", []):
            uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            found.append((result["ruleId"], result.get("level", "warning"), uri))
    return found


def test_the_sarif_multitool_finds_nothing_to_report(tmp_path: Path, sarif_multitool: Path) -> None:
    built = tmp_path / "built.sarif"
    built.write_text(json.dumps(render()), encoding="utf-8")
    broken = render()
    broken["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0
    (tmp_path / "broken.sarif").write_text(json.dumps(broken), encoding="utf-8")
    found = _multitool(
        sarif_multitool,
        [built, real_run(tmp_path), baseline_run(tmp_path), tmp_path / "broken.sarif"],
        tmp_path / "out",
    )
    serious = [(rule, file) for rule, level, file in found if level in ("error", "warning")]
    # the deliberately broken copy proves the tool was listening; the real logs are clean
    assert serious
    assert all(file.endswith("broken.sarif") for _, file in serious)
    assert ("JSON1008", "error") in {(rule, level) for rule, level, _ in found}


def test_one_run_with_the_driver_the_spec_names() -> None:
    log = render()
    assert log["version"] == "2.1.0"
    (run,) = log["runs"]
    driver = run["tool"]["driver"]
    assert (driver["name"], driver["version"]) == ("textcontract", "0.1.0")
    assert driver["informationUri"].startswith("https://")
    assert [rule["id"] for rule in driver["rules"]] == [rule.id for rule in RULES]
    refund = driver["rules"][1]
    assert refund["shortDescription"]["text"] == "A shipping e-mail never promises a refund."
    assert refund["properties"] == {
        "type": "ForbiddenPattern",
        "kind": "heuristic",
        "severity": "high",
        "enforcement": "blocking",
    }
    assert driver["rules"][2]["shortDescription"]["text"] == "RequiredPattern"  # no description
    assert run["columnKind"] == "unicodeCodePoints"
    assert run["automationDetails"]["id"] == "textcontract/order-confirmation/"


def test_one_result_per_check_not_satisfied_with_its_level() -> None:
    results = render()["runs"][0]["results"]
    got = [(r["ruleId"], r["properties"]["status"], r["level"]) for r in results]
    assert got == [
        ("claims-match-order", "violated", "error"),
        ("no-refund-promise", "violated", "error"),
        ("subject-names-order", "error", "error"),
        ("tone", "violated", "warning"),  # advisory
        ("status-shipped", "undetermined", "note"),
        ("links", "violated", "error"),
        # block_heuristics: false makes the second document's heuristic violation advisory
        ("no-refund-promise", "violated", "warning"),
    ]
    assert results[0]["message"]["text"] == (
        "claim order.total = 24.5, but snapshot 'current' has 25.5"
    )
    assert results[0]["properties"] == {
        "status": "violated",
        "code": "CLAIM_STATE_MISMATCH",
        "scope": "surface:body",
    }
    assert [r["ruleIndex"] for r in results] == [0, 1, 2, 3, 4, 5, 1]


def _where(result: dict[str, Any]) -> tuple[str, dict[str, int]]:
    (location,) = result["locations"]
    physical = location["physicalLocation"]
    return physical["artifactLocation"]["uri"], physical["region"]


def test_regions_come_from_locations_else_the_surfaces_first_line() -> None:
    results = render()["runs"][0]["results"]
    where = [_where(result) for result in results]
    uri = "mail/order-1002.md"  # the report's source wins over the name given
    assert where[1] == (uri, {"startLine": 9, "startColumn": 20, "endLine": 9, "endColumn": 30})
    assert where[5] == (uri, {"startLine": 9, "startColumn": 40, "endLine": 10, "endColumn": 9})
    assert where[2] == (uri, {"startLine": 3})  # subject: the line its value starts on
    assert where[0] == (uri, {"startLine": 1})  # a claim has no text location
    assert where[4] == (uri, {"startLine": 1})  # a state scope
    assert where[6] == ("replies/order%207%2C%20draft.json", {"startLine": 1})


def test_artifact_uris_are_relative_posix_and_encoded() -> None:
    assert artifact_uri("/work/docs/a b.md", "/work") == "docs/a%20b.md"
    assert artifact_uri("/elsewhere/x.md", "/work/repo") == "../../elsewhere/x.md"
    assert artifact_uri("./docs/x.md", "/work") == "docs/x.md"
    assert artifact_uri("<stdin>", "/work") == "%3Cstdin%3E"
    assert artifact_uri("c:x.md", "/work") == "c%3Ax.md"  # never read as a URI scheme


def test_fingerprints_follow_rule_code_scope_and_match() -> None:
    results = render()["runs"][0]["results"]
    prints = [r["partialFingerprints"]["textcontract/v1"] for r in results]
    assert len(set(prints)) == len(prints)
    assert (
        render("/elsewhere")["runs"][0]["results"][1]["partialFingerprints"]
        == (results[1]["partialFingerprints"])
    )
    check = {"rule_id": "r", "code": "C", "scope": "surface:body", "evidence": [{"match": "x"}]}
    moved = {**check, "evidence": [{"match": "x", "location": {"start": [9, 9]}}]}
    assert fingerprint(check) == fingerprint(moved)  # same finding on another line
    assert fingerprint(check) != fingerprint({**check, "evidence": [{"match": "y"}]})


def test_the_log_is_byte_deterministic(tmp_path: Path) -> None:
    assert real_run(tmp_path).read_bytes() == real_run(tmp_path).read_bytes()


def _check(document: str, output_format: str) -> tuple[int, str]:
    result = CliRunner().invoke(
        app,
        [
            "check",
            str(ORDERS / document),
            "--context",
            str(ORDERS / (document.rsplit(".", 1)[0] + ".context.json")),
            "--contract",
            str(ORDERS / "textcontract.yaml"),
            "--format",
            output_format,
        ],
    )
    return result.exit_code, result.stdout


@pytest.mark.parametrize("document", ["order-1001.md", "order-1002.md", "order-1003.json"])
def test_a_real_run_has_a_result_per_check_not_satisfied(document: str) -> None:
    code, out = _check(document, "json")
    sarif_code, sarif = _check(document, "sarif")
    report = json.loads(out)
    results = json.loads(sarif)["runs"][0]["results"]
    expected = [c for c in report["checks"] if c["status"] != "satisfied"]
    assert [(r["ruleId"], r["properties"]["code"]) for r in results] == [
        (c["rule_id"], c["code"]) for c in expected
    ]
    assert sarif_code == code
