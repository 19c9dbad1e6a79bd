"""The command-line interface: thin commands over the library."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import typer

__all__ = ["app", "main"]


def __getattr__(name: str) -> typer.Typer:
    # The typer application is built on first use: a plain `check` never needs it.
    if name == "app":
        from textcontract.cli._app import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main() -> None:
    """Console-script entry point."""
    from textcontract.cli._errors import terminate_on_sigterm
    from textcontract.cli._fast import fast_check

    terminate_on_sigterm()

    arguments = sys.argv[1:]
    code = fast_check(arguments)
    if code is not None:
        sys.exit(code)
    from textcontract.cli._app import COMMAND_MODULES, build_app

    # Only the invoked command's module is imported; anything else (no command, --help,
    # --version, a mistyped command) gets the application with every command.
    command = arguments[0] if arguments else None
    build_app(command if command in COMMAND_MODULES else None)()
