"""``textcontract lineage CONTRACT…``: check a presented chain of contract revisions."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from textcontract.cli._atomic import check_output_file
from textcontract.cli._errors import exits_with_codes
from textcontract.cli._options import OutputOption, VersionOption
from textcontract.cli._output import emit
from textcontract.errors import ExitCode
from textcontract.formats.json_text import dumps_pretty

__all__ = ["register", "run_lineage_command"]


class LineageFormat(StrEnum):
    json = "json"


def run_lineage_command(
    contracts: list[Path], max_revisions: int | None, output: Path | None
) -> int:
    check_output_file(output)
    from textcontract.lineage import check_lineage, lineage_members  # loaded to run

    result = check_lineage(lineage_members(contracts), max_revisions)
    emit(dumps_pretty(result), output)
    return int(ExitCode.OK if result["passed"] else ExitCode.FAILED)


def register(app: typer.Typer) -> None:
    @app.command("lineage")
    @exits_with_codes
    def lineage_command(
        contracts: Annotated[
            list[Path],
            typer.Argument(metavar="CONTRACT…", help="The revisions of one contract."),
        ],
        max_revisions: Annotated[
            int | None,
            typer.Option(
                "--max-revisions",
                metavar="N",
                min=0,
                help="Flag a chain whose highest revision_count is above N.",
            ),
        ] = None,
        output_format: Annotated[
            LineageFormat, typer.Option("--format", "-f", help="Output format.")
        ] = LineageFormat.json,
        output: OutputOption = None,
        version: VersionOption = False,
    ) -> int:
        """Check a chain of contract revisions (each declares lineage:). Exit 0 when it
        is whole, 1 when not."""
        del output_format, version  # -V/--version is handled by its callback
        return run_lineage_command(contracts, max_revisions, output)
