"""``textcontract schema``: the JSON Schema of the contract format, for editors."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from textcontract.cli._atomic import check_output_file
from textcontract.cli._errors import exits_with_codes
from textcontract.cli._options import OutputOption, VersionOption
from textcontract.cli._output import emit
from textcontract.errors import ExitCode
from textcontract.formats.json_text import dumps_pretty

if TYPE_CHECKING:
    from textcontract.rules import Registry

__all__ = ["SchemaFormat", "register", "render_schema", "run_schema"]


class SchemaFormat(StrEnum):
    json = "json"


def render_schema(registry: Registry) -> str:
    """The schema as written to stdout and to the shipped ``contract.schema.json``."""
    from textcontract.contract import contract_schema

    return dumps_pretty(contract_schema(registry))


def run_schema(no_plugins: bool, output: Path | None, registry: Registry | None = None) -> int:
    check_output_file(output)
    if registry is None:
        from textcontract.rules import default_registry

        registry = default_registry(plugins=[] if no_plugins else None)
    emit(render_schema(registry), output)
    return int(ExitCode.OK)


def register(app: typer.Typer) -> None:
    @app.command("schema")
    @exits_with_codes
    def schema_command(
        output_format: Annotated[
            SchemaFormat, typer.Option("--format", "-f", help="Output format.")
        ] = SchemaFormat.json,
        no_plugins: Annotated[
            bool,
            typer.Option(
                "--no-plugins",
                help="Only the built-in rule types (the schema shipped with the package).",
            ),
        ] = False,
        output: OutputOption = None,
        version: VersionOption = False,
    ) -> int:
        """Print the JSON Schema (draft 2020-12) of contracts, installed plugins included."""
        del version  # -V/--version is handled by its callback
        del output_format  # JSON is the only format
        return run_schema(no_plugins, output)
