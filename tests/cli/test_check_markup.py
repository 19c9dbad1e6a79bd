"""``check`` over Markdown and HTML inputs (SPEC §18): a folder search takes ``.html`` and
``.htm`` files, ``--stdin-format`` reads standard input as written, and a located match
points at the file's characters — through CliRunner and as a real process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from textcontract.cli import app

CONTRACT = (
    "textcontract: 1\nid: t\nrules:\n"
    "  - {id: no-rm, type: ForbiddenPattern, patterns: ['rm -rf'], read: [prose]}\n"
)


def _process(arguments: list[str], stdin: bytes, cwd: Path) -> tuple[int, str]:
    completed = subprocess.run(
        [sys.executable, "-m", "textcontract", *arguments],
        input=stdin,
        capture_output=True,
        cwd=cwd,
        check=False,
        timeout=120,
    )
    return completed.returncode, completed.stdout.decode()


def _runner(arguments: list[str], stdin: bytes, cwd: Path) -> tuple[int, str]:
    old = Path.cwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(app, arguments, input=stdin)
    finally:
        os.chdir(old)
    return result.exit_code, result.stdout


Route = Callable[[list[str], bytes, Path], tuple[int, str]]
ROUTES = [pytest.param(_runner, id="clirunner"), pytest.param(_process, id="process")]


@pytest.mark.parametrize("route", ROUTES)
def test_a_folder_search_reads_html_and_markdown_as_written(route: Route, tmp_path: Path) -> None:
    (tmp_path / "c.yaml").write_text(CONTRACT, encoding="utf-8")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("Run:\n\n```\nrm -rf build\n```\n", encoding="utf-8")
    (docs / "b.html").write_text("<p>Never <code>rm -rf</code>.</p>", encoding="utf-8")
    (docs / "c.htm").write_text("<p>then rm -rf it</p>", encoding="utf-8")
    (docs / "d.txt").write_text("plain: rm -rf", encoding="utf-8")
    code, out = route(["check", "docs", "-c", "c.yaml", "--format", "jsonl"], b"", tmp_path)
    reports = [json.loads(line) for line in out.splitlines()]
    assert [(r["source"], r["accepted"]) for r in reports] == [
        ("docs/a.md", True),
        ("docs/b.html", True),
        ("docs/c.htm", False),
        ("docs/d.txt", False),
    ]
    assert code == 1
    (item,) = reports[2]["checks"][0]["evidence"]
    assert item["location"]["start"] == [1, 9]  # the file's characters, tags counted


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize(
    ("written", "accepted"),
    [("markdown", True), ("html", False), ("plain", False)],
)
def test_stdin_follows_stdin_format(
    route: Route, tmp_path: Path, written: str, accepted: bool
) -> None:
    (tmp_path / "c.yaml").write_text(CONTRACT, encoding="utf-8")
    arguments = ["check", "-", "-c", "c.yaml", "--format", "json", "--stdin-format", written]
    code, out = route(arguments, b"`rm -rf` is not advice", tmp_path)
    assert json.loads(out)["accepted"] is accepted
    assert code == (0 if accepted else 1)
