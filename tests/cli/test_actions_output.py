"""No untrusted text reaches the GitHub Actions runner as a workflow command (SPEC §22).

The runner is modelled in tests/formats/actions_runner.py (``::name::`` after white space,
``##[name]`` anywhere, ``stop-commands``). Hostile documents and file names go through
real processes with stdout as a pipe (what the runner reads) and as a file, and through
typer's CliRunner; ``--format github`` must still be read as annotations.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from io import StringIO
from pathlib import Path
from typing import IO

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from tests.formats.actions_runner import DOTNET_WHITESPACE, Command, Runner, acted_on, lines
from textcontract.cli import app
from textcontract.cli._actions import CommandFence, inert
from textcontract.formats.github import workflow_command

ROOT = Path(__file__).resolve().parents[2]
ORDERS = ROOT / "fixtures" / "orders"
HOSTILE_NAME = "::warning::forged.md"
HOSTILE_LINE = "we will sort it out. Your money back ::error::Forged-annotation-injected"
MASK_LINE = "we will sort it out. Your money back ##[add-mask]secret-value ::error::Forged"
STOP = re.compile(r"::stop-commands::([0-9a-f]{32})\Z")


# -- the two mechanisms, on generated text -------------------------------------------------

_PIECES = st.sampled_from(
    [
        "::",
        "error",
        "warning",
        "add-mask",
        "stop-commands",
        "Error",
        "##[",
        "]",
        " file=a,line=1",
        "x",
        " ",
        "\n",
        "\r",
        "\r\n",
        *DOTNET_WHITESPACE[:4],
        "\u3000",
        "\\",
    ]
)
_HOSTILE = st.lists(_PIECES, max_size=24).map("".join)


@settings(max_examples=400, deadline=None)
@given(_HOSTILE)
def test_inert_text_holds_no_command_and_changes_nothing_else(text: str) -> None:
    made = inert(text)
    runner = Runner().read(made)
    assert runner.acted == []
    assert runner.stopped_by is None
    assert inert(made) == made
    assert made.replace("##\\[", "##[").replace("\\::", "::") == text.replace("\\::", "::")
    if "::" not in text and "##[" not in text:
        assert made == text


def _filled(command: Command) -> Command:
    name, properties, data = command
    return name, {key: value for key, value in properties.items() if value}, data


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.booleans(), _HOSTILE), max_size=8))
def test_fenced_output_hides_every_command_but_the_ones_written_as_commands(
    writes: list[tuple[bool, str]],
) -> None:
    stream = StringIO()
    fence = CommandFence(stream)
    meant: list[Command] = []
    for is_command, text in writes:
        if is_command:
            line = workflow_command("error", [("file", text)], text)
            meant.append(("error", {"file": text.strip(DOTNET_WHITESPACE)}, text))
            fence.write_commands(line)
        else:
            fence.write(text)
    fence.resume()
    runner = Runner().read(stream.getvalue())
    assert [_filled(command) for command in runner.acted] == [_filled(m) for m in meant]
    assert runner.stopped_by is None  # every stop is resumed
    tokens = re.findall(r"::stop-commands::(\w+)", stream.getvalue())
    assert len(tokens) == len(set(tokens))  # a fresh token each time


# -- real processes ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A rejected document named like a command, holding both command forms."""
    folder = tmp_path_factory.mktemp("hostile")
    text = (ORDERS / "order-1001.md").read_text(encoding="utf-8")
    assert "we will sort it out." in text
    for name, line in ((HOSTILE_NAME, HOSTILE_LINE), ("mask.md", MASK_LINE)):
        (folder / name).write_text(text.replace("we will sort it out.", line), encoding="utf-8")
        stem = name.removesuffix(".md")
        shutil.copy(ORDERS / "order-1001.context.json", folder / f"{stem}.context.json")
    shutil.copy(ORDERS / "textcontract.yaml", folder / "textcontract.yaml")
    return folder


def _run(
    folder: Path, *args: str, actions: bool = True, stdout: int | IO[str] = subprocess.PIPE
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "GITHUB_ACTIONS"}
    env.update(PYTHONIOENCODING="utf-8", COLUMNS="80", TERM="dumb")
    if actions:
        env["GITHUB_ACTIONS"] = "true"
    return subprocess.run(
        [sys.executable, "-m", "textcontract", *args],
        cwd=folder,
        env=env,
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )


def _unfenced(text: str) -> str:
    """The output between the stop and resume lines (which must be there)."""
    first, _, rest = text.partition("\n")
    found = STOP.match(first)
    assert found is not None, text[:200]
    assert rest.endswith(f"::{found.group(1)}::\n"), text[-200:]
    return rest[: -len(f"::{found.group(1)}::\n")]


def test_text_output_in_a_pipe_is_fenced_and_otherwise_unchanged(hostile: Path) -> None:
    plain = _run(hostile, "check", HOSTILE_NAME, actions=False)
    assert plain.returncode == 1
    # the attack is real: without the fence the runner acts on the document's line
    assert any(name == "error" for name, _, _ in acted_on(plain.stdout))
    assert any(name == "warning" for name, _, _ in acted_on(plain.stdout))
    fenced = _run(hostile, "check", HOSTILE_NAME)
    assert fenced.returncode == 1
    assert acted_on(fenced.stdout) == []
    assert _unfenced(fenced.stdout) == plain.stdout
    assert acted_on(fenced.stderr) == []


@pytest.mark.parametrize("output_format", ["json", "jsonl"])
def test_json_output_in_a_pipe_is_fenced(hostile: Path, output_format: str) -> None:
    fenced = _run(hostile, "check", "mask.md", "--format", output_format)
    assert fenced.returncode == 1
    assert acted_on(fenced.stdout) == []
    body = _unfenced(fenced.stdout)
    # JSON keeps the text as it is; unfenced, the runner would mask what follows the command
    assert ("add-mask", "secret-value") in [(name, data[:12]) for name, _, data in acted_on(body)]


def test_stdout_redirected_to_a_file_and_output_files_are_not_fenced(
    hostile: Path, tmp_path: Path
) -> None:
    plain = _run(hostile, "check", HOSTILE_NAME, actions=False)
    with (tmp_path / "redirected.txt").open("w", encoding="utf-8") as redirected:
        run = _run(hostile, "check", HOSTILE_NAME, stdout=redirected)
    assert run.returncode == 1
    assert (tmp_path / "redirected.txt").read_text(encoding="utf-8") == plain.stdout
    written = _run(hostile, "check", HOSTILE_NAME, "-f", "jsonl", "-o", str(tmp_path / "r.jsonl"))
    assert written.returncode == 1
    assert written.stdout == ""
    assert (tmp_path / "r.jsonl").read_text(encoding="utf-8").startswith('{"report_version"')


def test_github_annotations_are_not_fenced_and_name_the_file_as_it_is(hostile: Path) -> None:
    run = _run(hostile, "check", HOSTILE_NAME, "--format", "github")
    assert run.returncode == 1
    assert "stop-commands" not in run.stdout
    acted = acted_on(run.stdout)
    assert acted
    assert {props["file"] for _, props, _ in acted} == {HOSTILE_NAME}
    assert all(name == "error" for name, _, _ in acted)  # the document's text is only data


def test_error_lines_on_stderr_are_no_commands(hostile: Path) -> None:
    for name in ("::error::missing.md", "##[add-mask]missing.md"):
        run = _run(hostile, "check", name)
        assert run.returncode == 2
        assert "missing.md" in run.stderr
        assert acted_on(run.stderr) == [], run.stderr
        assert run.stdout == ""  # nothing printed, so no fence either
    usage = _run(hostile, "check", HOSTILE_NAME, "--format", "##[error]x")  # typer's error
    assert usage.returncode == 2
    assert "'##\\[error]x' is not one of" in usage.stderr
    assert acted_on(usage.stderr) == []


# -- the typer route and other commands ----------------------------------------------------

runner = CliRunner()


def test_the_typer_route_fences_check_mutate_and_audit_markdown(
    hostile: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.chdir(hostile)
    checked = runner.invoke(app, ["check", HOSTILE_NAME, "--verbose"])
    assert checked.exit_code == 1
    assert acted_on(checked.stdout) == []
    assert STOP.match(lines(checked.stdout)[0])
    document = hostile / "baseline.md"
    document.write_text(
        (ORDERS / "order-1001.md")
        .read_text(encoding="utf-8")
        .replace("Hello Dana,", "Hello Dana,\n::error::planted\n##[add-mask]x"),
        encoding="utf-8",
    )
    shutil.copy(ORDERS / "order-1001.context.json", hostile / "baseline.context.json")
    mutated = runner.invoke(app, ["mutate", "baseline.md", "--case-id", "c"])
    assert mutated.exit_code == 0, mutated.stderr
    assert acted_on(mutated.stdout) == []
    assert acted_on(mutated.stderr) == []
    case = yaml.safe_load(_unfenced(mutated.stdout))
    assert "::error::planted" in case["baseline"]["document"]["surfaces"]["body"]["text"]
    audited = runner.invoke(app, ["audit", str(ROOT / "fixtures" / "mutations"), "-f", "markdown"])
    assert audited.exit_code in (0, 1), audited.stderr
    assert _unfenced(audited.stdout).startswith("## textcontract audit")


def test_outside_actions_nothing_is_fenced(hostile: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(hostile)
    checked = runner.invoke(app, ["check", HOSTILE_NAME])
    assert checked.stdout.startswith(f"{HOSTILE_NAME}: REJECTED")


def test_stderr_is_made_inert_line_by_line_and_the_streams_stay_usable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from textcontract.cli._actions import fenced_stdout, inert_stderr, write_commands

    errors, output = StringIO(), StringIO()
    monkeypatch.setattr(sys, "stderr", errors)
    monkeypatch.setattr(sys, "stdout", output)
    with inert_stderr():
        sys.stderr.write("error: ::warn")  # a line written in pieces
        sys.stderr.write("ing::x.md\n  ::error::y\r##[add-mask]z")
        assert sys.stderr.encoding == errors.encoding
        assert not sys.stderr.isatty()
    assert sys.stderr is errors
    assert errors.getvalue() == "error: ::warning::x.md\n  \\::error::y\r##\\[add-mask]z"
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    with fenced_stdout():  # outside Actions: nothing changes, commands go out as written
        write_commands("::notice::n\n")
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    with fenced_stdout():
        fence = sys.stdout
        assert fence is not output
        assert fence.writable()
        assert fence.encoding == output.encoding
        assert fence.errors == output.errors
        sys.stdout.write("::error::text without its line break")
        with fenced_stdout():  # nested: one fence
            assert sys.stdout is fence
    assert sys.stdout is output
    written = output.getvalue()
    assert written.startswith("::notice::n\n::stop-commands::")
    assert written.endswith("::error::text without its line break\n" + lines(written)[-2] + "\n")
    assert acted_on(written) == [("notice", {}, "n")]
