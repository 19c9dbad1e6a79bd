"""Commands are registered from their own module only when invoked (cold start)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from textcontract.cli import app
from textcontract.cli._app import COMMAND_MODULES, build_app

runner = CliRunner()


def _names(application: object) -> list[str]:
    commands = getattr(application, "registered_commands", [])
    return [str(command.name) for command in commands]


def test_every_command_is_mapped_to_its_module() -> None:
    assert sorted(_names(app)) == sorted(COMMAND_MODULES)
    for command in COMMAND_MODULES:
        assert command in _names(build_app(command))


@pytest.mark.parametrize("command", sorted(COMMAND_MODULES))
def test_command_help_is_the_same_alone(command: str) -> None:
    full = runner.invoke(app, [command, "--help"])
    alone = runner.invoke(build_app(command), [command, "--help"])
    assert (alone.exit_code, alone.stdout) == (full.exit_code, full.stdout)
    assert full.exit_code == 0


def test_usage_errors_are_the_same_alone() -> None:
    full = runner.invoke(app, ["check", "--bogus"])
    alone = runner.invoke(build_app("check"), ["check", "--bogus"])
    assert (alone.exit_code, alone.stderr) == (full.exit_code, full.stderr)
    assert full.exit_code == 2
