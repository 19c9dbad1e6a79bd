"""What ``textcontract check`` does, importable without typer or rich.

:mod:`textcontract.cli._check` registers the command; :mod:`textcontract.cli._fast` runs it
directly for plain argument lists, so a cold ``check`` does not pay for the CLI framework.

A run has two passes (SPEC §11): every input is read and validated first, so an input
error stops the run before anything is checked or written; then each input is read again,
checked, and its report written before the next is read.

With ``--jobs`` above 1 the workers are launched so that they are ready when the first pass
begins (a batch's lines are validated in them too). Forked workers are launched just
before it: they inherit every module this process has imported by then, and the contract,
and are running in a millisecond. Spawned workers (where forking is not safe) are launched
first of all, before this module imports the contract loader, the engine and the input
readers (about 0.1 s of imports), so that a worker boots while this process imports.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from contextlib import ExitStack, closing
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from textcontract.cli._atomic import check_output_file
from textcontract.cli._output import output_sink, terminal_console
from textcontract.errors import ExitCode, InputError

if TYPE_CHECKING:
    from textcontract._pool import Pool
    from textcontract.contract import ParsedContract
    from textcontract.engine import Checked, Render, Rendered
    from textcontract.formats.check_findings import CheckedDocument
    from textcontract.model import Baseline

__all__ = ["CheckFormat", "CheckRequest", "StdinFormat", "resolve_contract", "run_check"]


class CheckFormat(StrEnum):
    text = "text"
    json = "json"
    jsonl = "jsonl"
    sarif = "sarif"
    junit = "junit"
    github = "github"


class StdinFormat(StrEnum):
    plain = "plain"
    markdown = "markdown"
    html = "html"
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
    baseline: str | None = None
    exclude: tuple[str, ...] = ()
    sarif_output: Path | None = None


def resolve_contract(contract: Path | None) -> ParsedContract:
    """``--contract`` if given, else the nearest ``textcontract.yaml`` upwards."""
    from textcontract.contract import CONTRACT_FILENAME, locate_contract, parse_contract_file

    found = locate_contract(contract)
    if found is None:
        raise InputError.at(
            f"no contract given and no {CONTRACT_FILENAME} in this folder or its parents; "
            "pass --contract FILE",
            None,
        )
    return parse_contract_file(*found)


class _Outcome(Protocol):
    @property
    def accepted(self) -> bool: ...


OutcomeT = TypeVar("OutcomeT", bound=_Outcome)


class _Verdict:
    """Whether every report seen so far was accepted."""

    def __init__(self) -> None:
        self.accepted = True

    def watch(self, outcomes: Iterable[OutcomeT]) -> Iterator[OutcomeT]:
        for item in outcomes:
            self.accepted = self.accepted and item.accepted
            yield item


def _documents(
    checked: Iterable[Checked], baseline: Baseline | None = None
) -> Iterator[CheckedDocument]:
    from textcontract.formats.check_findings import CheckedDocument

    for item in checked:
        origin = item.origin
        report = item.report.to_dict()
        yield CheckedDocument(
            origin.source,
            report if baseline is None else baseline.mark(report),
            item.surface_lines,
            file=origin.file,
            markdown=origin.markdown,
            line=origin.line,
        )


_WORKER_MODULES = ("textcontract.engine", "textcontract.formats.report_json")
"""What a worker of ``check`` imports as soon as it starts: the engine (with the input
readers and the contract model) and the json/jsonl renderers."""


def run_check(request: CheckRequest) -> int:
    if request.verbose and request.quiet:
        raise InputError.at("--verbose and --quiet exclude each other; give one", None)
    with ExitStack() as stack:
        pool = None
        if request.jobs > 1:  # (workers go unused under 32 inputs)
            from textcontract._pool import Pool

            pool = Pool[Any](request.jobs, "check", _WORKER_MODULES, fork=True)
            stack.enter_context(pool)
            if not pool.forks:
                pool.launch()  # spawned: booting while this process imports
        return _run(request, stack, pool)


def _run(request: CheckRequest, stack: ExitStack, pool: Pool[Any] | None) -> int:
    from textcontract.engine import check_inputs, render_inputs
    from textcontract.inputs import read_inputs, request_problems

    problems = request_problems(request.documents, request.batch)
    if problems:
        raise InputError(problems)
    _check_outputs(request)
    baseline = None
    if request.baseline is not None:
        from textcontract.inputs import read_baseline

        baseline = read_baseline(request.baseline)
    definition = resolve_contract(request.contract)
    if pool is not None:
        pool.launch()  # forked: everything imported, nothing read yet (once launched, no-op)
    inputs = stack.enter_context(
        read_inputs(
            request.documents,
            batch=request.batch,
            context=request.context,
            stdin_format=request.stdin_format.value,
            stdin=getattr(sys.stdin, "buffer", None),
            pool=pool,
            exclude=request.exclude,
            outputs=_written_files(request),
        )
    )
    several = len(inputs) > 1
    if baseline is not None or request.sarif_output is not None:
        checked = check_inputs(definition, inputs, request.jobs, pool)
        with closing(checked):
            return _write_documents(request, definition, baseline, checked, several)
    verdict = _Verdict()
    if request.output_format in (CheckFormat.json, CheckFormat.jsonl):
        rendered = render_inputs(
            definition, inputs, _renderer(request.output_format, several), request.jobs, pool
        )
        with closing(rendered):  # stops the workers now, even when writing failed
            _write_rendered(request, verdict.watch(rendered), several)
    else:
        checked = check_inputs(definition, inputs, request.jobs, pool)
        with closing(checked):
            _write_format(request, definition, _documents(verdict.watch(checked)), several)
    return int(ExitCode.OK if verdict.accepted else ExitCode.FAILED)


def _check_outputs(request: CheckRequest) -> None:
    """Refuse, before anything runs, output files that could not be written (or one file
    named twice)."""
    check_output_file(request.output)
    check_output_file(request.sarif_output)
    output, sarif = request.output, request.sarif_output
    if (
        output is not None
        and sarif is not None
        and os.path.realpath(output) == os.path.realpath(sarif)
    ):
        raise InputError.at(
            "--output and --sarif-output name the same file; give two files",
            str(request.sarif_output),
        )


def _written_files(request: CheckRequest) -> dict[str, str]:
    """The files this run writes, by the option naming each (never read as inputs)."""
    written = {}
    if request.output is not None:
        written[str(request.output)] = "--output"
    if request.sarif_output is not None:
        written[str(request.sarif_output)] = "--sarif-output"
    return written


def _write_documents(
    request: CheckRequest,
    parsed: ParsedContract,
    baseline: Baseline | None,
    checked: Iterator[Checked],
    several: bool,
) -> int:
    """Write every report as a :class:`CheckedDocument` — marked against the baseline when
    there is one (SPEC §21) — in the requested format, and the SARIF log of the same run
    when ``--sarif-output`` asks for one (written after the format's output is complete).
    With a baseline the exit code counts only new findings that reject their document."""
    from textcontract.model import fails_with_baseline

    failed = False

    def counted() -> Iterator[CheckedDocument]:
        nonlocal failed
        for document in _documents(checked, baseline):
            rejects = (
                not document.report["accepted"]
                if baseline is None
                else fails_with_baseline(document.report)
            )
            failed = failed or rejects
            yield document

    sarif_output = request.sarif_output
    if sarif_output is None:
        _write_format(request, parsed, counted(), several)
        return int(ExitCode.FAILED if failed else ExitCode.OK)
    from textcontract.cli._ci_check import sarif_spool

    with sarif_spool(parsed) as spool:
        _write_format(request, parsed, spool.passing(counted()), several)
        spool.write(sarif_output)
    return int(ExitCode.FAILED if failed else ExitCode.OK)


def _write_format(
    request: CheckRequest,
    parsed: ParsedContract,
    documents: Iterator[CheckedDocument],
    several: bool,
) -> None:
    if request.output_format in (CheckFormat.json, CheckFormat.jsonl):
        _write_report_dicts(request, documents, several)
    elif request.output_format in (CheckFormat.sarif, CheckFormat.junit, CheckFormat.github):
        from textcontract.cli._ci_check import emit_check_ci  # SPEC §12

        emit_check_ci(request.output_format.value, parsed, documents, request.output)
    else:
        _write_text(request, documents)


def _write_report_dicts(
    request: CheckRequest, documents: Iterator[CheckedDocument], several: bool
) -> None:
    from textcontract.formats.report_json import dict_renderer, write_texts

    render = dict_renderer(request.output_format.value, several)
    array = request.output_format is CheckFormat.json and several
    with output_sink(request.output) as sink:
        write_texts((render(document.report) for document in documents), array, sink.write)


def _renderer(output_format: CheckFormat, several: bool) -> Render:
    """What renders one report, in the process that checked it (see ``render_inputs``)."""
    from textcontract.formats.report_json import json_document, json_item, jsonl_line

    if output_format is CheckFormat.jsonl:
        return jsonl_line
    return json_item if several else json_document


def _write_rendered(request: CheckRequest, rendered: Iterator[Rendered], several: bool) -> None:
    from textcontract.formats.report_json import write_texts

    array = request.output_format is CheckFormat.json and several
    with output_sink(request.output) as sink:
        write_texts((item.text for item in rendered), array, sink.write)


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
    import shutil  # with bz2 and lzma: only the text format asks for a width

    width = shutil.get_terminal_size().columns
    options = TextOptions(width, request.verbose, request.quiet)
    with output_sink(request.output) as sink:
        write_report_text(documents, sink.write, options)
