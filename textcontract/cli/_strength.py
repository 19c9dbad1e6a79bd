"""``score``, ``aggregate-strength`` and ``compare``: the strength scorer's commands."""

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
from textcontract.strength import aggregate, artifact_exit_code, compare, floors_met, score_records
from textcontract.strength_files import (
    read_json_input,
    read_policy_file,
    read_probe_file,
    read_record_file,
)

__all__ = ["JsonFormat", "register", "run_aggregate", "run_compare", "run_score"]


class JsonFormat(StrEnum):
    json = "json"


FormatOption = Annotated[JsonFormat, typer.Option("--format", "-f", help="Output format.")]
PolicyOption = Annotated[
    Path, typer.Option("--policy", metavar="FILE", help="Scoring policy file (YAML or JSON).")
]


def run_score(
    records: list[Path],
    probe: Path,
    policy: Path,
    corpus_digest: str | None,
    fixture_digest: str | None,
    output: Path | None,
) -> int:
    check_output_file(output)
    loaded_policy = read_policy_file(policy)
    loaded_probe = read_probe_file(probe)
    loaded = [read_record_file(path) for path in records]
    artifact = score_records(loaded, loaded_probe, loaded_policy, corpus_digest, fixture_digest)
    emit(dumps_pretty(artifact), output)
    return int(artifact_exit_code(artifact))


def run_aggregate(artifacts: list[Path], policy: Path, output: Path | None) -> int:
    check_output_file(output)
    loaded_policy = read_policy_file(policy)
    loaded = [read_json_input(path) for path in artifacts]
    result = aggregate(loaded, loaded_policy)
    emit(dumps_pretty(result), output)
    return int(ExitCode.OK if floors_met(result) else ExitCode.FAILED)


def run_compare(first: Path, second: Path, output: Path | None) -> int:
    check_output_file(output)
    emit(dumps_pretty(compare(read_json_input(first), read_json_input(second))), output)
    return int(ExitCode.OK)


def register(app: typer.Typer) -> None:
    @app.command("score")
    @exits_with_codes
    def score_command(
        record: Annotated[
            list[Path],
            typer.Option(
                "--record", metavar="FILE", help="A sealed trial record; repeat per trial."
            ),
        ],
        probe: Annotated[Path, typer.Option("--probe", metavar="FILE", help="The probe file.")],
        policy: PolicyOption,
        corpus_digest: Annotated[
            str | None,
            typer.Option("--corpus-digest", metavar="DIGEST", help="Attested corpus digest."),
        ] = None,
        fixture_digest: Annotated[
            str | None,
            typer.Option("--fixture-digest", metavar="DIGEST", help="Attested fixture digest."),
        ] = None,
        output_format: FormatOption = JsonFormat.json,
        output: OutputOption = None,
        version: VersionOption = False,
    ) -> int:
        """Score one probe's trial records into an evidence artifact. Exit 1 on a FAIL verdict."""
        del version  # -V/--version is handled by its callback
        del output_format
        return run_score(record, probe, policy, corpus_digest, fixture_digest, output)

    @app.command("aggregate-strength")
    @exits_with_codes
    def aggregate_command(
        artifacts: Annotated[
            list[Path], typer.Argument(metavar="ARTIFACT…", help="Evidence artifacts of one run.")
        ],
        policy: PolicyOption,
        output_format: FormatOption = JsonFormat.json,
        output: OutputOption = None,
        version: VersionOption = False,
    ) -> int:
        """Run-wide class rates and floor decisions. Exit 1 when a floor is missed, 4 on refusal."""
        del version  # -V/--version is handled by its callback
        del output_format
        return run_aggregate(artifacts, policy, output)

    @app.command("compare")
    @exits_with_codes
    def compare_command(
        first: Annotated[Path, typer.Argument(metavar="A", help="Artifact or audit report A.")],
        second: Annotated[Path, typer.Argument(metavar="B", help="Artifact or audit report B.")],
        output_format: FormatOption = JsonFormat.json,
        output: OutputOption = None,
        version: VersionOption = False,
    ) -> int:
        """Which measurement dominates: a-dominates-b, b-dominates-a, equivalent, incomparable."""
        del version  # -V/--version is handled by its callback
        del output_format
        return run_compare(first, second, output)
