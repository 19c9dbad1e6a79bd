"""What ``textcontract check`` does, importable without typer or rich.

:mod:`textcontract.cli._check` registers the command; :mod:`textcontract.cli._fast` runs it
directly for plain argument lists, so a cold ``check`` does not pay for the CLI framework.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path

from textcontract.cli._atomic import check_output_file
from textcontract.cli._output import emit, emit_rendered
from textcontract.contract import (
    CONTRACT_FILENAME,
    ParsedContract,
    locate_contract,
    parse_contract_file,
)
from textcontract.engine import evaluate
from textcontract.errors import ExitCode, InputError
from textcontract.formats.report_json import render_json, render_jsonl
from textcontract.inputs import load_context_file, load_document_file
from textcontract.model import Context

__all__ = ["CheckFormat", "resolve_contract", "run_check"]


class CheckFormat(StrEnum):
    text = "text"
    json = "json"
    jsonl = "jsonl"
    sarif = "sarif"
    junit = "junit"
    github = "github"


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


def run_check(
    documents: list[Path],
    context: Path | None,
    contract: Path | None,
    output_format: CheckFormat,
    output: Path | None,
) -> int:
    check_output_file(output)
    definition = resolve_contract(contract)
    loaded_context = (
        load_context_file(context, str(context)) if context is not None else Context.empty()
    )
    loaded = [(str(path), load_document_file(path, str(path))) for path in documents]
    reports = [(name, evaluate(definition, document, loaded_context)) for name, document in loaded]
    if output_format is CheckFormat.json:
        emit(render_json(reports), output)
    elif output_format is CheckFormat.jsonl:
        emit(render_jsonl(reports), output)
    elif output_format in (CheckFormat.sarif, CheckFormat.junit, CheckFormat.github):
        from textcontract.cli._ci_check import emit_check_ci  # SPEC §12

        sources = [document for _, document in loaded]
        emit_check_ci(output_format.value, definition, reports, output, sources)
    else:
        from textcontract.formats.report_text import render_report_text  # imports rich

        sources = [document for _, document in loaded]
        emit_rendered(lambda console: render_report_text(reports, console, sources), output)
    accepted = all(report.accepted for _, report in reports)
    return int(ExitCode.OK if accepted else ExitCode.FAILED)
