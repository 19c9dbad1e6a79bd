"""``textcontract test``: run every rule example; exit 1 on any mismatch."""

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

__all__ = ["TestFormat", "register", "run_test"]


class TestFormat(StrEnum):
    __test__ = False  # not a pytest class

    text = "text"
    json = "json"


def run_test(
    contracts: list[Path],
    output_format: TestFormat,
    output: Path | None,
    registry: Registry | None = None,
) -> int:
    """Load every contract first (exit 2 on any error), then run all examples."""
    from textcontract.authoring import examples_json, run_examples  # loaded to run
    from textcontract.contract import parse_contract_file
    from textcontract.formats.examples_text import render_examples_text

    check_output_file(output)
    parsed_contracts = [parse_contract_file(path, str(path), registry) for path in contracts]
    runs = [run_examples(parsed) for parsed in parsed_contracts]
    document = examples_json(runs)
    if output_format is TestFormat.json:
        emit(dumps_pretty(document), output)
    else:
        emit_rendered(lambda console: render_examples_text(document["contracts"], console), output)
    return int(ExitCode.FAILED if document["mismatches"] else ExitCode.OK)


def register(app: typer.Typer) -> None:
    @app.command("test")
    @exits_with_codes
    def test_command(
        contracts: Annotated[
            list[Path],
            typer.Argument(
                metavar="CONTRACT…", help="Contracts (or rule packs) whose examples to run."
            ),
        ],
        output_format: Annotated[
            TestFormat, typer.Option("--format", "-f", help="Output format.")
        ] = TestFormat.text,
        output: OutputOption = None,
        version: VersionOption = False,
    ) -> int:
        """Run every rule example against its rule alone. Exit 1 on any mismatch."""
        del version  # -V/--version is handled by its callback
        return run_test(contracts, output_format, output)
