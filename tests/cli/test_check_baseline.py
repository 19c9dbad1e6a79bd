"""``check --baseline FILE`` (SPEC §21): findings marked ``new`` or ``unchanged`` against an
earlier run's json, jsonl or sarif output; the exit code counts only new findings that reject a
document; a bad FILE is exit 2 naming it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.formats.test_junit import read
from tests.formats.test_sarif import schema_errors
from textcontract.cli import app
from textcontract.model import Baseline

CONTRACT = """\
textcontract: 1
id: adopt
rules:
  - {id: no-refund, type: ForbiddenPattern, patterns: ['\\bmoney back\\b', '\\brefund\\b']}
  - {id: tone, type: ForbiddenPattern, patterns: ['!!+'], enforcement: advisory}
  - id: settled
    type: SettledPremise
    premises: {refund-offered: ['\\brefund\\b'], voucher-offered: ['\\brefund\\b']}
"""

OLD = "Hello,\n\nYour money back is on its way.\n"
CLEAN = "Hello,\n\nYour parcel is on its way.\n"


@pytest.fixture
def corpus(tmp_path: Path) -> Iterator[Path]:
    (tmp_path / "textcontract.yaml").write_text(CONTRACT, encoding="utf-8")
    (tmp_path / "mails").mkdir()
    (tmp_path / "mails" / "a.md").write_text(OLD, encoding="utf-8")
    (tmp_path / "mails" / "b.md").write_text(CLEAN, encoding="utf-8")
    cwd = Path.cwd()
    os.chdir(tmp_path)
    try:
        yield tmp_path
    finally:
        os.chdir(cwd)


def _check(*arguments: str, code: int | None = None) -> str:
    result = CliRunner().invoke(app, ["check", *arguments], env={"COLUMNS": "200"})
    if code is not None:
        assert result.exit_code == code, result.output
    return result.output


def _baseline(output_format: str = "json", name: str = "base") -> str:
    path = f"{name}.{output_format}"
    _check("mails", "--format", output_format, "--output", path, code=1)
    return path


def _states(output: str) -> list[tuple[str, str, str]]:
    """``(source, rule id, state)`` of every finding of a jsonl run."""
    found = []
    for line in output.splitlines():
        report = json.loads(line)
        for check in report["checks"]:
            if check["status"] != "satisfied":
                found.append((report["source"], check["rule_id"], check["baseline"]))
    return found


@pytest.mark.usefixtures("corpus")
@pytest.mark.parametrize("output_format", ["json", "jsonl", "sarif"])
def test_an_unchanged_corpus_passes_against_its_own_baseline(output_format: str) -> None:
    path = _baseline(output_format)
    assert _states(_check("mails", "--baseline", path, "-f", "jsonl", code=0)) == [
        ("mails/a.md", "no-refund", "unchanged")
    ]
    text = _check("mails", "--baseline", path, code=0)
    assert "mails/a.md: REJECTED" in text  # accepted stays the contract's verdict
    assert text.splitlines()[-1].endswith("; 0 new, 1 unchanged")


def test_fingerprints_do_not_move_when_lines_move(corpus: Path) -> None:
    path = _baseline()
    before = json.loads(Path(path).read_text(encoding="utf-8"))
    (corpus / "mails" / "a.md").write_text("Intro\n\n\n" + OLD, encoding="utf-8")
    after = json.loads(_check("mails", "--baseline", path, "-f", "json", code=0))
    old, new = (reports[0]["checks"][0] for reports in (before, after))
    assert old["evidence"][0]["location"]["start"] == [3, 6]
    assert new["evidence"][0]["location"]["start"] == [6, 6]
    assert new["baseline"] == "unchanged"
    # the SARIF prints of both runs agree too
    sarif = json.loads(_check("mails", "-f", "sarif", code=1))
    prints = [r["partialFingerprints"] for r in sarif["runs"][0]["results"]]
    baseline_sarif = _baseline("sarif", "again")
    assert prints == [
        r["partialFingerprints"]
        for r in json.loads(Path(baseline_sarif).read_text(encoding="utf-8"))["runs"][0]["results"]
    ]


def test_a_new_rejecting_finding_fails_the_run_and_is_counted(corpus: Path) -> None:
    path = _baseline()
    (corpus / "mails" / "b.md").write_text(CLEAN + "A refund, too.\n", encoding="utf-8")
    output = _check("mails", "--baseline", path, "-f", "jsonl", code=1)
    assert _states(output) == [
        ("mails/a.md", "no-refund", "unchanged"),
        ("mails/b.md", "no-refund", "new"),
    ]
    reports = [json.loads(line) for line in output.splitlines()]
    assert [report["baseline"] for report in reports] == [
        {"new": 0, "unchanged": 1},
        {"new": 1, "unchanged": 0},
    ]
    assert list(reports[1])[list(reports[1]).index("counts") + 1] == "baseline"
    summary = _check("mails", "--baseline", path, code=1).splitlines()
    assert summary[-1].endswith("; 1 new, 1 unchanged")
    assert any(line.strip().endswith("surface:body  new") for line in summary)


def test_a_new_advisory_finding_does_not_fail_the_run(corpus: Path) -> None:
    path = _baseline()
    (corpus / "mails" / "b.md").write_text(CLEAN + "Thanks!!\n", encoding="utf-8")
    assert _states(_check("mails", "--baseline", path, "-f", "jsonl", code=0))[1:] == [
        ("mails/b.md", "tone", "new")
    ]


def test_sources_are_compared_as_paths_relative_to_the_current_folder(corpus: Path) -> None:
    path = _baseline()
    found = _states(_check(str(corpus / "mails"), "--baseline", path, "-f", "jsonl", code=0))
    assert [state for _, _, state in found] == ["unchanged"]
    found = _states(_check("./mails/a.md", "--baseline", path, "-f", "jsonl", code=0))
    assert [state for _, _, state in found] == ["unchanged"]


def test_a_duplicate_finding_beyond_the_baseline_count_is_new(corpus: Path) -> None:
    """Two closed premises whose patterns match the same word: two findings of one print."""
    (corpus / "mails" / "b.md").write_text("A refund for you.\n", encoding="utf-8")
    one = {"states": {"current": {}}, "closed_premises": ["refund-offered"]}
    both = {"states": {"current": {}}, "closed_premises": ["refund-offered", "voucher-offered"]}
    context = corpus / "mails" / "b.context.json"
    context.write_text(json.dumps(one), encoding="utf-8")
    _check("mails/b.md", "-f", "json", "-o", "base.json", code=1)
    context.write_text(json.dumps(both), encoding="utf-8")
    output = _check("mails/b.md", "--baseline", "base.json", "-f", "jsonl", code=1)
    assert _states(output) == [
        ("mails/b.md", "no-refund", "unchanged"),
        ("mails/b.md", "settled", "unchanged"),
        ("mails/b.md", "settled", "new"),
    ]


def test_sarif_marks_baseline_state_and_stays_valid(corpus: Path) -> None:
    path = _baseline("sarif")
    (corpus / "mails" / "b.md").write_text(CLEAN + "A refund, too.\n", encoding="utf-8")
    log: dict[str, Any] = json.loads(_check("mails", "--baseline", path, "-f", "sarif", code=1))
    assert schema_errors(log) == []
    results = log["runs"][0]["results"]
    assert [(r["ruleId"], r["baselineState"]) for r in results] == [
        ("no-refund", "unchanged"),
        ("no-refund", "new"),
    ]


def test_junit_skips_unchanged_failures_and_stays_valid(corpus: Path, tmp_path: Path) -> None:
    path = _baseline()
    (corpus / "mails" / "b.md").write_text(CLEAN + "A refund, too.\n", encoding="utf-8")
    xml = read(_check("mails", "--baseline", path, "-f", "junit", code=1), tmp_path)
    suites = {suite.name: suite for suite in xml}
    assert (suites["mails/a.md"].failures, suites["mails/a.md"].skipped) == (0, 1)
    assert suites["mails/b.md"].failures == 1
    (skipped,) = [case for case in suites["mails/a.md"] if case.result]
    assert skipped.result[0].message.startswith("unchanged since the baseline: 1 forbidden")


def test_github_annotations_of_unchanged_findings_are_notices(corpus: Path) -> None:
    path = _baseline()
    (corpus / "mails" / "b.md").write_text(CLEAN + "A refund, too.\n", encoding="utf-8")
    lines = _check("mails", "--baseline", path, "-f", "github", code=1).splitlines()
    assert [line.split(" ", 1)[0] for line in lines] == ["::notice", "::error"]
    assert "title=no-refund FORBIDDEN_PATTERN (unchanged)::" in lines[0]


def test_a_batch_sarif_baseline_tells_its_cases_apart(corpus: Path) -> None:
    cases = [{"id": "r1", "document": OLD}, {"id": "r2", "document": CLEAN}]
    batch = corpus / "replies.jsonl"
    batch.write_text("".join(json.dumps(case) + "\n" for case in cases), encoding="utf-8")
    _check("--batch", "replies.jsonl", "-f", "sarif", "-o", "base.sarif", code=1)
    results = json.loads(Path("base.sarif").read_text(encoding="utf-8"))["runs"][0]["results"]
    assert [r["properties"]["source"] for r in results] == ["r1"]
    cases[1]["document"] = OLD  # the same finding in the other case is new
    batch.write_text("".join(json.dumps(case) + "\n" for case in cases), encoding="utf-8")
    output = _check("--batch", "replies.jsonl", "--baseline", "base.sarif", "-f", "jsonl", code=1)
    assert _states(output) == [("r1", "no-refund", "unchanged"), ("r2", "no-refund", "new")]


FOREIGN = {
    "missing": None,
    "folder": None,
    "not-json.json": "# notes\n",
    "empty.jsonl": "\n",
    "audit.json": json.dumps({"report_version": 2, "verdict": "PASS"}),
    "other-tool.sarif": json.dumps(
        {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "eslint"}}, "results": []}]}
    ),
    "bad-check.jsonl": json.dumps({"report_version": 1, "checks": [{"rule_id": 3}]}),
}


@pytest.mark.parametrize("name", sorted(FOREIGN))
def test_a_bad_baseline_is_exit_2_naming_it_and_writes_nothing(corpus: Path, name: str) -> None:
    content = FOREIGN[name]
    if name == "folder":
        (corpus / name).mkdir()
    elif content is not None:
        (corpus / name).write_text(content, encoding="utf-8")
    result = CliRunner().invoke(app, ["check", "mails", "--baseline", name, "-o", "out.json"])
    assert result.exit_code == 2
    (line,) = result.output.splitlines()
    assert line.startswith(f"error: {name}: ")
    assert not (corpus / "out.json").exists()


@pytest.mark.usefixtures("corpus")
def test_a_real_process_runs_the_baseline_on_the_fast_path() -> None:
    path = _baseline("jsonl")
    run = [sys.executable, "-m", "textcontract", "check", "mails", "--baseline", path, "-q"]
    env = {**os.environ, "COLUMNS": "200"}
    completed = subprocess.run(run, capture_output=True, text=True, env=env, check=False)
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.splitlines()[-1].endswith("; 0 new, 1 unchanged")
    completed = subprocess.run([*run[:-2], "missing.json"], capture_output=True, text=True)
    assert (completed.returncode, completed.stdout) == (2, "")
    assert completed.stderr.startswith("error: missing.json: cannot read file")


def test_baseline_counts_cover_each_earlier_finding_once() -> None:
    baseline = Baseline("/work")
    check = {"rule_id": "r", "code": "C", "scope": "$", "status": "violated", "evidence": []}
    baseline.add("/work/a.md", "x")
    from textcontract.model import finding_fingerprint

    baseline.add("./a.md", finding_fingerprint(check))
    satisfied = {**check, "status": "satisfied"}
    assert baseline.judge("a.md", [check, satisfied, check]) == ["unchanged", None, "new"]
    assert baseline.judge("a.md", [check]) == ["new"]  # already used by the first report
    assert baseline.judge(None, [check]) == ["new"]
    assert baseline.findings == 2
