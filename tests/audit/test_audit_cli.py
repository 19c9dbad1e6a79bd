"""``textcontract audit`` through typer's CliRunner (on a local app) and one real subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from tests.audit.audit_builders import (
    REFUND,
    REWORD,
    SHIPPED,
    case_text,
    preserve,
    violation,
    write_corpus,
)
from textcontract.cli._audit import register

runner = CliRunner()


def local_app() -> typer.Typer:
    """The audit command on an app of its own (independent of the main app's wiring)."""
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)

    @app.callback()
    def _root() -> None:
        """textcontract (test app)."""

    register(app)
    return app


def invoke(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(local_app(), ["audit", *args])
    return result.exit_code, result.stdout, result.stderr


def test_shipped_corpus_json() -> None:
    code, out, _ = invoke(str(SHIPPED), "--format", "json")
    assert code == 0, out
    report = json.loads(out)
    assert report["audit_version"] == 2
    assert report["contract"]["id"] == "order-confirmation"
    assert str(SHIPPED) not in out
    assert "/work" not in out


def test_shipped_corpus_text() -> None:
    code, out, _ = invoke(str(SHIPPED))
    assert code == 0
    for expected in (
        "detection",
        "18/23",
        "preservation",
        "6/7",
        "canaries",
        "verdict: CONCERNS",
        "oracle-unreached",
        "undetected faults",
        "order-1001/wrong-parcel-link",
        "valid variations not preserved",
        "excluded (in no figure)",
        "invalid-baseline",
    ):
        assert expected in out, expected


def test_a_missed_threshold_exits_1() -> None:
    code, _, _ = invoke(str(SHIPPED), "--min-detection", "0.9", "--format", "json")
    assert code == 1
    code, _, _ = invoke(str(SHIPPED), "--min-preservation", "0.95", "--format", "json")
    assert code == 1


def test_a_null_figure_never_meets_a_threshold(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path, {"c1.yaml": case_text(violation("v1", REFUND))})
    code, out, _ = invoke(str(corpus), "--min-preservation", "0")
    assert code == 1
    assert "not met (null figure: nothing measured)" in " ".join(out.split())


def test_a_fail_verdict_exits_1(tmp_path: Path) -> None:
    nothing = "{replace: [{find: today, with: tomorrow}]}"
    corpus = write_corpus(
        tmp_path, {"c1.yaml": case_text(violation("v1", nothing, extra="  severity: high\n"))}
    )
    code, out, _ = invoke(str(corpus), "--format", "json")
    assert code == 1
    assert json.loads(out)["verdict"]["value"] == "FAIL"


def test_input_errors_exit_2_with_file_and_line_and_write_nothing(tmp_path: Path) -> None:
    corpus = write_corpus(
        tmp_path,
        {
            "c1.yaml": case_text(
                preserve("p1", "{replace: [{find: zzz, with: y}]}") + preserve("p1", REWORD)
            )
        },
    )
    target = tmp_path / "out.json"
    artifacts = tmp_path / "artifacts"
    code, out, err = invoke(
        str(corpus), "--output", str(target), "--artifacts", str(artifacts), "--format", "json"
    )
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 2
    assert lines[0].startswith(f"error: {corpus}/c1.yaml:15:9: variants[1].id: duplicate")
    assert lines[1].startswith(f"error: {corpus}/c1.yaml:14:")
    assert "replace finds nothing" in lines[1]
    assert not target.exists()
    assert not artifacts.exists()


def test_bad_option_values_are_usage_errors() -> None:
    assert invoke(str(SHIPPED), "--min-detection", "1.5")[0] == 2
    assert invoke(str(SHIPPED), "--jobs", "0")[0] == 2


def test_missing_folder_exits_2(tmp_path: Path) -> None:
    code, _, err = invoke(str(tmp_path / "nope"))
    assert code == 2
    assert "the corpus folder does not exist" in err


def test_output_file_artifacts_and_records(tmp_path: Path) -> None:
    corpus = write_corpus(
        tmp_path, {"c1.yaml": case_text(violation("v1", REFUND) + preserve("p1", REWORD))}
    )
    target = tmp_path / "report.json"
    code, out, _ = invoke(
        str(corpus),
        "--format",
        "json",
        "--output",
        str(target),
        "--artifacts",
        str(tmp_path / "art"),
        "--records",
        str(tmp_path / "rec"),
    )
    assert code == 0
    assert out == ""
    report = json.loads(target.read_text(encoding="utf-8"))
    assert [v["variant"] for v in report["variants"]] == ["v1", "p1"]
    artifact = json.loads((tmp_path / "art" / "c1" / "v1.json").read_text(encoding="utf-8"))
    assert artifact["probe"]["probe_id"] == "c1/v1"
    assert (tmp_path / "art" / "c1" / "p1.json").is_file()
    record = json.loads((tmp_path / "rec" / "c1" / "v1" / "trial-0.json").read_text("utf-8"))
    assert record["outcomes"][0]["state"] == "caught"
    assert not list(tmp_path.glob(".report.json.*"))


def test_text_output_to_a_file_has_no_terminal_codes(tmp_path: Path) -> None:
    target = tmp_path / "report.txt"
    code, _, _ = invoke(str(SHIPPED), "--output", str(target))
    assert code == 0
    text = target.read_text(encoding="utf-8")
    assert "\x1b[" not in text
    assert "verdict: CONCERNS" in text


def test_contract_option_and_allow_missing_rules(tmp_path: Path) -> None:
    expect = "{rule: retired, code: X, scope: '$'}"
    corpus = write_corpus(
        tmp_path,
        {"c1.yaml": case_text(violation("v1", REFUND, expect))},
        audit="contract: nowhere.yaml\n",
    )
    contract = str(tmp_path / "contract.yaml")
    code, _, err = invoke(str(corpus), "--contract", contract)
    assert code == 2
    assert "no rule 'retired'" in err
    code, out, _ = invoke(
        str(corpus), "--contract", contract, "--allow-missing-rules", "-f", "json"
    )
    assert json.loads(out)["variants"][0]["reason"] == "not-applicable"


@pytest.mark.parametrize("jobs", ["2"])
def test_real_subprocess_with_jobs(jobs: str) -> None:
    script = (
        "import typer\n"
        "from textcontract.cli._audit import register\n"
        "app = typer.Typer(add_completion=False)\n"
        "@app.callback()\n"
        "def root() -> None: pass\n"
        "register(app)\n"
        "app()\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", script, "audit", str(SHIPPED), "--format", "json", "--jobs", jobs],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stderr == ""
    in_process = invoke(str(SHIPPED), "--format", "json")[1]
    assert completed.stdout == in_process
