"""``textcontract audit DIR``: load and validate the corpus, preflight, evaluate, render, exit
0/1 (5 when the preflight fails or the run is INVALID)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, contextmanager
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from textcontract.cli._atomic import check_output_file
from textcontract.cli._errors import exits_with_codes
from textcontract.cli._file_set import FileSet, check_output_folder, staged_file_set
from textcontract.cli._options import OutputOption, VersionOption, jobs_option
from textcontract.cli._output import emit_rendered, output_sink
from textcontract.cli._run_options import (
    AsOfOption,
    ModeOption,
    SourceRevisionFlag,
    as_of_date,
    checked_mode,
    source_revision,
)
from textcontract.errors import InputError
from textcontract.formats.json_text import dumps_pretty, write_pretty

if TYPE_CHECKING:
    from textcontract.audit import AuditResult, Corpus, Preflight, Shard
    from textcontract.audit import Progress as ProgressCallback

# The audit loads when a command runs, not when the command is registered: ``--help`` and
# ``audit -h`` import no library code (tests/cli/test_imports.py).

__all__ = ["AuditFormat", "emit_audit", "register", "run_audit_command", "write_files"]

_ARTIFACTS = "the artifact set"
_RECORDS = "the record set"


AuditContractOption = Annotated[
    Path | None,
    typer.Option(
        "--contract",
        "-c",
        metavar="FILE",
        help="Contract file (default: audit.yaml's, else textcontract.yaml here or above).",
    ),
]


class AuditFormat(StrEnum):
    text = "text"
    json = "json"
    junit = "junit"
    github = "github"
    markdown = "markdown"
    html = "html"


def write_files(files: FileSet, values: Iterable[tuple[str, dict[str, Any]]]) -> None:
    """Add ``(relative path, JSON value)`` pairs to a staged set of files."""
    for relative, value in values:
        files.write(relative, dumps_pretty(value))


@contextmanager
def _progress_bar() -> Iterator[ProgressCallback | None]:
    """A transient bar on stderr, only when stderr is a terminal."""
    if not sys.stderr.isatty():
        yield None
        return
    # rich is imported on use: a JSON audit into a file or a pipe never needs it
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    bar = Progress(
        TextColumn("auditing"),
        BarColumn(),
        MofNCompleteColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    task = bar.add_task("audit", total=None)

    def advance(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    with bar:
        yield advance


def _render(
    result: AuditResult,
    output_format: AuditFormat,
    output: Path | None,
    load: Callable[[], Corpus],
) -> None:
    if output_format not in (AuditFormat.text, AuditFormat.json):
        from textcontract.cli._ci_audit import emit_audit_ci  # SPEC §12

        emit_audit_ci(result, output_format.value, output, load)
        return
    if output_format is AuditFormat.json:
        with output_sink(output) as sink:
            write_pretty(result.streamed_report(), sink.write)
        return
    from textcontract.formats.audit_text import render_audit_text  # imports rich

    checks = [check.to_json() for check in result.thresholds]
    emit_rendered(lambda console: render_audit_text(result.report, console, checks), output)


def _shard(text: str, output_format: AuditFormat) -> Shard:
    """``--shard K/N``; a part file is the JSON report (any other format is a usage error)."""
    from textcontract.audit import Shard

    try:
        shard = Shard.parse(text)
    except ValueError as error:
        raise InputError.at(str(error), "--shard") from None
    if output_format is not AuditFormat.json:
        raise InputError.at(
            "--shard writes a part file for `textcontract merge`: use --format json", "--shard"
        )
    return shard


def render_preflight(preflight: Preflight, output_format: str, output: Path | None) -> None:
    """The preflight verdict as ``preflight`` prints it (JSON), or as text."""
    if output_format != "text":
        with output_sink(output) as sink:
            write_pretty(preflight.streamed_json(), sink.write)
        return
    from textcontract.formats.preflight_text import render_preflight_text  # imports rich

    emit_rendered(lambda console: render_preflight_text(preflight.to_json(), console), output)


def run_audit_command(
    directory: Path,
    *,
    contract: Path | None = None,
    output_format: AuditFormat = AuditFormat.text,
    output: Path | None = None,
    artifacts: Path | None = None,
    records: Path | None = None,
    min_detection: float | None = None,
    min_preservation: float | None = None,
    jobs: int = 1,
    allow_missing_rules: bool = False,
    mode: str | None = None,
    as_of: str | None = None,
    revision: str | None = None,
    cache: Path | None = None,
    shard: str | None = None,
) -> int:
    """Audit, then write the report, the artifact set and the record set: each set is
    staged in full before the report is written and put in place after it, so a failure
    anywhere leaves every old output as it was."""
    from textcontract.audit import PreflightFailed, audit_directory, load_corpus

    part = None if shard is None else _shard(shard, output_format)
    check_output_file(output)
    check_output_folder(artifacts, _ARTIFACTS)
    check_output_folder(records, _RECORDS)
    chosen_mode = checked_mode(mode)
    day = as_of_date(as_of)
    recorded = source_revision(revision, allow_auto=True)
    try:
        with _progress_bar() as progress:
            result = audit_directory(
                directory,
                contract=contract,
                jobs=jobs,
                allow_missing_rules=allow_missing_rules,
                detection=min_detection,
                preservation=min_preservation,
                progress=progress,
                mode=chosen_mode,
                as_of=day,
                source_revision=recorded,
                cache=cache,
                shard=part,
            )
    except PreflightFailed as failed:  # nothing evaluated, nothing written but the verdict
        render_preflight(failed.preflight, output_format.value, output)
        return int(failed.exit_code)

    def load() -> Corpus:  # the corpus again, for the formats that show its documents
        return load_corpus(
            directory, contract=contract, allow_missing_rules=allow_missing_rules, jobs=jobs
        )

    emit_audit(result, output_format, output, artifacts, records, load)
    return int(result.exit_code)


def emit_audit(
    result: AuditResult,
    output_format: AuditFormat,
    output: Path | None,
    artifacts: Path | None,
    records: Path | None,
    load: Callable[[], Corpus],
) -> None:
    """Write the report, the artifact set and the record set (``audit`` and ``merge``)."""
    with ExitStack() as stack:
        staged = []
        if artifacts is not None and not result.invalid:  # an INVALID run writes no set
            staged.append(stack.enter_context(staged_file_set(artifacts, _ARTIFACTS)))
            write_files(staged[-1], result.artifacts())
        if records is not None and not result.invalid:
            staged.append(stack.enter_context(staged_file_set(records, _RECORDS)))
            write_files(staged[-1], result.records())
        _render(result, output_format, output, load)
        for files in staged:
            files.commit()


def register(app: typer.Typer) -> None:
    @app.command("audit")
    @exits_with_codes
    def audit_command(
        directory: Annotated[
            Path,
            typer.Argument(
                metavar="DIR", help="Corpus folder: audit.yaml plus one YAML file per case."
            ),
        ],
        contract: AuditContractOption = None,
        output_format: Annotated[
            AuditFormat, typer.Option("--format", "-f", help="Output format.")
        ] = AuditFormat.text,
        output: OutputOption = None,
        artifacts: Annotated[
            Path | None,
            typer.Option(
                "--artifacts",
                metavar="DIR",
                help="Write one evidence artifact per admitted probe here (replaced as a set).",
            ),
        ] = None,
        records: Annotated[
            Path | None,
            typer.Option(
                "--records",
                metavar="DIR",
                help="Write sealed trial records (<case>/<variant>/…) here (replaced as a set).",
            ),
        ] = None,
        min_detection: Annotated[
            float | None,
            typer.Option(
                "--min-detection", min=0.0, max=1.0, metavar="RATE", help="Minimum detection score."
            ),
        ] = None,
        min_preservation: Annotated[
            float | None,
            typer.Option(
                "--min-preservation",
                min=0.0,
                max=1.0,
                metavar="RATE",
                help="Minimum preservation rate.",
            ),
        ] = None,
        jobs: Annotated[int, jobs_option("read and evaluate")] = 1,
        allow_missing_rules: Annotated[
            bool,
            typer.Option(
                "--allow-missing-rules",
                help="Count expectations naming rules the contract lacks as not-applicable.",
            ),
        ] = False,
        mode: ModeOption = None,
        as_of: AsOfOption = None,
        revision: SourceRevisionFlag = None,
        cache: Annotated[
            Path | None,
            typer.Option(
                "--cache",
                metavar="DIR",
                help="Keep evaluation results here and reuse them (created when missing).",
            ),
        ] = None,
        shard: Annotated[
            str | None,
            typer.Option(
                "--shard",
                metavar="K/N",
                help="Evaluate only shard K of N and write a part file for `merge` (JSON).",
            ),
        ] = None,
        version: VersionOption = False,
    ) -> int:
        """Measure a contract on a corpus of labelled variants: detection, preservation,
        strength and verdict. Exit 0 when every threshold is met and the verdict is not FAIL;
        5 when the preflight fails (nothing is evaluated) or the run is INVALID."""
        del version  # -V/--version is handled by its callback
        return run_audit_command(
            directory,
            contract=contract,
            output_format=output_format,
            output=output,
            artifacts=artifacts,
            records=records,
            min_detection=min_detection,
            min_preservation=min_preservation,
            jobs=jobs,
            allow_missing_rules=allow_missing_rules,
            mode=mode,
            as_of=as_of,
            revision=revision,
            cache=cache,
            shard=shard,
        )
