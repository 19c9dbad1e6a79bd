"""The typer application. Each command module registers its own command(s).

Command modules are imported only when needed: ``build_app(name)`` registers just the
module that provides command ``name`` (the console script does that for
``textcontract <name> …``), so ``check`` does not import the audit, the strength scorer or
the authoring tools. ``app`` — the application with every command, for ``--help`` and
for tests — is built on first access. tests/cli/test_app_lazy.py checks that every
command of the full application is provided by the module listed for it here.
"""

from __future__ import annotations

import importlib
from typing import Annotated

import typer

from textcontract.cli._help import Command, Group
from textcontract.cli._options import print_version

__all__ = ["COMMAND_MODULES", "build_app"]  # and `app`, built on first access

# Registration order (which is the order of ``--help``), then each command's module.
_MODULES = (
    "textcontract.cli._check",
    "textcontract.cli._audit",
    "textcontract.cli._merge",
    "textcontract.cli._preflight",
    "textcontract.cli._strength",
    "textcontract.cli._lineage",
    "textcontract.cli._rules",
    "textcontract.cli._schema",
    "textcontract.cli._test",
    "textcontract.cli._lint",
    "textcontract.cli._mutate",
)
COMMAND_MODULES = {
    "check": "textcontract.cli._check",
    "audit": "textcontract.cli._audit",
    "merge": "textcontract.cli._merge",
    "preflight": "textcontract.cli._preflight",
    "score": "textcontract.cli._strength",
    "aggregate-strength": "textcontract.cli._strength",
    "compare": "textcontract.cli._strength",
    "lineage": "textcontract.cli._lineage",
    "rules": "textcontract.cli._rules",
    "schema": "textcontract.cli._schema",
    "test": "textcontract.cli._test",
    "lint": "textcontract.cli._lint",
    "mutate": "textcontract.cli._mutate",
}


def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", "-V", callback=print_version, is_eager=True, help="Print the version."
        ),
    ] = False,
) -> None:
    """textcontract: contracts for generated text."""
    del version


def build_app(command: str | None = None) -> typer.Typer:
    """The application with every command, or only the module providing ``command``."""
    application = typer.Typer(
        name="textcontract",
        cls=Group,
        help="Check generated text against YAML contracts, and measure how good the contracts are.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    application.callback()(_root)
    modules = _MODULES if command is None else (COMMAND_MODULES[command],)
    for name in modules:
        importlib.import_module(name).register(application)
    for registered in application.registered_commands:
        registered.cls = Command
    return application


_full: typer.Typer | None = None


def __getattr__(name: str) -> typer.Typer:
    global _full
    if name == "app":
        if _full is None:
            _full = build_app()
        return _full
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
