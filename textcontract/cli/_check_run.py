"""What ``textcontract check`` does, importable without typer or rich.

:mod:`textcontract.cli._check` registers the command; :mod:`textcontract.cli._fast` runs it
directly for plain argument lists, so a cold ``check`` does not pay for the CLI framework.

A run has two passes (SPEC §11): every input is read and validated first, so an input
error stops the run before anything is checked or written; then each input is read again,
checked, and its report written before the next is read.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

from textcontract.cli._atomic import check_output_file
from textcontract.cli._output import output_sink, terminal_console
from textcontract.contract import (
    CONTRACT_FILENAME,
    ParsedContract,
    locate_contract,
    parse_contract_file,
)
from textcontract.engine import Checked, check_inputs, check_pool
from textcontract.errors import ExitCode, InputError
from textcontract.inputs import read_inputs, request_problems

if TYPE_CHECKING:
    from textcontract.formats.check_findings import CheckedDocument

__all__ = ["CheckFormat", "CheckRequest", "StdinFormat", "resolve_contract", "run_check"]


class CheckFormat(StrEnum):
    text = "text"
    json = "json"
    jsonl = "jsonl"
    sarif = "sarif"
    junit = "junit"
    github = "github"


class StdinFormat(StrEnum):
    markdown = "markdown"
    json = "json"


@dataclass(frozen=True)
class CheckRequest:
    """A ``check`` command line, parsed: paths as the user gave them."""

    documents: tuple[str, ...]
    context: str | None = None
    contract: Path | None = None
    output_format: CheckFormat = CheckFormat.text
    output: Path | None = None
    batch: str | None = None
    stdin_format: StdinFormat = StdinFormat.markdown
    jobs: int = 1
    verbose: bool = False
    quiet: bool = False


def resolve_contract(contract: Path | None) -> ParsedContract:
    """``--contract`` if given, else the nearest ``textcontract.yaml`` upwards."""
    found = locate_contract(contract)
    if found is None:
        raise InputError.at(
            f"no contract given and no {CONTRACT_FILENAME} in this folder or its parents; "
            "pass --contract FILE",
            None,
        )
    return parse_contract_file(*found)


class _Verdict:
    """Whether every report seen so far was accepted."""

    def __init__(self) -> None:
        self.accepted = True

    def watch(self, checked: Iterable[Checked]) -> Iterator[Checked]:
        for item in checked:
            self.accepted = self.accepted and item.report.accepted
            yield item


def _documents(checked: Iterable[Checked]) -> Iterator[CheckedDocument]:
    from textcontract.formats.check_findings import CheckedDocument

    for item in checked:
        origin = item.origin
        yield CheckedDocument(
            origin.source,
            item.report.to_dict(),
            item.surface_lines,
            file=origin.file,
            markdown=origin.markdown,
            line=origin.line,
        )


def run_check(request: CheckRequest) -> int:
    if request.verbose and request.quiet:
        raise InputError.at("--verbose and --quiet exclude each other; give one", None)
    problems = request_problems(request.documents, request.batch)
    if problems:
        raise InputError(problems)
    check_output_file(request.output)
    definition = resolve_contract(request.contract)
    stdin = getattr(sys.stdin, "buffer", None)
    with ExitStack() as stack:
        pool = None
        if request.jobs > 1:  # the workers boot during the first pass (unused under 32 inputs)
            pool = stack.enter_context(check_pool(request.jobs))
            pool.launch()
        inputs = stack.enter_context(
            read_inputs(
                request.documents,
                batch=request.batch,
                context=request.context,
                stdin_json=request.stdin_format is StdinFormat.json,
                stdin=stdin,
            )
        )
        verdict = _Verdict()
        checked = check_inputs(definition, inputs, request.jobs, pool)
        try:
            _write(request, definition, verdict.watch(checked), len(inputs) > 1)
        finally:
            checked.close()  # stops the workers now, even when writing failed
    return int(ExitCode.OK if verdict.accepted else ExitCode.FAILED)


def _write(
    request: CheckRequest, parsed: ParsedContract, checked: Iterator[Checked], several: bool
) -> None:
    output_format, output = request.output_format, request.output
    if output_format in (CheckFormat.json, CheckFormat.jsonl):
        from textcontract.formats.report_json import write_json, write_jsonl

        reports = (item.report.to_dict() for item in checked)
        with output_sink(output) as sink:
            if output_format is CheckFormat.json:
                write_json(reports, several, sink.write)
            else:
                write_jsonl(reports, sink.write)
    elif output_format in (CheckFormat.sarif, CheckFormat.junit, CheckFormat.github):
        from textcontract.cli._ci_check import emit_check_ci  # SPEC §12

        emit_check_ci(output_format.value, parsed, _documents(checked), output)
    else:
        _write_text(request, _documents(checked))


def _write_text(request: CheckRequest, documents: Iterator[CheckedDocument]) -> None:
    from textcontract.formats.report_text import (
        TextOptions,
        print_report_text,
        write_report_text,
    )

    console = terminal_console() if request.output is None else None
    if console is not None:
        options = TextOptions(console.width, request.verbose, request.quiet)
        print_report_text(documents, console, options)
        return
    width = shutil.get_terminal_size().columns
    options = TextOptions(width, request.verbose, request.quiet)
    with output_sink(request.output) as sink:
        write_report_text(documents, sink.write, options)
