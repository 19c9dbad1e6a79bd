"""``check --format sarif | junit | github``: reports to the CI formats (SPEC §12), and the
SARIF log ``--sarif-output`` writes beside any format in the same run."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from textcontract._version import __version__
from textcontract.cli._ci_output import Write, append_step_summary
from textcontract.cli._output import output_sink
from textcontract.contract import ParsedContract
from textcontract.formats.check_findings import CheckedDocument, RuleInfo
from textcontract.formats.json_text import dumps_compact, write_pretty

__all__ = ["CI_CHECK_FORMATS", "SarifSpool", "emit_check_ci", "rule_infos", "sarif_spool"]

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
    with output_sink(output, commands=output_format == "github") as sink:
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


class SarifSpool:
    """``check --sarif-output FILE``: the SARIF log of the documents that pass through
    :meth:`passing` on their way to the command's own format, written at the end.

    The run's output streams one document at a time (SPEC §11), so the log cannot be held
    until the end, nor written as it goes into a file another writer is filling. Each
    document's results are rendered as it passes and kept, one JSON line each, in an unnamed
    temporary file (gone with the process, however it ends); :meth:`write` then writes the
    log through the one JSON writer — the bytes ``--format sarif --output FILE`` writes.
    """

    def __init__(self, parsed: ParsedContract, lines: IO[str]) -> None:
        from textcontract.formats.sarif import SarifResults

        self._contract = parsed.ref.to_json()
        self._rules = rule_infos(parsed)
        self._base = os.getcwd()
        self._results = SarifResults(self._rules, self._base)
        self._lines = lines

    def passing(self, documents: Iterable[CheckedDocument]) -> Iterator[CheckedDocument]:
        """``documents``, unchanged, each one's results kept on the way."""
        for document in documents:
            for result in self._results.of(document):
                self._lines.write(dumps_compact(result) + "\n")
            yield document

    def _kept(self) -> Iterator[dict[str, object]]:
        self._lines.seek(0)
        for line in self._lines:
            result: dict[str, object] = json.loads(line)
            yield result

    def write(self, output: Path) -> None:
        """Write the log of every document that passed into ``output`` (atomically)."""
        from textcontract.formats.sarif import SarifRun, sarif_log

        run = SarifRun(self._contract, self._rules, results=self._kept())
        with output_sink(output) as sink:
            write_pretty(sarif_log([run], __version__, self._base), sink.write)


@contextmanager
def sarif_spool(parsed: ParsedContract) -> Iterator[SarifSpool]:
    """A :class:`SarifSpool` over an unnamed temporary file, closed (and gone) on leaving."""
    with tempfile.TemporaryFile("w+", encoding="utf-8") as lines:
        yield SarifSpool(parsed, lines)
