"""``textcontract rules``: the registered rule types (or the shipped packs), text or JSON."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from textcontract.cli._atomic import check_output_file
from textcontract.cli._errors import exits_with_codes
from textcontract.cli._options import OutputOption, VersionOption
from textcontract.cli._output import emit, emit_rendered
from textcontract.errors import ExitCode
from textcontract.formats.json_text import dumps_pretty

if TYPE_CHECKING:
    from textcontract.rules import Registry

__all__ = ["RulesFormat", "register", "run_rules"]


class RulesFormat(StrEnum):
    text = "text"
    json = "json"


def run_rules(
    output_format: RulesFormat, packs: bool, output: Path | None, registry: Registry | None = None
) -> int:
    """List rule types (or packs with ``packs``); always exit 0."""
    from textcontract.authoring import catalog_json, describe_packs, describe_rule_types
    from textcontract.formats.rules_text import render_packs_text, render_rule_types_text
    from textcontract.rules import default_registry

    check_output_file(output)
    registry = registry if registry is not None else default_registry()
    listed: list[dict[str, Any]] = (
        describe_packs(registry) if packs else describe_rule_types(registry)
    )
    if output_format is RulesFormat.json:
        document = catalog_json(packs=listed) if packs else catalog_json(rule_types=listed)
        emit(dumps_pretty(document), output)
    elif packs:
        emit_rendered(lambda console: render_packs_text(listed, console), output)
    else:
        emit_rendered(lambda console: render_rule_types_text(listed, console), output)
    return int(ExitCode.OK)


def register(app: typer.Typer) -> None:
    @app.command("rules")
    @exits_with_codes
    def rules_command(
        output_format: Annotated[
            RulesFormat, typer.Option("--format", "-f", help="Output format.")
        ] = RulesFormat.text,
        packs: Annotated[
            bool, typer.Option("--packs", help="List the shipped rule packs instead.")
        ] = False,
        output: OutputOption = None,
        version: VersionOption = False,
    ) -> int:
        """List rule types with kind, parameters, codes and summary (plugins included)."""
        del version  # -V/--version is handled by its callback
        return run_rules(output_format, packs, output)
