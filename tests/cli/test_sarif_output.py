"""``check --sarif-output FILE``: the SARIF log of the same run beside any ``--format`` (the
GitHub Action checks once when a SARIF log is asked for too). The format's output is the
bytes it is without the option; the log is the bytes ``--format sarif --output`` writes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from textcontract.cli import app

ROOT = Path(__file__).resolve().parents[2]
CONTRACT = "fixtures/orders/textcontract.yaml"
DOCUMENTS = ["fixtures/orders/order-1001.md", "fixtures/orders/order-1002.md"]
FORMATS = ["text", "json", "jsonl", "junit", "github", "sarif"]


@pytest.fixture(autouse=True)
def _at_the_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)


def _check(*arguments: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["check", *arguments], env={"COLUMNS": "100"})
    return result.exit_code, result.stdout, result.stderr


def _alone(tmp_path: Path, *arguments: str) -> bytes:
    """The log ``--format sarif --output`` writes for the same arguments."""
    log = tmp_path / "alone.sarif"
    assert _check(*arguments, "--format", "sarif", "--output", str(log))[0] in (0, 1)
    return log.read_bytes()


@pytest.mark.parametrize("output_format", FORMATS)
def test_every_format_is_unchanged_and_the_log_is_sarifs_own(
    tmp_path: Path, output_format: str
) -> None:
    arguments = [*DOCUMENTS, "--contract", CONTRACT]
    log = tmp_path / "run.sarif"
    code, out, err = _check(*arguments, "-f", output_format, "--sarif-output", str(log))
    assert (code, out, err) == _check(*arguments, "-f", output_format)
    assert code == 1
    assert log.read_bytes() == _alone(tmp_path, *arguments)
    results = json.loads(log.read_text(encoding="utf-8"))["runs"][0]["results"]
    assert {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results} == {
        "fixtures/orders/order-1002.md"
    }


def test_with_a_baseline_and_jobs_the_log_marks_each_finding(tmp_path: Path) -> None:
    baseline = tmp_path / "base.jsonl"
    earlier = _check(DOCUMENTS[1], "-c", CONTRACT, "-f", "jsonl", "-o", str(baseline))
    assert earlier[0] == 1
    log = tmp_path / "run.sarif"
    arguments = [*DOCUMENTS, "-c", CONTRACT, "--baseline", str(baseline), "--jobs", "2"]
    code, out, _ = _check(*arguments, "--sarif-output", str(log))
    assert code == 0  # every finding is in the baseline: nothing new rejects a document
    assert out.splitlines()[-1].endswith("0 new, 3 unchanged")
    results = json.loads(log.read_text(encoding="utf-8"))["runs"][0]["results"]
    assert [r["baselineState"] for r in results] == ["unchanged"] * 3
    assert log.read_bytes() == _alone(tmp_path, *arguments)


def test_a_batch_and_an_empty_run_write_their_logs(tmp_path: Path) -> None:
    log = tmp_path / "batch.sarif"
    code, _, _ = _check("--batch", "fixtures/batch/replies.jsonl", "-c", CONTRACT,
                        "-f", "jsonl", "--sarif-output", str(log))  # fmt: skip
    assert code == 1
    batch = ["--batch", "fixtures/batch/replies.jsonl", "-c", CONTRACT]
    assert log.read_bytes() == _alone(tmp_path, *batch)
    accepted = tmp_path / "accepted.sarif"
    assert _check(DOCUMENTS[0], "-c", CONTRACT, "--sarif-output", str(accepted))[0] == 0
    assert json.loads(accepted.read_text(encoding="utf-8"))["runs"][0]["results"] == []


def test_the_log_is_never_read_as_an_input(tmp_path: Path) -> None:
    folder = tmp_path / "mails"
    folder.mkdir()
    (folder / "a.md").write_text((ROOT / DOCUMENTS[1]).read_text(encoding="utf-8"), "utf-8")
    log = folder / "findings.json"  # a name a folder search would take for a document
    for _ in range(2):  # the second run finds the first's log in the folder, and skips it
        code, out, err = _check(str(folder), "-c", CONTRACT, "-q", "--sarif-output", str(log))
        assert (code, err) == (1, "")
        assert "1 document:" in out
    code, _, err = _check(str(log), "-c", CONTRACT, "--sarif-output", str(log))
    assert code == 2
    assert "this is the --sarif-output file of this run; it is never read as input" in err


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--output", "same.sarif", "--sarif-output", "same.sarif"],
         "--output and --sarif-output name the same file; give two files"),
        (["--sarif-output", "missing/dir/log.sarif"], "cannot write output"),
        (["--sarif-output", "logs/"], "names a folder"),
    ],
)  # fmt: skip
def test_a_log_that_cannot_be_written_is_refused_before_anything_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, arguments: list[str], message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = _check(str(ROOT / DOCUMENTS[1]), "-c", str(ROOT / CONTRACT), *arguments)
    assert (code, out) == (2, "")
    assert message in err
    assert sorted(os.listdir(tmp_path)) == []


def test_the_console_script_takes_it_on_its_fast_path(tmp_path: Path) -> None:
    log = tmp_path / "run.sarif"
    completed = subprocess.run(
        [sys.executable, "-m", "textcontract", "check", *DOCUMENTS, "-c", CONTRACT,
         "--format", "github", f"--sarif-output={log}"],
        cwd=ROOT, capture_output=True, text=True, check=False, timeout=120,
        env={**os.environ, "GITHUB_STEP_SUMMARY": ""},
    )  # fmt: skip
    assert completed.returncode == 1, completed.stderr
    assert completed.stdout.startswith("::error file=fixtures/orders/order-1002.md")
    assert log.read_bytes() == _alone(tmp_path, *DOCUMENTS, "--contract", CONTRACT)
