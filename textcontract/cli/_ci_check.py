"""``check --format sarif | junit | github``: reports to the CI formats (SPEC §12)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from textcontract._version import __version__
from textcontract.cli._ci_output import Write, append_step_summary
from textcontract.cli._output import output_sink
from textcontract.contract import ParsedContract
from textcontract.formats.check_findings import CheckedDocument, RuleInfo
from textcontract.formats.json_text import write_pretty

__all__ = ["CI_CHECK_FORMATS", "emit_check_ci", "rule_infos"]

CI_CHECK_FORMATS = frozenset({"sarif", "junit", "github"})


def rule_infos(parsed: ParsedContract) -> list[RuleInfo]:
    """The contract's rules (includes expanded, in order) as the formats describe them."""
    return [
        RuleInfo(
            id=header.id,
            type=header.type,
            kind=header.kind.value,
            severity=header.severity.value,
            enforcement=header.enforcement.value,
            description=header.description,
        )
        for header in (rule.header for rule in parsed.rules)
    ]


def emit_check_ci(
    output_format: str,
    parsed: ParsedContract,
    documents: Iterable[CheckedDocument],
    output: Path | None,
) -> None:
    """Render checked documents, as they come, in a CI format to ``output`` or stdout."""
    base = os.getcwd()
    documents = iter(documents)
    with output_sink(output) as sink:
        write = sink.write
        if output_format == "sarif":
            from textcontract.formats.sarif import SarifRun, sarif_log

            run = SarifRun(parsed.ref.to_json(), rule_infos(parsed), documents)
            write_pretty(sarif_log([run], __version__, base), write)
        elif output_format == "junit":
            from textcontract.formats.check_junit import write_check_junit

            write_check_junit(documents, write)
        else:
            _github(documents, base, write)


def _github(documents: Iterator[CheckedDocument], base: str, write: Write) -> None:
    from textcontract.formats.check_markdown import CheckSummary
    from textcontract.formats.github import write_check_annotations

    summary = CheckSummary()

    def counted() -> Iterator[CheckedDocument]:
        for document in documents:
            summary.add(document)
            yield document

    write_check_annotations(counted(), base, write)
    append_step_summary(summary.markdown())
