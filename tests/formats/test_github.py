"""``--format github``: workflow commands the Actions runner reads back exactly, on the right
lines, and the job summary appended to ``$GITHUB_STEP_SUMMARY``."""

from __future__ import annotations

import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from tests.formats.actions_runner import DOTNET_WHITESPACE, parse_v2
from tests.formats.ci_builders import FIXTURES, checked_documents, small_audit
from textcontract.cli import app
from textcontract.formats.github import (
    workflow_command,
    write_audit_annotations,
    write_check_annotations,
)

ANNOTATIONS = {"error", "warning", "notice"}


def runner_parse(line: str) -> tuple[str, dict[str, str], str] | None:
    """What actions/runner's ``ActionCommand.TryParseV2`` makes of one output line, when it
    is an annotation (the model: tests/formats/actions_runner.py)."""
    parsed = parse_v2(line)
    return parsed if parsed is not None and parsed[0] in ANNOTATIONS else None


def parsed_lines(text: str) -> list[tuple[str, dict[str, str], str]]:
    # the runner reads lines the way .NET's ReadLine splits them: CR, LF or CRLF only
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return [parsed for parsed in map(runner_parse, lines) if parsed is not None]


VALUES = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=1, max_size=30
) | st.sampled_from(["%", "%25", "%0A", "a,b", "a:b", "::", "x=y", "\r\n", "%3A%2C", "%%0D"])


@settings(max_examples=300, deadline=None)
@given(message=VALUES, title=VALUES, file=VALUES)
def test_the_runner_reads_back_exactly_what_was_written(
    message: str, title: str, file: str
) -> None:
    line = workflow_command("error", [("file", file), ("line", 3), ("title", title)], message)
    assert line.endswith("\n")
    assert "\n" not in line[:-1]
    assert "\r" not in line
    (parsed,) = parsed_lines(line)
    expected = {
        "file": file.strip(DOTNET_WHITESPACE),
        "line": "3",
        "title": title.strip(DOTNET_WHITESPACE),
    }
    assert parsed == ("error", {k: v for k, v in expected.items() if v}, message)


def test_escaping_matches_the_toolkit() -> None:
    line = workflow_command("warning", [("file", "a,b:c%.md"), ("title", "r C")], "50%\r\ndone")
    assert line == "::warning file=a%2Cb%3Ac%25.md,title=r C::50%25%0D%0Adone\n"
    assert workflow_command("notice", [], "m") == "::notice::m\n"


def check_lines() -> list[tuple[str, dict[str, str], str]]:
    out = StringIO()
    write_check_annotations(checked_documents(), "/work", out.write)
    return parsed_lines(out.getvalue())


def test_one_annotation_per_finding_with_its_level_and_place() -> None:
    got = [(name, props) for name, props, _ in check_lines()]
    body = {"file": "mail/order-1002.md"}
    assert got == [
        (
            "error",
            {
                **body,
                "line": "1",
                "endLine": "1",
                "title": "claims-match-order CLAIM_STATE_MISMATCH",
            },
        ),
        (
            "error",
            {
                **body,
                "line": "9",
                "endLine": "9",
                "col": "20",
                "endColumn": "29",
                "title": "no-refund-promise NO_REFUND_PROMISE",
            },
        ),
        (
            "error",
            {**body, "line": "3", "endLine": "3", "title": "subject-names-order PATTERN_TIMEOUT"},
        ),
        (
            "warning",
            {
                **body,
                "line": "8",
                "endLine": "8",
                "col": "7",
                "endColumn": "8",
                "title": "tone FORBIDDEN_PATTERN",
            },
        ),
        (
            "notice",
            {**body, "line": "1", "endLine": "1", "title": "status-shipped FACT_UNAVAILABLE"},
        ),
        # a span over two lines: no columns (the runner takes them on one line only)
        ("error", {**body, "line": "9", "endLine": "10", "title": "links LINK_DOMAIN"}),
        (
            "warning",
            {
                "file": "replies/order 7, draft.json",
                "line": "1",
                "endLine": "1",
                "title": "no-refund-promise NO_REFUND_PROMISE",
            },
        ),
    ]


def test_the_message_is_the_checks_message_scope_and_excerpt() -> None:
    messages = [message for _, _, message in check_lines()]
    assert messages[1] == (
        "1 forbidden match on surface 'body', first 'Money back'\nscope: surface:body\n"
        "excerpt: … you will get your Money back, no questions asked…"
    )
    assert messages[5].startswith("1 of 2 http(s) links")
    assert "wraps\nonto the next line" in messages[5]


def _check_run(summary: Path | None) -> subprocess.CompletedProcess[str]:
    orders = FIXTURES / "orders"
    env = {k: v for k, v in os.environ.items() if k != "GITHUB_STEP_SUMMARY"}
    if summary is not None:
        env["GITHUB_STEP_SUMMARY"] = str(summary)
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "textcontract",
            "check",
            "fixtures/orders/order-1002.md",
            "fixtures/orders/order-1001.md",
            "--contract",
            str(orders / "textcontract.yaml"),
            "--format",
            "github",
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=FIXTURES.parent,
        check=False,
    )


def test_a_real_run_annotates_and_appends_the_summary(tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n", encoding="utf-8")
    completed = _check_run(summary)
    assert completed.returncode == 1, completed.stderr
    lines = parsed_lines(completed.stdout)
    assert len(lines) == len(completed.stdout.splitlines())
    # each document is checked against its paired X.context.json: order-1001 passes
    assert {props["file"] for _, props, _ in lines} == {"fixtures/orders/order-1002.md"}
    text = summary.read_text(encoding="utf-8")
    assert text.startswith("earlier step\n## textcontract check\n")
    assert "2 documents: 1 accepted, 1 rejected." in text
    assert "| fixtures/orders/order\\-1002.md |" not in text  # only what Markdown needs
    assert "| fixtures/orders/order-1002.md | **rejected** |" in text


def test_without_the_variable_nothing_is_appended(tmp_path: Path) -> None:
    completed = _check_run(None)
    assert completed.returncode == 1
    assert list(tmp_path.iterdir()) == []


def test_an_unwritable_summary_is_an_input_error(tmp_path: Path) -> None:
    completed = _check_run(tmp_path / "missing" / "summary.md")
    assert completed.returncode == 2
    assert "GITHUB_STEP_SUMMARY=" in completed.stderr
    assert "Traceback" not in completed.stderr


def test_audit_annotations_point_at_the_variants_and_rules() -> None:
    report, _ = small_audit()
    out = StringIO()
    places = {("c1", "total"): ("corpus/c1.yaml", 9), ("c1", "float-total"): ("corpus/c1.yaml", 20)}
    write_audit_annotations(report, places, {"no|pipes": ("contract.yaml", 14)}, out.write)
    got = [(name, props) for name, props, _ in parsed_lines(out.getvalue())]
    assert got == [
        ("error", {"file": "corpus/c1.yaml", "line": "9", "title": "c1/total undetected"}),
        (
            "warning",
            {"file": "corpus/c1.yaml", "line": "20", "title": "c1/float-total not-preserved"},
        ),
        ("warning", {"file": "contract.yaml", "line": "14", "title": "coverage gap: no|pipes"}),
    ]


def test_a_real_audit_annotates_case_files(tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    result = CliRunner().invoke(
        app,
        ["audit", "fixtures/mutations", "--format", "github"],
        env={"GITHUB_STEP_SUMMARY": str(summary)},
    )
    assert result.exit_code == 0, result.output
    lines = parsed_lines(result.stdout)
    assert len(lines) == 6  # five undetected faults and one variation not preserved
    assert {props["file"] for _, props, _ in lines} == {"fixtures/mutations/order-1001.yaml"}
    assert all(int(props["line"]) > 1 for _, props, _ in lines)
    # the verdict is CONCERNS: no annotation is an error (the critical fault is unexercised)
    assert {name for name, _, _ in lines} == {"warning"}
    assert summary.read_text(encoding="utf-8").startswith("## textcontract audit")
