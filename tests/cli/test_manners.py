"""SPEC §11 "CLI manners": ``-h`` is ``--help``, ``-V`` is ``--version``, on the application
and on every command; help names arguments as users write them, never Python types."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from textcontract._version import __version__
from textcontract.cli import app
from textcontract.cli._app import COMMAND_MODULES

runner = CliRunner()
COMMANDS = sorted(COMMAND_MODULES)
_PYTHON_TYPES = re.compile(r"<(?:path|int|float|str|list|bool)|list\[|\bPath\b|\{\w+\}")


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_short_help_is_long_help(command: str | None) -> None:
    prefix = [] if command is None else [command]
    short = runner.invoke(app, [*prefix, "-h"])
    long = runner.invoke(app, [*prefix, "--help"])
    assert (short.exit_code, long.exit_code) == (0, 0)
    assert short.stdout == long.stdout
    assert "-h, --help" in short.stdout


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_short_version_is_long_version(command: str | None) -> None:
    prefix = [] if command is None else [command]
    for flag in ("-V", "--version"):
        result = runner.invoke(app, [*prefix, flag])
        assert (result.exit_code, result.stdout) == (0, f"textcontract {__version__}\n")


@pytest.mark.parametrize("command", COMMANDS)
def test_help_names_arguments_as_users_write_them(command: str) -> None:
    text = runner.invoke(app, [command, "--help"]).stdout
    assert _PYTHON_TYPES.search(text) is None, text


@pytest.mark.parametrize(
    ("command", "usage"),
    [
        ("check", "Usage: textcontract check [OPTIONS] [DOC…]"),
        ("audit", "Usage: textcontract audit [OPTIONS] DIR"),
        ("merge", "Usage: textcontract merge [OPTIONS] PART…"),
        ("aggregate-strength", "Usage: textcontract aggregate-strength [OPTIONS] ARTIFACT…"),
        ("compare", "Usage: textcontract compare [OPTIONS] A B"),
        ("test", "Usage: textcontract test [OPTIONS] CONTRACT…"),
        ("lint", "Usage: textcontract lint [OPTIONS] CONTRACT…"),
    ],
)
def test_usage_lines_show_metavars(command: str, usage: str) -> None:
    text = runner.invoke(app, [command, "-h"]).stdout
    assert text.splitlines()[0] == usage


def test_check_help_lists_its_options_by_metavar() -> None:
    text = runner.invoke(app, ["check", "-h"]).stdout
    for row in ("DOC…  Documents to check", "--context FILE", "-c, --contract FILE"):
        assert row in text
    assert "-o, --output FILE" in text
    assert "-V, --version" in text


def test_a_missing_argument_is_named_by_its_metavar() -> None:
    result = runner.invoke(app, ["check"])
    assert result.exit_code == 2
    assert "nothing to check: give documents (DOC…) or --batch FILE" in result.stderr
    result = runner.invoke(app, ["audit"])
    assert result.exit_code == 2
    assert "Missing argument 'DIR'" in result.stderr


@pytest.mark.parametrize("arguments", [["check", "-h"], ["check", "-V"], ["-V"], ["-h"]])
def test_the_console_script_takes_the_short_flags(arguments: list[str]) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "textcontract", *arguments],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
        env={"PYTHONIOENCODING": "utf-8", "PATH": "/usr/bin:/bin"},
    )
    assert (completed.returncode, completed.stderr) == (0, "")
    if "-V" in arguments:
        assert completed.stdout == f"textcontract {__version__}\n"
    else:
        assert completed.stdout.startswith("Usage: python -m textcontract ")
