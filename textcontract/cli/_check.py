"""``textcontract check``: read every input, check them one by one, render, exit 0/1."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from textcontract.cli._check_run import (
    CheckFormat,
    CheckRequest,
    StdinFormat,
    resolve_contract,
    run_check,
)
from textcontract.cli._errors import exits_with_codes
from textcontract.cli._options import (
    ContractOption,
    OutputOption,
    VersionOption,
    jobs_option,
    output_file,
)

__all__ = ["CheckFormat", "register", "resolve_contract", "run_check"]

_DOCUMENTS_HELP = (
    "Documents to check: files (.json; .md, .markdown as Markdown; .html, .htm as HTML; "
    "else plain text), folders (searched for *.md, *.markdown, *.txt, *.html, *.htm, "
    "*.json; hidden ones, --exclude matches and the --output file skipped) or - for "
    "standard input."
)


def register(app: typer.Typer) -> None:
    @app.command("check")
    @exits_with_codes
    def check_command(
        documents: Annotated[
            list[str] | None,
            typer.Argument(metavar="DOC…", help=_DOCUMENTS_HELP, show_default=False),
        ] = None,
        context: Annotated[
            str | None,
            typer.Option(
                "--context",
                metavar="FILE",
                help="Context JSON file for every document (default: each document's "
                "X.context.json beside it, else empty).",
            ),
        ] = None,
        contract: ContractOption = None,
        batch: Annotated[
            str | None,
            typer.Option(
                "--batch",
                metavar="FILE",
                help='JSON Lines file of cases {"id", "document", "context"} (- for stdin).',
            ),
        ] = None,
        stdin_format: Annotated[
            StdinFormat,
            typer.Option("--stdin-format", help="How a document read from - is written."),
        ] = StdinFormat.markdown,
        output_format: Annotated[
            CheckFormat, typer.Option("--format", "-f", help="Output format.")
        ] = CheckFormat.text,
        output: OutputOption = None,
        jobs: Annotated[int, jobs_option("read and check documents")] = 1,
        verbose: Annotated[
            bool, typer.Option("--verbose", "-v", help="Text: show satisfied checks too.")
        ] = False,
        quiet: Annotated[
            bool, typer.Option("--quiet", "-q", help="Text: only each document's verdict line.")
        ] = False,
        baseline: Annotated[
            str | None,
            typer.Option(
                "--baseline",
                metavar="FILE",
                help="An earlier check report (json, jsonl or sarif): mark each finding new "
                "or unchanged; exit 1 only for new findings that reject a document.",
            ),
        ] = None,
        exclude: Annotated[
            list[str] | None,
            typer.Option(
                "--exclude",
                metavar="GLOB",
                help="Leave out of folder searches the paths matching GLOB (.gitignore rules, "
                "relative to the folder given); repeatable.",
                show_default=False,
            ),
        ] = None,
        sarif_output: Annotated[
            Path | None,
            typer.Option(
                "--sarif-output",
                metavar="FILE",
                parser=output_file,
                help="Also write a SARIF log of the same run to FILE (atomically), whatever "
                "--format is: the documents are checked once.",
                show_default=False,
            ),
        ] = None,
        version: VersionOption = False,
    ) -> int:
        """Check documents against a contract. Exit 0 when every document is accepted."""
        del version  # -V/--version is handled by its callback
        request = CheckRequest(
            documents=tuple(documents or ()),
            context=context,
            contract=contract,
            output_format=output_format,
            output=output,
            batch=batch,
            stdin_format=stdin_format,
            jobs=jobs,
            verbose=verbose,
            quiet=quiet,
            baseline=baseline,
            exclude=tuple(exclude or ()),
            sarif_output=sarif_output,
        )
        return run_check(request)
