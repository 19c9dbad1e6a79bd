"""``textcontract mutate BASELINE --case-id ID``: generate a case file of SPEC §14; ``--list``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from textcontract.cli._actions import inert
from textcontract.cli._check_run import resolve_contract
from textcontract.cli._errors import exits_with_codes
from textcontract.cli._options import ContractOption, OutputOption, VersionOption
from textcontract.cli._output import emit
from textcontract.errors import ExitCode, InputError

if TYPE_CHECKING:
    from textcontract.model import Context
    from textcontract.mutate import GeneratedCase

# The operators, the engine and the readers load when the command runs.

__all__ = ["operator_lines", "register", "run_mutate"]


def operator_lines() -> list[str]:
    """One line per operator: name, class, targeted rule types, what it asserts."""
    from textcontract.mutate import OperatorClass, default_operators

    registry = default_operators()
    width = max(len(name) for name in registry) + 2
    lines = []
    for name, operator in registry.items():
        if operator.probe_class is OperatorClass.PRESERVE:
            targets = "(every rule: must stay accepted and complete)"
        else:
            targets = ", ".join(operator.targets)
        lines.append(
            f"{name:<{width}}{operator.probe_class.value:<13}{targets} — {operator.summary}"
        )
    return lines


def _context(baseline: Path, context: Path | None) -> Context:
    """``--context``, else the baseline's sibling ``<name>.context.json``, else empty."""
    from textcontract.inputs import load_context_file
    from textcontract.model import Context

    if context is not None:
        return load_context_file(context, str(context))
    stem = baseline.name.rsplit(".", 1)[0] if "." in baseline.name else baseline.name
    sibling = baseline.with_name(f"{stem}.context.json")
    if sibling != baseline and sibling.is_file():
        typer.echo(inert(f"context: {sibling} (beside the baseline)"), err=True)
        return load_context_file(sibling, str(sibling))
    return Context.empty()


def _operator_names(operators: str | None) -> list[str] | None:
    if operators is None:
        return None
    names = [name.strip() for name in operators.split(",")]
    if any(not name for name in names):
        raise InputError.at(
            f"--operators {operators!r}: an empty name (give names separated by commas)", None
        )
    return names


def _report_skips(case: GeneratedCase) -> None:
    for skipped in case.skipped:
        typer.echo(inert(f"skipped: {skipped.operator}: {skipped.reason}"), err=True)
    count = len(case.variants)
    summary = (
        f"generated {count} variant{'' if count == 1 else 's'} for case {case.case_id} with "
        f"{len(case.operators) - len(case.idle_operators)} of {len(case.operators)} operators"
    )
    if case.idle_operators:
        summary += f"; no variant from: {', '.join(case.idle_operators)}"
    typer.echo(inert(summary), err=True)


def run_mutate(
    baseline: Path | None,
    context: Path | None,
    contract: Path | None,
    case_id: str | None,
    operators: str | None,
    seed: int,
    output: Path | None,
    list_only: bool = False,
) -> int:
    if list_only:
        if baseline is not None:
            raise InputError.at("--list takes no BASELINE", str(baseline))
        emit("\n".join(operator_lines()) + "\n", output)
        return int(ExitCode.OK)
    if baseline is None:
        raise InputError.at("missing BASELINE: the document to mutate (or pass --list)", None)
    if case_id is None:
        raise InputError.at("missing --case-id ID: the id of the generated case", None)
    if output is not None and output.is_dir():
        raise InputError.at("--output names a folder; give a file", str(output))
    names = _operator_names(operators)
    from textcontract.inputs import load_document_file
    from textcontract.mutate import generate_case

    parsed = resolve_contract(contract)
    document = load_document_file(baseline, str(baseline))
    case = generate_case(
        document, _context(baseline, context), parsed, case_id, operators=names, seed=seed
    )
    _report_skips(case)
    emit(case.to_yaml(), output)
    return int(ExitCode.OK)


def register(app: typer.Typer) -> None:
    @app.command("mutate")
    @exits_with_codes
    def mutate_command(
        baseline: Annotated[
            Path | None,
            typer.Argument(
                metavar="BASELINE",
                help="The baseline document (.json, else markdown/text); accepted and complete.",
                show_default=False,
            ),
        ] = None,
        context: Annotated[
            Path | None,
            typer.Option(
                "--context",
                metavar="CTX",
                help="Context JSON file (default: BASELINE's sibling NAME.context.json, "
                "else empty).",
            ),
        ] = None,
        contract: ContractOption = None,
        case_id: Annotated[
            str | None, typer.Option("--case-id", metavar="ID", help="Id of the generated case.")
        ] = None,
        operators: Annotated[
            str | None,
            typer.Option(
                "--operators",
                metavar="a,b,…",
                help="Operators to run, comma-separated (default: all; see --list).",
            ),
        ] = None,
        seed: Annotated[
            int,
            typer.Option(
                "--seed", metavar="N", min=0, help="Seed of every choice the operators make."
            ),
        ] = 0,
        output: OutputOption = None,
        list_only: Annotated[
            bool, typer.Option("--list", help="List the operators, one per line, and exit.")
        ] = False,
        version: VersionOption = False,
    ) -> int:
        """Generate a mutation corpus case from a baseline, for `textcontract audit`.

        Exit 0 when the case is written (operators that cannot apply are named on stderr),
        1 when the baseline is not accepted and complete, 2 on a usage or input error.
        """
        del version  # -V/--version is handled by its callback
        return run_mutate(baseline, context, contract, case_id, operators, seed, output, list_only)
