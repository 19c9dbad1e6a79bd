"""``check`` points at the place in the file (SPEC §10, §12): SARIF regions, GitHub annotations
and text output of real runs, for a markdown body under front matter and for surfaces whose
text is a value written in the file (a front-matter scalar, a JSON string)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from textcontract.cli import app
from textcontract.cli._ci_check import emit_check_ci
from textcontract.contract import parse_contract_file
from textcontract.engine import evaluate
from textcontract.formats.check_findings import CheckedDocument
from textcontract.inputs import load_document_file
from textcontract.model import Context

CONTRACT = """\
textcontract: 1
id: locations
rules:
  - {id: no-refund, type: ForbiddenPattern, patterns: ['\\bmoney back\\b', '\\bfinal\\b']}
  - {id: links, type: LinkDomains, allowed: [shop.example], surfaces: [body]}
"""

# Line 9 of the file is the body's line 3; "money" starts at column 11 of it.
MARKDOWN = """\
---
surfaces:
  subject: "Get your MONEY BACK"
  note:
    text: |
      nothing here
---
Hello,

Or get your money back: https://evil.test/x
The ﬁnal word.
"""

JSON_DOCUMENT = (
    '{"surfaces": {\n'
    '  "body": {"text": "Hi.\\nYour MONEY BACK is near."},\n'
    '  "subject": "no money back"\n'
    "}}\n"
)


@pytest.fixture
def files(tmp_path: Path) -> Path:
    (tmp_path / "textcontract.yaml").write_text(CONTRACT, encoding="utf-8")
    (tmp_path / "mail.md").write_text(MARKDOWN, encoding="utf-8")
    (tmp_path / "reply.json").write_text(JSON_DOCUMENT, encoding="utf-8")
    return tmp_path


def _run(folder: Path, output_format: str, *, subprocess_run: bool = False) -> str:
    arguments = ["check", "mail.md", "reply.json", "--format", output_format]
    if subprocess_run:
        env = {k: v for k, v in os.environ.items() if k != "GITHUB_STEP_SUMMARY"}
        completed = subprocess.run(
            [sys.executable, "-m", "textcontract", *arguments],
            capture_output=True,
            text=True,
            cwd=folder,
            env={**env, "COLUMNS": "200"},
            check=False,
        )
        assert completed.returncode == 1, completed.stderr
        return completed.stdout
    cwd = Path.cwd()
    os.chdir(folder)
    try:
        result = CliRunner().invoke(app, arguments)
    finally:
        os.chdir(cwd)
    assert result.exit_code == 1, result.output
    return result.stdout


def _regions(log: dict[str, Any]) -> list[tuple[str, str, dict[str, int]]]:
    return [
        (
            result["ruleId"],
            result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            result["locations"][0]["physicalLocation"]["region"],
        )
        for result in log["runs"][0]["results"]
    ]


EXPECTED_REGIONS = [
    # the body under front matter: file lines, exact columns, end exclusive
    ("no-refund", "mail.md", {"startLine": 10, "startColumn": 13, "endLine": 10, "endColumn": 23}),
    # a front-matter scalar and a JSON string: the line where the value begins
    ("no-refund", "mail.md", {"startLine": 3}),
    ("links", "mail.md", {"startLine": 10, "startColumn": 25, "endLine": 10, "endColumn": 42}),
    ("no-refund", "reply.json", {"startLine": 2}),
    ("no-refund", "reply.json", {"startLine": 3}),
]


@pytest.mark.parametrize("subprocess_run", [False, True], ids=["cli-runner", "subprocess"])
def test_sarif_regions_point_into_the_file(files: Path, subprocess_run: bool) -> None:
    log = json.loads(_run(files, "sarif", subprocess_run=subprocess_run))
    assert _regions(log) == EXPECTED_REGIONS


def test_the_region_holds_what_was_matched(files: Path) -> None:
    log = json.loads(_run(files, "sarif"))
    lines = MARKDOWN.split("\n")
    region = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]
    line = lines[region["startLine"] - 1]
    assert line[region["startColumn"] - 1 : region["endColumn"] - 1] == "money back"


def test_the_body_location_is_in_file_lines_and_other_surfaces_in_their_own(files: Path) -> None:
    reports = [json.loads(line) for line in _run(files, "jsonl").splitlines()]
    mail, reply = (
        [
            item["location"]
            for check in report["checks"]
            for item in check["evidence"]
            if "location" in item
        ]
        for report in reports
    )
    assert mail == [
        {"surface": "body", "offsets": [20, 30], "start": [10, 13], "end": [10, 23]},
        # the ligature "ﬁ" is one character of the file, and the match covers it
        {"surface": "body", "offsets": [56, 60], "start": [11, 5], "end": [11, 9]},
        {"surface": "subject", "offsets": [9, 19], "start": [1, 10], "end": [1, 20]},
        {"surface": "body", "offsets": [32, 49], "start": [10, 25], "end": [10, 42]},
    ]
    assert reply == [
        {"surface": "body", "offsets": [9, 19], "start": [2, 6], "end": [2, 16]},
        {"surface": "subject", "offsets": [3, 13], "start": [1, 4], "end": [1, 14]},
    ]


@pytest.mark.parametrize("subprocess_run", [False, True], ids=["cli-runner", "subprocess"])
def test_github_annotations_point_into_the_file(files: Path, subprocess_run: bool) -> None:
    commands = _run(files, "github", subprocess_run=subprocess_run).splitlines()
    places = [command.split("::")[1].split(",title=")[0] for command in commands]
    assert places == [
        "error file=mail.md,line=10,endLine=10,col=13,endColumn=22",
        "error file=mail.md,line=3,endLine=3",
        "error file=mail.md,line=10,endLine=10,col=25,endColumn=41",
        "error file=reply.json,line=2,endLine=2",
        "error file=reply.json,line=3,endLine=3",
    ]


@pytest.mark.parametrize("subprocess_run", [False, True], ids=["cli-runner", "subprocess"])
def test_text_output_shows_where_each_located_check_is(
    files: Path, subprocess_run: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    out = _run(files, "text", subprocess_run=subprocess_run)
    flat = " ".join(out.split())
    assert "mail.md:10:13" in flat
    assert "mail.md:11:5" not in flat  # one location per check: its first located item
    assert "mail.md:3 (surface subject, 1:10)" in flat
    assert "mail.md:10:25" in flat
    assert "reply.json:2 (surface body, 2:6)" in flat
    assert "reply.json:3 (surface subject, 1:4)" in flat


def test_ci_formats_without_the_documents_fall_back_to_the_file_name(
    files: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A caller that has reports only (no documents): the body of a markdown file is still in
    file lines, every other surface at line 1."""
    monkeypatch.chdir(files)
    parsed = parse_contract_file(files / "textcontract.yaml", "textcontract.yaml")
    document = load_document_file(files / "mail.md", "mail.md")
    report = evaluate(parsed, document, Context.empty())
    emit_check_ci("github", parsed, [CheckedDocument("mail.md", report.to_dict())], None)
    places = [line.split(",title=")[0] for line in capsys.readouterr().out.splitlines()]
    assert places == [
        "::error file=mail.md,line=10,endLine=10,col=13,endColumn=22",
        "::error file=mail.md,line=1,endLine=1",
        "::error file=mail.md,line=10,endLine=10,col=25,endColumn=41",
    ]
