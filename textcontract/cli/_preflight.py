"""``textcontract preflight DIR``: validate and plan an audit, checking baselines only."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from textcontract.cli._atomic import check_output_file
from textcontract.cli._audit import AuditContractOption, render_preflight
from textcontract.cli._errors import exits_with_codes
from textcontract.cli._options import OutputOption, VersionOption, jobs_option
from textcontract.cli._run_options import ModeOption, checked_mode
from textcontract.errors import ExitCode

__all__ = ["PreflightFormat", "register", "run_preflight_command"]


class PreflightFormat(StrEnum):
    json = "json"
    text = "text"


def run_preflight_command(
    directory: Path,
    *,
    contract: Path | None = None,
    output_format: PreflightFormat = PreflightFormat.json,
    output: Path | None = None,
    jobs: int = 1,
    allow_missing_rules: bool = False,
    mode: str | None = None,
) -> int:
    check_output_file(output)
    from textcontract.audit import preflight_directory  # loaded to run

    preflight = preflight_directory(
        directory,
        contract=contract,
        jobs=jobs,
        allow_missing_rules=allow_missing_rules,
        mode=checked_mode(mode),
    )
    render_preflight(preflight, output_format.value, output)
    return int(ExitCode.OK if preflight.passed else ExitCode.INVALID)


def register(app: typer.Typer) -> None:
    @app.command("preflight")
    @exits_with_codes
    def preflight_command(
        directory: Annotated[
            Path,
            typer.Argument(
                metavar="DIR", help="Corpus folder: audit.yaml plus one YAML file per case."
            ),
        ],
        contract: AuditContractOption = None,
        output_format: Annotated[
            PreflightFormat, typer.Option("--format", "-f", help="Output format.")
        ] = PreflightFormat.json,
        output: OutputOption = None,
        jobs: Annotated[int, jobs_option("read and check")] = 1,
        allow_missing_rules: Annotated[
            bool,
            typer.Option(
                "--allow-missing-rules",
                help="Count expectations naming rules the contract lacks as not-applicable.",
            ),
        ] = False,
        mode: ModeOption = None,
        version: VersionOption = False,
    ) -> int:
        """Validate and plan an audit before any trial: baselines checked twice, vacuous
        faults found. Exit 0 when it passed, 5 when not."""
        del version  # -V/--version is handled by its callback
        return run_preflight_command(
            directory,
            contract=contract,
            output_format=output_format,
            output=output,
            jobs=jobs,
            allow_missing_rules=allow_missing_rules,
            mode=mode,
        )
