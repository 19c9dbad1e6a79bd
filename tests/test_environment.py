"""The clock and git are read in one place, textcontract/environment.py (SPEC §17.8)."""

from __future__ import annotations

import ast
import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest

import textcontract
from textcontract.environment import git_source_revision, today_utc
from textcontract.errors import InputError
from textcontract.strength import RevisionBasis, SourceRevision, attested_revision

PACKAGE = Path(textcontract.__file__).parent
_CLOCK = {"now", "today", "utcnow", "time", "time_ns", "localtime", "gmtime"}
_PROCESS = {"subprocess", "os.system", "os.popen"}


def _environment_reads(path: Path) -> set[str]:
    """Calls that read the clock, and imports that could run git."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
            )
            found |= {f"import {name}" for name in names if name in _PROCESS}
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner = node.func.value
            if (
                node.func.attr in _CLOCK
                and isinstance(owner, ast.Name)
                and owner.id
                in (
                    "datetime",
                    "date",
                    "time",
                )
            ):
                found.add(f"{owner.id}.{node.func.attr}()")
    return found


def test_only_environment_py_reads_the_clock_or_runs_git() -> None:
    offending = {
        f"{path.relative_to(PACKAGE)}: {read}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.name != "environment.py"
        for read in _environment_reads(path)
    }
    assert offending == set()
    assert _environment_reads(PACKAGE / "environment.py") == {
        "import subprocess",
        "datetime.now()",
    }


def test_today_is_the_utc_date() -> None:
    before = datetime.now(UTC).date()
    assert today_utc() in {before, datetime.now(UTC).date()}


def _git(folder: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-C", str(folder), *args],
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def test_git_revision_clean_dirty_and_unknown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    corpus = tmp_path / "repo" / "corpus"
    corpus.mkdir(parents=True)
    contract = tmp_path / "repo" / "contract.yaml"
    contract.write_text("x\n", encoding="utf-8")
    (corpus / "c1.yaml").write_text("id: c1\n", encoding="utf-8")
    assert git_source_revision(corpus, contract) == SourceRevision.unknown()
    _git(tmp_path / "repo", "init", "-q")
    assert git_source_revision(corpus, contract) == SourceRevision.unknown()  # no HEAD yet
    _git(tmp_path / "repo", "add", "-A")
    _git(tmp_path / "repo", "commit", "-q", "-m", "one")
    head = _git(tmp_path / "repo", "rev-parse", "HEAD").strip()
    assert git_source_revision(corpus, contract) == SourceRevision(head, False, RevisionBasis.GIT)
    contract.write_text("changed\n", encoding="utf-8")
    assert git_source_revision(corpus, contract).dirty is True
    _git(tmp_path / "repo", "commit", "-q", "-am", "two")
    (tmp_path / "repo" / "elsewhere.txt").write_text("not under DIR\n", encoding="utf-8")
    assert git_source_revision(corpus, contract).dirty is False
    outside = tmp_path / "outside.yaml"
    outside.write_text("x\n", encoding="utf-8")
    assert git_source_revision(corpus, outside) == SourceRevision.unknown()  # status fails


def test_attested_revisions() -> None:
    commit = "0123456789abcdef0123456789abcdef01234567"
    assert attested_revision(commit.upper()).to_json() == {
        "commit": commit,
        "dirty": None,
        "basis": "attested",
    }
    assert attested_revision(commit + "+dirty").dirty is True
    assert attested_revision(commit + "+clean").dirty is False
    for bad in (commit[:-1], commit + "+maybe", "auto", "g" * 40):
        with pytest.raises(InputError, match="is not a source revision"):
            attested_revision(bad)
