"""What folder searches leave out (SPEC §21): ``--exclude`` patterns (``.gitignore`` rules,
relative to the folder given) and the file the run writes with ``--output``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from textcontract.cli import app
from textcontract.errors import InputError, Problem
from textcontract.inputs._discover import Exclusions, find_documents, search_folder

NAMES = (
    "a.md",
    "b.json",
    "drafts/c.md",
    "drafts/deep/d.md",
    "sub/drafts/e.md",
    "sub/f.md",
    "sub/g.txt",
    "keep.json",
)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    for name in NAMES:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        text = '{"surfaces": {"body": "Hello."}}' if name.endswith(".json") else "Hello.\n"
        path.write_text(text, encoding="utf-8")
    return tmp_path


def _relative(root: Path, *patterns: str, output: str | None = None) -> list[str]:
    problems: list[Problem] = []
    exclusions = Exclusions(patterns, None if output is None else {output: "--output"})
    found = [item.path for item in find_documents([str(root)], problems, exclusions)]
    assert [problem.render() for problem in problems] == []
    again = list(search_folder(str(root), problems, exclusions))
    assert again == found  # the second pass leaves out the same paths
    return [os.path.relpath(str(path), root).replace(os.sep, "/") for path in found]


@pytest.mark.parametrize(
    ("patterns", "excluded"),
    [
        pytest.param((), (), id="none"),
        pytest.param(("*.json",), ("b.json", "keep.json"), id="name-any-depth"),
        pytest.param(
            ("drafts/",), ("drafts/c.md", "drafts/deep/d.md", "sub/drafts/e.md"), id="folder"
        ),
        pytest.param(("/drafts",), ("drafts/c.md", "drafts/deep/d.md"), id="anchored"),
        pytest.param(("sub/*.md",), ("sub/f.md",), id="star-one-level"),
        pytest.param(("**/e.md", "*.txt"), ("sub/drafts/e.md", "sub/g.txt"), id="globstar"),
        pytest.param(("*.json", "!keep.json"), ("b.json",), id="negation"),
    ],
)
def test_patterns_follow_gitignore_rules_relative_to_the_folder(
    folder: Path, patterns: tuple[str, ...], excluded: tuple[str, ...]
) -> None:
    found = _relative(folder, *patterns)
    assert sorted(found) == sorted(name for name in NAMES if name not in excluded)


def test_an_excluded_folder_is_not_searched(folder: Path) -> None:
    (folder / "drafts" / "broken.md").symlink_to(folder / "nowhere")  # would be an error
    assert "drafts/c.md" not in _relative(folder, "drafts")
    problems: list[Problem] = []
    list(find_documents([str(folder)], problems))
    assert [p.message for p in problems] == [
        "dangling symbolic link: what it points to does not exist"
    ]


def test_the_output_file_is_left_out_by_identity(folder: Path) -> None:
    output = folder / "b.json"
    (folder / "sub" / "link.json").symlink_to(output)
    found = _relative(folder, output=str(folder / "sub" / ".." / "b.json"))
    assert "b.json" not in found
    assert "sub/link.json" not in found
    assert "keep.json" in found


def test_an_output_file_not_written_yet_leaves_out_nothing(folder: Path) -> None:
    assert len(_relative(folder, output=str(folder / "report.json"))) == len(NAMES)


@pytest.mark.parametrize("pattern", ["[z-a]", "!"])
def test_an_invalid_pattern_is_an_input_error_naming_it(pattern: str) -> None:
    with pytest.raises(InputError) as raised:
        Exclusions(["*.md", pattern])
    (problem,) = raised.value.problems
    assert problem.render().startswith(f"--exclude: invalid pattern {pattern!r}: ")


@pytest.fixture
def corpus(folder: Path) -> Iterator[Path]:
    (folder / "textcontract.yaml").write_text(
        "textcontract: 1\nid: t\nrules:\n  - {id: words, type: MinimumTokens, minimum: 1}\n",
        encoding="utf-8",
    )
    cwd = Path.cwd()
    os.chdir(folder)
    try:
        yield folder
    finally:
        os.chdir(cwd)


def _sources(output: str) -> list[str]:
    return [json.loads(line)["source"] for line in output.splitlines()]


def test_check_dot_twice_never_reads_its_own_report(corpus: Path) -> None:
    runner = CliRunner()
    for _ in range(2):
        result = runner.invoke(app, ["check", ".", "-f", "jsonl", "-o", "report.jsonl"])
        assert result.exit_code == 0, result.output
    assert "./report.jsonl" not in _sources((corpus / "report.jsonl").read_text())
    result = runner.invoke(app, ["check", "report.jsonl", "-o", "report.jsonl"])
    assert result.exit_code == 2
    assert result.output == (
        "error: report.jsonl: this is the --output file of this run; it is never read as input\n"
    )


@pytest.mark.usefixtures("corpus")
def test_check_exclude_on_the_command_line() -> None:
    result = CliRunner().invoke(
        app, ["check", ".", "--exclude", "drafts/", "--exclude", "*.txt", "-f", "jsonl"]
    )
    assert result.exit_code == 0, result.output
    assert _sources(result.output) == ["./a.md", "./b.json", "./keep.json", "./sub/f.md"]
    # a real process, on the fast path, with the pattern as a shell passes it
    completed = subprocess.run(
        [sys.executable, "-m", "textcontract", "check", "sub", "--exclude=*.md", "-f", "jsonl"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert _sources(completed.stdout) == ["sub/g.txt"]
    completed = subprocess.run(
        [sys.executable, "-m", "textcontract", "check", "sub", "--exclude", "*"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 2
    assert "--exclude patterns are skipped" in completed.stderr
