"""``textcontract check``: load everything, evaluate every document, render, exit 0/1."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from textcontract.cli._check_run import CheckFormat, resolve_contract, run_check
from textcontract.cli._errors import exits_with_codes
from textcontract.cli._options import ContractOption, OutputOption, VersionOption

__all__ = ["CheckFormat", "register", "resolve_contract", "run_check"]


def register(app: typer.Typer) -> None:
    @app.command("check")
    @exits_with_codes
    def check_command(
        documents: Annotated[
            list[Path],
            typer.Argument(metavar="DOC…", help="Documents to check (.json, else markdown/text)."),
        ],
        context: Annotated[
            Path | None,
            typer.Option("--context", metavar="FILE", help="Context JSON file (default: empty)."),
        ] = None,
        contract: ContractOption = None,
        output_format: Annotated[
            CheckFormat, typer.Option("--format", "-f", help="Output format.")
        ] = CheckFormat.text,
        output: OutputOption = None,
        version: VersionOption = False,
    ) -> int:
        """Check documents against a contract. Exit 0 when every document is accepted."""
        del version  # -V/--version is handled by its callback
        return run_check(documents, context, contract, output_format, output)
