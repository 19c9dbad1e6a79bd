"""The typer-free path of ``check`` behaves exactly as the typer command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from textcontract.cli import app, main
from textcontract.cli._check_run import CheckRequest
from textcontract.cli._fast import _parse, fast_check, parse_request

runner = CliRunner()


def _args(orders: Path, *extra: str) -> list[str]:
    return [
        "check",
        str(orders / "order-1001.md"),
        "--context",
        str(orders / "order-1001.context.json"),
        "--contract",
        str(orders / "textcontract.yaml"),
        *extra,
    ]


@pytest.mark.parametrize(
    "extra",
    [
        pytest.param(["--format", "json"], id="json"),
        pytest.param(["-f", "jsonl"], id="jsonl-short"),
        pytest.param(["--format=json"], id="equals-form"),
        pytest.param(["--format", "text", "--format", "json"], id="last-wins"),
    ],
)
def test_same_output_and_exit_code_as_typer(
    orders: Path, capsys: pytest.CaptureFixture[str], extra: list[str]
) -> None:
    arguments = _args(orders, *extra)
    code = fast_check(arguments)
    out = capsys.readouterr().out
    result = runner.invoke(app, arguments)
    assert code == result.exit_code
    assert out == result.stdout


def test_rejected_document_and_several_documents(
    orders: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    arguments = [
        "check",
        str(orders / "order-1002.md"),
        str(orders / "order-1003.json"),
        "-c",
        str(orders / "textcontract.yaml"),
        "--context",
        str(orders / "order-1002.context.json"),
        "-f",
        "jsonl",
    ]
    code = fast_check(arguments)
    out = capsys.readouterr().out
    result = runner.invoke(app, arguments)
    assert (code, out) == (result.exit_code, result.stdout)


def test_output_file(orders: Path, tmp_path: Path) -> None:
    fast_target, typer_target = tmp_path / "fast.json", tmp_path / "typer.json"
    assert fast_check(_args(orders, "-f", "json", "-o", str(fast_target))) == 0
    assert runner.invoke(app, _args(orders, "-f", "json", "-o", str(typer_target))).exit_code == 0
    assert fast_target.read_bytes() == typer_target.read_bytes()


@pytest.mark.parametrize(
    "arguments",
    [
        pytest.param([], id="nothing"),
        pytest.param(["--help"], id="root-help"),
        pytest.param(["score", "x"], id="other-command"),
        pytest.param(["check", "doc.md", "--format", "xml"], id="bad-format"),
        pytest.param(["check", "doc.md", "--stdin-format", "xml"], id="bad-stdin-format"),
        pytest.param(["check", "doc.md", "--jobs", "0"], id="no-jobs"),
        pytest.param(["check", "doc.md", "-j", "two"], id="jobs-not-a-number"),
        pytest.param(["check", "doc.md", "-o", "out/"], id="output-folder"),
        pytest.param(["check", "doc.md", "-vq"], id="joined-flags"),
        pytest.param(["check"], id="nothing"),
        pytest.param(["check", "--format", "json"], id="no-document"),
        pytest.param(["check", "doc.md", "--format", "json", "--help"], id="help"),
        pytest.param(["check", "doc.md", "-fjson"], id="joined-short"),
        pytest.param(["check", "doc.md", "--format"], id="missing-value"),
        pytest.param(["check", "doc.md", "--format", "json", "--context"], id="missing-value-2"),
        pytest.param(["check", "doc.md", "--format", "json", "--context", "-"], id="dash-value"),
        pytest.param(["check", "doc.md", "--format", "json", "--"], id="double-dash"),
        pytest.param(["check", "doc.md", "--format", "json", "--bogus"], id="unknown"),
        pytest.param(["check", "doc.md", "--format", "json", "-c="], id="short-equals"),
        pytest.param(["check", "doc.md", "--format", "json", "--context="], id="empty-value"),
        pytest.param(["check", "", "--format", "json"], id="empty-document"),
    ],
)
def test_anything_unusual_is_left_to_typer(arguments: list[str]) -> None:
    assert _parse(arguments) is None


def test_failures_are_reported_once_by_the_fast_path_as_typer_reports_them(
    orders: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = _args(orders, "--format", "json")
    missing[1] = str(tmp_path / "missing.md")
    assert fast_check(missing) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"error: {missing[1]}: cannot read file: No such file or directory\n"
    result = runner.invoke(app, missing)
    assert (result.exit_code, result.stderr) == (2, captured.err)


def test_main_falls_back_to_typer_with_its_messages(
    orders: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    arguments = _args(orders, "--format", "json")
    arguments[1] = str(tmp_path / "missing.md")
    monkeypatch.setattr(sys, "argv", ["textcontract", *arguments])
    with pytest.raises(SystemExit) as exited:
        main()
    assert exited.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "missing.md" in captured.err
    result = runner.invoke(app, arguments)
    assert (result.exit_code, result.stderr) == (2, captured.err)


def test_main_exits_with_the_fast_path_code(
    orders: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["textcontract", *_args(orders, "--format", "json")])
    with pytest.raises(SystemExit) as exited:
        main()
    assert exited.value.code == 0
    assert '"accepted": true' in capsys.readouterr().out


def test_a_contract_from_a_process_substitution_and_a_bad_context_blame_the_context(
    orders: Path, tmp_path: Path
) -> None:
    # bash gives `<(cat c.yaml)` as a pipe that can be read once: the command must run once.
    bad = tmp_path / "bad.context.json"
    bad.write_text('{"order.status": ', encoding="utf-8")
    script = (
        f'exec "$0" -m textcontract check {orders / "order-1001.md"} --context {bad} '
        f'--contract <(cat {orders / "textcontract.yaml"}) --format "$1"'
    )
    for output_format in ("json", "jsonl"):
        completed = subprocess.run(
            ["bash", "-c", script, sys.executable, output_format],
            capture_output=True,
            text=True,
            check=False,
            timeout=60,
        )
        assert (completed.returncode, completed.stdout) == (2, "")
        assert completed.stderr == f"error: {bad}:1:18: invalid JSON: Expecting value\n"


def test_a_contract_from_a_process_substitution_is_read(orders: Path) -> None:
    script = (
        f'exec "$0" -m textcontract check {orders / "order-1001.md"} '
        f"--context {orders / 'order-1001.context.json'} "
        f"--contract <(cat {orders / 'textcontract.yaml'}) --format json"
    )
    completed = subprocess.run(
        ["bash", "-c", script, sys.executable], capture_output=True, text=True, check=False
    )
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout)["accepted"] is True


def test_a_failing_check_is_run_once(
    orders: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import textcontract.cli._check_run as check_run

    calls: list[object] = []
    original = check_run.resolve_contract

    def counted(contract: Path | None) -> object:
        calls.append(contract)
        return original(contract)

    monkeypatch.setattr(check_run, "resolve_contract", counted)
    arguments = _args(orders, "--format", "json")
    arguments[3] = str(orders / "missing.context.json")
    monkeypatch.setattr(sys, "argv", ["textcontract", *arguments])
    with pytest.raises(SystemExit) as exited:
        main()
    assert exited.value.code == 2
    assert len(calls) == 1
    assert "missing.context.json: cannot read file" in capsys.readouterr().err


_TOKENS = [
    ["a.md"], ["docs/"], ["./b.json"], ["-"], ["x y.md"], ["--"], ["-x"], ["é.md"],
    ["--context", "c.json"], ["--context=c.json"], ["--context", "-"], ["--context"],
    ["--contract", "k.yaml"], ["-c", "k.yaml"], ["-c=k.yaml"], ["--contract="],
    ["--format", "json"], ["-f", "jsonl"], ["--format=text"], ["-f", "sarif"], ["-f", "xml"],
    ["-fjson"], ["--output", "o.json"], ["-o", "out/"], ["-o", "o.txt"],
    ["--batch", "b.jsonl"], ["--batch", "-"], ["--batch=-"], ["-j", "2"], ["--jobs", "0"],
    ["--jobs=3"], ["-j", "two"], ["--stdin-format", "json"], ["--stdin-format", "yaml"],
    ["-v"], ["-q"], ["--verbose"], ["--quiet"], ["-vq"], ["--help"], ["-h"], ["-V"],
]  # fmt: skip


_PLAIN = [
    ["a.md"], ["docs/"], ["-"], ["-c", "k.yaml"], ["-f", "jsonl"], ["--format=text"],
    ["--batch", "b.jsonl"], ["-j", "2"], ["-o", "o.json"], ["-v"], ["-q"], ["--context=c.json"],
]  # fmt: skip


@settings(max_examples=400)
@given(st.lists(st.sampled_from(_PLAIN) | st.sampled_from(_TOKENS), max_size=7))
def test_the_fast_path_parses_exactly_what_typer_parses(tokens: list[list[str]]) -> None:
    """A command line the fast path takes gives typer the same request, and typer takes it."""
    arguments = ["check", *(token for group in tokens for token in group)]
    fast = parse_request(arguments)
    if fast is None:
        return  # handed to typer: nothing to compare
    import textcontract.cli._check as check_module

    seen: list[CheckRequest] = []
    original = check_module.run_check

    def record(request: CheckRequest) -> int:
        seen.append(request)
        return 0

    check_module.run_check = record
    try:
        result = runner.invoke(app, arguments)
    finally:
        check_module.run_check = original
    assert result.exit_code == 0, result.output
    assert seen == [fast]
