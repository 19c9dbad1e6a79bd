"""The typer application. Each command module registers its own command(s)."""

from __future__ import annotations

from typing import Annotated

import typer

from textcontract._version import __version__
from textcontract.cli._audit import register as register_audit
from textcontract.cli._check import register as register_check
from textcontract.cli._lint import register as register_lint
from textcontract.cli._rules import register as register_rules
from textcontract.cli._schema import register as register_schema
from textcontract.cli._strength import register as register_strength
from textcontract.cli._test import register as register_test

__all__ = ["app"]

app = typer.Typer(
    name="textcontract",
    help="Check generated text against YAML contracts, and measure how good the contracts are.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"textcontract {__version__}")
        raise typer.Exit(0)


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version.")
    ] = False,
) -> None:
    """textcontract: contracts for generated text."""


for register in (
    register_check,
    register_audit,
    register_strength,
    register_rules,
    register_schema,
    register_test,
    register_lint,
):
    register(app)
