"""Evidence as written (SPEC §21): every format of ``check`` quotes what the user wrote —
``Friday``, a URL with its capitals, fullwidth and ligature characters as they stand — and
names a rule pack's long pattern by its number and first characters, not whole."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from tests.formats.test_junit import read
from tests.formats.test_sarif import schema_errors
from textcontract.cli import app
from textcontract.model import SHOWN_PATTERN_LENGTH

CONTRACT = """\
textcontract: 1
id: as-written
include: [builtin:llm-boilerplate]
rules:
  - id: no-promises
    type: ForbiddenPattern
    patterns: ['\\bfriday\\b', '\\bfree\\b', '\\bfinal\\b']
  - {id: tracking, type: RequiredPattern, patterns: ['https://track\\.example\\.net/\\S+']}
  - {id: links, type: LinkDomains, allowed: [track.example.net]}
"""

DOCUMENT = """\
Delivery by Friday, ＦＲＥＥ and ﬁnal.
Track it: https://Track.Example.NET/PW77812002 or https://Evil.Example/Deal
As an AI language model, I cannot promise more.
"""

WRITTEN = ("'Friday'", "ＦＲＥＥ", "ﬁnal", "https://Evil.Example/Deal")
NORMALIZED = ("'friday'", "'free'", "'final'", "https://evil.example/deal")


def _long_pattern() -> str:
    """The pack pattern that matches the document's "As an AI language model," (its first)."""
    pack = Path(__file__).resolve().parents[2] / "textcontract/packs/llm-boilerplate.yaml"
    source: str = yaml.safe_load(pack.read_text(encoding="utf-8"))["rules"][0]["patterns"][0]
    assert len(source) > SHOWN_PATTERN_LENGTH
    return source


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "textcontract.yaml").write_text(CONTRACT, encoding="utf-8")
    (tmp_path / "mail.md").write_text(DOCUMENT, encoding="utf-8")
    return tmp_path


def _check(folder: Path, output_format: str) -> str:
    cwd = Path.cwd()
    os.chdir(folder)
    try:
        result = CliRunner().invoke(
            app, ["check", "mail.md", "--format", output_format], env={"COLUMNS": "200"}
        )
    finally:
        os.chdir(cwd)
    assert result.exit_code == 1, result.output
    return result.output


def test_json_evidence_quotes_the_original_beside_the_normalized_match(folder: Path) -> None:
    report = json.loads(_check(folder, "json"))
    items = {
        check["rule_id"]: check["evidence"]
        for check in report["checks"]
        if check["rule_id"] in ("no-promises", "tracking", "links")
    }
    assert [(item["match"], item["normalized"]) for item in items["no-promises"]] == [
        ("Friday", "friday"),
        ("ＦＲＥＥ", "free"),
        ("ﬁnal", "final"),
    ]
    assert items["no-promises"][0]["excerpt"] == (
        "Delivery by Friday, ＦＲＥＥ and ﬁnal. Track it: https://Track…"
    )
    (tracking,) = items["tracking"]
    assert tracking["match"] == "https://Track.Example.NET/PW77812002"
    assert tracking["normalized"] == "https://track.example.net/pw77812002"
    (link,) = items["links"]
    assert link["link"] == "https://Evil.Example"
    assert "or https://Evil.Example/Deal" in link["excerpt"]


def _shown(output_format: str, output: str) -> str:
    """What a person reads of the output: a SARIF log's messages, other formats whole."""
    if output_format != "sarif":
        return output
    log: dict[str, Any] = json.loads(output)
    assert schema_errors(log) == []
    return "\n".join(result["message"]["text"] for result in log["runs"][0]["results"])


@pytest.mark.parametrize("output_format", ["text", "github", "junit"])
def test_every_format_with_excerpts_quotes_what_was_written(
    folder: Path, output_format: str
) -> None:
    output = _check(folder, output_format)
    for written in WRITTEN:
        assert written in output
    for normalized in NORMALIZED:
        assert normalized not in output


def test_sarif_messages_quote_what_was_written(folder: Path) -> None:
    messages = _shown("sarif", _check(folder, "sarif"))
    assert "first 'Friday'" in messages
    assert "friday'" not in messages


@pytest.mark.parametrize("output_format", ["text", "github", "sarif", "junit"])
def test_a_long_pattern_is_named_by_its_number_and_first_characters(
    folder: Path, output_format: str
) -> None:
    pattern = _long_pattern()
    output = _shown(output_format, _check(folder, output_format))
    assert pattern not in output
    assert f"(pattern #1 '{pattern[:SHOWN_PATTERN_LENGTH]}…')" in output
    assert "first 'As an AI language model'" in output


def test_junit_evidence_lines_shorten_the_pattern_and_stay_valid(
    folder: Path, tmp_path: Path
) -> None:
    xml = read(_check(folder, "junit"), tmp_path)
    (case,) = [case for suite in xml for case in suite if case.result and "llm" in case.classname]
    (failure,) = case.result
    evidence = [json.loads(line) for line in (failure.text or "").splitlines()[2:]]
    assert [item["pattern"] for item in evidence] == [_long_pattern()[:SHOWN_PATTERN_LENGTH] + "…"]
    assert evidence[0]["match"] == "As an AI language model"


def test_the_report_keeps_the_whole_pattern(folder: Path) -> None:
    report = json.loads(_check(folder, "json"))
    (boilerplate,) = [
        c for c in report["checks"] if c["status"] == "violated" and "llm" in c["rule_id"]
    ]
    assert boilerplate["evidence"][0]["pattern"] == _long_pattern()
    assert boilerplate["message"].startswith(
        "1 forbidden match on surface 'body', first 'As an AI language model' (pattern #"
    )


def test_text_output_of_a_real_process_quotes_the_original(folder: Path) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "textcontract", "check", "mail.md"],
        capture_output=True,
        text=True,
        cwd=folder,
        env={**os.environ, "COLUMNS": "200"},
        check=False,
    )
    assert completed.returncode == 1, completed.stderr
    assert "first 'Friday' (pattern '\\bfriday\\b')" in completed.stdout
    assert "evidence: Delivery by Friday, ＦＲＥＥ and ﬁnal." in completed.stdout
