"""Patterns that make the regex package raise something other than ``regex.error``, or run
out of memory, or take cubic time: a contract error at load, or an ``error`` check — never a
traceback, never a killed process.

Load time: groups nested too deeply (``RecursionError`` in regex's parser), incompatible
flags (``ValueError``), and counted repeats whose minimum counts multiply past
``MAX_REPEAT_COPIES`` (regex would allocate ~260 bytes per copy; ``a{100000000}`` is 26 GB)
are contract errors naming file, line, column and field, exit code 2. Match time: fuzzy
matching inside a repeated lookaround, ``(?=aa{e<=1})*``, makes regex raise ``MemoryError``
on some texts (on "a", after ~600 MB); that is the rule's ``RULE_ERROR`` check for the document.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import regex
from typer.testing import CliRunner

import textcontract
from textcontract.cli import app
from textcontract.errors import ContractError
from textcontract.model import Status
from textcontract.rules._pattern_compile import (
    MAX_REPEAT_COPIES,
    PatternRejected,
    compile_pattern,
    repeat_copies,
)

runner = CliRunner()

DEEP = "(?:" * 400 + "a" + ")" * 400
# regex raises MemoryError searching this pattern on "a" (tests/text/test_prefilter.py).
FUZZY_LOOKAROUND = "(?=aa{e<=1})*"


def _contract(tmp_path: Path, pattern: str, *, timeout_ms: int = 250) -> Path:
    path = tmp_path / "c.yaml"
    path.write_text(
        "textcontract: 1\nid: x\nrules:\n"
        "  - id: words\n"
        "    type: ForbiddenPattern\n"
        f"    timeout_ms: {timeout_ms}\n"
        f"    patterns: [fine, {json.dumps(pattern)}]\n",
        encoding="utf-8",
    )
    return path


def _limit_memory() -> None:
    """Caps the child's address space, so a regression fails here instead of eating the
    machine's memory (the kernel would otherwise kill some process, maybe not this one)."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))


def _subprocess(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "textcontract", *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=120,
        preexec_fn=_limit_memory if sys.platform == "linux" else None,
    )


@pytest.mark.parametrize(
    ("pattern", "copies"),
    [
        pytest.param("a{1000000}", 1_000_000, id="one-repeat"),
        pytest.param("(?:a{1000}){1000}", 1_001_000, id="nested"),
        pytest.param("a{1000}b{1000}", 2000, id="side-by-side-add"),
        pytest.param("(?:a{100}){100}(?:a{100}){100}", 20_200, id="groups-side-by-side"),
        pytest.param("a{0,1000000}", 1, id="upper-bounds-cost-nothing"),
        pytest.param("(?:a{1000}){1,1000}", 1001, id="minimum-one"),
        pytest.param(r"\bguarantee[ds]?\b", 0, id="no-counted-repeat"),
        pytest.param("[{1000000}]", 0, id="inside-a-class"),
        pytest.param(r"\{1000000}", 0, id="escaped-brace"),
        pytest.param("(?#{1000000})a", 0, id="inside-a-comment"),
        pytest.param(r"(?#\){1000000})a", 0, id="escaped-paren-in-comment"),
        pytest.param("(?:a{1000}[(]){1000}", 1_001_000, id="paren-in-class-not-a-group"),
        pytest.param("(?:[)]a{1000}){1000}", 1_001_000, id="close-paren-in-class"),
        pytest.param("[[:alpha:]a{1000}]", 0, id="posix-class-inside-a-class"),
        # Verbose mode hides parentheses in comments: every minimum count multiplies.
        pytest.param("(?x)(?:a{1000} # )\n){1000}", 1_001_000, id="verbose-comment-paren"),
        pytest.param("(?x)a{1000} b{1000}", 1_001_000, id="verbose-multiplies-all"),
    ],
)
def test_repeat_copies_never_counts_fewer_than_the_structure_holds(
    pattern: str, copies: int
) -> None:
    assert repeat_copies(pattern) == min(copies, MAX_REPEAT_COPIES + 1)


@pytest.mark.parametrize(
    ("pattern", "reason"),
    [
        pytest.param(DEEP, "groups are nested too deeply for the regex package", id="deep"),
        pytest.param("(?au)x", "ASCII, LOCALE and UNICODE flags are mutually incompatible"),
        pytest.param("a{100000001}", "would make the regex package build over 100000 copies"),
        pytest.param("(?:(?:a{1000}){1000}){1000}", "lower the minimum counts", id="nested"),
        pytest.param("(unclosed", "missing ) at position 9", id="regex-error"),
    ],
)
def test_compile_pattern_rejects_with_a_reason(pattern: str, reason: str) -> None:
    with pytest.raises(PatternRejected, match=regex.escape(reason)):
        compile_pattern(pattern)


def test_patterns_below_the_repeat_limit_compile() -> None:
    assert compile_pattern("(?:a{100}){100}b{1000}").search("b" * 1000) is None
    assert compile_pattern(r"\d{4}-\d{2}-\d{2}").search("on 2026-12-02") is not None


@pytest.mark.parametrize(
    ("pattern", "reason"),
    [
        pytest.param(DEEP, "groups are nested too deeply", id="recursion"),
        pytest.param("(?au)x", "flags are mutually incompatible", id="value-error"),
        pytest.param("(?:a{10000}){10000}", "lower the minimum counts", id="huge-repeat"),
    ],
)
def test_load_contract_reports_the_pattern_at_its_place(
    tmp_path: Path, pattern: str, reason: str
) -> None:
    path = _contract(tmp_path, pattern)
    with pytest.raises(ContractError) as caught:
        textcontract.load_contract(path)
    [problem] = [problem.render() for problem in caught.value.problems]
    assert problem.startswith(f"{path}:7:22: rule 'words', field patterns[1]: invalid pattern ")
    assert reason in problem
    if len(pattern) > 80:  # a long pattern is quoted by its start and its length
        assert f"… ({len(pattern)} characters)" in problem


def _document(tmp_path: Path, text: str = "a") -> Path:
    path = tmp_path / "doc.txt"
    path.write_text(text, encoding="utf-8")
    return path


def _args(command: str, contract: Path, tmp_path: Path) -> list[str]:
    if command == "check":
        return ["check", str(_document(tmp_path)), "--contract", str(contract)]
    return [command, str(contract)]


@pytest.mark.parametrize("command", ["check", "lint", "test"])
@pytest.mark.parametrize(
    "pattern", [DEEP, "(?au)x", "(?:a{10000}){10000}"], ids=["deep", "flags", "huge-repeat"]
)
def test_cli_exits_2_naming_the_place(tmp_path: Path, command: str, pattern: str) -> None:
    path = _contract(tmp_path, pattern)
    result = runner.invoke(app, _args(command, path, tmp_path))
    assert result.exit_code == 2, result.stderr
    assert f"{path}:7:22: rule 'words', field patterns[1]: invalid pattern" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("command", ["check", "lint"])
def test_a_real_process_exits_2_on_a_repeat_that_would_exhaust_memory(
    tmp_path: Path, command: str
) -> None:
    """Without the estimate regex would ask for ~26 GB here and the kernel would kill us."""
    path = _contract(tmp_path, "(?:a{10000}){10000}")
    done = _subprocess(*_args(command, path, tmp_path))
    assert done.returncode == 2, done.stderr
    assert f"{path}:7:22: rule 'words', field patterns[1]: invalid pattern" in done.stderr
    assert "lower the minimum counts" in done.stderr  # refused before compiling, not after
    assert "Traceback" not in done.stderr


def test_match_time_memory_error_is_the_rules_error_check() -> None:
    """Regression: ``(?=aa{e<=1})*`` on "a" makes regex raise MemoryError mid-search."""
    contract = textcontract.load_contract_text(
        "textcontract: 1\nid: x\nrules:\n"
        "  - id: words\n    type: ForbiddenPattern\n    timeout_ms: 60000\n"
        f"    patterns: [{json.dumps(FUZZY_LOOKAROUND)}]\n"
        "  - {id: enough, type: MinimumTokens, minimum: 1}\n"
    )
    report = contract.check("a")
    first, second = report.checks
    assert (first.status, first.code, first.scope) == (Status.ERROR, "RULE_ERROR", "$")
    assert first.evidence[0]["exception"] == "MemoryError"
    assert FUZZY_LOOKAROUND in str(first.evidence[0]["detail"])
    assert "ran out of memory" in first.message
    assert (second.rule_id, second.status) == ("enough", Status.SATISFIED)  # others still run
    assert report.accepted is False
    # The same pattern on a text where regex copes: an ordinary verdict.
    assert contract.check("xyz").checks[0].status is Status.VIOLATED  # empty matches


def test_match_time_memory_error_through_the_cli(tmp_path: Path) -> None:
    path = _contract(tmp_path, FUZZY_LOOKAROUND, timeout_ms=60000)
    args = ["check", str(_document(tmp_path)), "--contract", str(path), "--format", "json"]
    for code, stdout, stderr in (
        (lambda r: (r.exit_code, r.stdout, r.stderr))(runner.invoke(app, args)),
        (lambda d: (d.returncode, d.stdout, d.stderr))(_subprocess(*args)),
    ):
        assert code == 1, stderr
        assert "Traceback" not in stderr
        [check] = [c for c in json.loads(stdout)["checks"] if c["status"] == "error"]
        assert (check["code"], check["evidence"][0]["exception"]) == ("RULE_ERROR", "MemoryError")


def test_lint_reads_a_long_literal_in_linear_time(tmp_path: Path) -> None:
    """regex's fullmatch of an 8,000-character literal over itself takes ~30 s; lint's dead
    check compares characters instead, so this finishes at once and finds the dead one."""
    path = _contract(tmp_path, "ab" * 20_000 + "é")
    result = runner.invoke(app, ["lint", str(path), "--format", "json"])
    assert result.exit_code == 0, result.stderr
    [warning] = json.loads(result.stdout)["warnings"]
    assert warning["code"] == "DEAD_PATTERN"
    assert "U+00E9" in warning["message"]


def test_the_first_search_table_does_not_change_the_first_documents_outcome() -> None:
    """regex builds a search table on a pattern's first search over a long enough text, in
    time growing with about the cube of its literal run (1,800 characters: ~0.3 s, past the
    250 ms budget); it must not make the first document's check differ from the later ones'."""
    literal = "ab" * 900
    contract = textcontract.load_contract_text(
        "textcontract: 1\nid: x\nrules:\n"
        "  - id: words\n    type: ForbiddenPattern\n    timeout_ms: 250\n"
        f"    patterns: [{json.dumps(literal)}]\n"
    )
    texts = [f"one {literal} two", f"{literal}", f"three {literal}"]
    outcomes = [
        [(check.status, check.code) for check in contract.check(text).checks] for text in texts
    ]
    assert outcomes == [[(Status.VIOLATED, "FORBIDDEN_PATTERN")]] * 3
