"""``textcontract merge PART…``: the full audit report from the part files of a sharded audit.

Exit codes are the audit's on the merged report (0, or 1 for a missed threshold or a
FAIL verdict, 5 for an INVALID one); 2 for a part that cannot be read or is not a part
file; 4 when the parts do not belong together, or one disagrees with itself or (with
``--corpus DIR``) with the corpus (one stderr line naming the first offending part, and
the record where one is at fault). When the audit's preflight failed, every shard wrote
the same failed preflight verdict instead of a part: ``merge`` of those verdicts prints it
as ``audit`` would and exits 5.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from textcontract.cli._atomic import check_output_file
from textcontract.cli._audit import AuditFormat, emit_audit
from textcontract.cli._errors import exits_with_codes
from textcontract.cli._file_set import check_output_folder
from textcontract.cli._options import OutputOption, VersionOption, jobs_option
from textcontract.cli._output import emit_rendered, output_sink
from textcontract.errors import ExitCode, InputError
from textcontract.formats.json_text import write_pretty

if TYPE_CHECKING:
    from textcontract.audit import Corpus, CorpusFacts

__all__ = ["MergeFormat", "register", "run_merge_command"]


class MergeFormat(StrEnum):
    """The audit's formats that need nothing but the report."""

    json = "json"
    text = "text"
    junit = "junit"
    markdown = "markdown"


def _no_corpus() -> Corpus:
    raise InputError.at("this format needs the corpus: use `textcontract audit DIR`", "merge")


def _render_verdict(
    verdict: dict[str, Any], output_format: MergeFormat, output: Path | None
) -> None:
    """A failed preflight verdict as ``audit`` prints it: JSON, else as text."""
    if output_format is not MergeFormat.text:
        with output_sink(output) as sink:
            write_pretty(verdict, sink.write)
        return
    from textcontract.formats.preflight_text import render_preflight_text  # imports rich

    emit_rendered(lambda console: render_preflight_text(verdict, console), output)


def _without_corpus(given: dict[str, bool]) -> None:
    """The options that say how to read the corpus are refused without ``--corpus``."""
    for option, present in given.items():
        if present:
            raise InputError.at("says how to read --corpus DIR, which is not given", option)


def run_merge_command(
    parts: list[Path],
    *,
    output_format: MergeFormat = MergeFormat.json,
    output: Path | None = None,
    artifacts: Path | None = None,
    records: Path | None = None,
    min_detection: float | None = None,
    min_preservation: float | None = None,
    corpus: Path | None = None,
    contract: Path | None = None,
    allow_missing_rules: bool = False,
    jobs: int | None = None,
) -> int:
    if corpus is None:
        _without_corpus(
            {"--contract": contract is not None, "--allow-missing-rules": allow_missing_rules,
             "--jobs": jobs is not None}
        )  # fmt: skip
    check_output_file(output)
    check_output_folder(artifacts, "the artifact set")
    check_output_folder(records, "the record set")
    from textcontract.audit import Part, corpus_facts, failed_preflight, merge_audit  # to run
    from textcontract.strength_files import read_json_input

    loaded = [Part(*read_json_input(path)) for path in parts]
    facts: CorpusFacts | None = None
    if corpus is not None:
        facts = corpus_facts(
            corpus, contract=contract, allow_missing_rules=allow_missing_rules, jobs=jobs or 1
        )
    verdict = failed_preflight(loaded, facts)
    if verdict is not None:
        _render_verdict(verdict, output_format, output)
        return int(ExitCode.INVALID)
    result = merge_audit(
        loaded, detection=min_detection, preservation=min_preservation, corpus=facts
    )
    shown = AuditFormat(output_format.value)
    emit_audit(result, shown, output, artifacts, records, _no_corpus)
    return int(result.exit_code)


def register(app: typer.Typer) -> None:
    @app.command("merge")
    @exits_with_codes
    def merge_command(
        parts: Annotated[
            list[Path],
            typer.Argument(metavar="PART…", help="Part files of `audit --shard K/N`, every shard."),
        ],
        output_format: Annotated[
            MergeFormat, typer.Option("--format", "-f", help="Output format.")
        ] = MergeFormat.json,
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
        corpus: Annotated[
            Path | None,
            typer.Option(
                "--corpus",
                metavar="DIR",
                help="Check every part's run and every record's labels against this corpus "
                "(loaded and preflighted as `audit` does; no trial is evaluated).",
            ),
        ] = None,
        contract: Annotated[
            Path | None,
            typer.Option(
                "--contract",
                "-c",
                metavar="FILE",
                help="With --corpus: the contract the shards were given (default: audit.yaml's).",
            ),
        ] = None,
        allow_missing_rules: Annotated[
            bool,
            typer.Option(
                "--allow-missing-rules",
                help="With --corpus: load it as the shards did with this flag.",
            ),
        ] = False,
        jobs: Annotated[int | None, jobs_option("read the corpus (with --corpus)")] = None,
        version: VersionOption = False,
    ) -> int:
        """Merge the part files of a sharded audit into the full audit report. Exit as `audit`
        would on it (5 for an INVALID run, or a failed preflight every shard wrote); 4 when
        the parts do not belong together, a shard is missing, or a part disagrees with
        itself or with --corpus."""
        del version  # -V/--version is handled by its callback
        return run_merge_command(
            parts,
            output_format=output_format,
            output=output,
            artifacts=artifacts,
            records=records,
            min_detection=min_detection,
            min_preservation=min_preservation,
            corpus=corpus,
            contract=contract,
            allow_missing_rules=allow_missing_rules,
            jobs=jobs,
        )
