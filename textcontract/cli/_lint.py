"""``textcontract lint``: warn about dead patterns and rules that can never hold."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from textcontract.cli._atomic import check_output_file
from textcontract.cli._errors import exits_with_codes
from textcontract.cli._options import OutputOption, VersionOption
from textcontract.cli._output import emit, emit_rendered
from textcontract.errors import ExitCode
from textcontract.formats.json_text import dumps_pretty

if TYPE_CHECKING:
    from textcontract.rules import Registry

__all__ = ["LintFormat", "register", "run_lint"]


class LintFormat(StrEnum):
    text = "text"
    json = "json"


def run_lint(
    contracts: list[Path],
    output_format: LintFormat,
    strict: bool,
    output: Path | None,
    registry: Registry | None = None,
) -> int:
    """Exit 1 only with ``strict`` and at least one warning; 2 on a contract error."""
    from textcontract.authoring import lint_contracts, lint_json  # loaded to run
    from textcontract.contract import parse_contract_file
    from textcontract.formats.lint_text import render_lint_text

    check_output_file(output)
    parsed_contracts = [parse_contract_file(path, str(path), registry) for path in contracts]
    warnings = lint_contracts(parsed_contracts)
    document = lint_json(warnings)
    if output_format is LintFormat.json:
        emit(dumps_pretty(document), output)
    else:
        emit_rendered(lambda console: render_lint_text(document["warnings"], console), output)
    return int(ExitCode.FAILED if strict and warnings else ExitCode.OK)


def register(app: typer.Typer) -> None:
    @app.command("lint")
    @exits_with_codes
    def lint_command(
        contracts: Annotated[
            list[Path],
            typer.Argument(metavar="CONTRACT…", help="Contracts (or rule packs) to lint."),
        ],
        output_format: Annotated[
            LintFormat, typer.Option("--format", "-f", help="Output format.")
        ] = LintFormat.text,
        strict: Annotated[
            bool, typer.Option("--strict", help="Exit 1 when there is any warning.")
        ] = False,
        output: OutputOption = None,
        version: VersionOption = False,
    ) -> int:
        """Warn about dead patterns (DEAD_PATTERN) and impossible parameters (NEVER_HOLDS)."""
        del version  # -V/--version is handled by its callback
        return run_lint(contracts, output_format, strict, output)
