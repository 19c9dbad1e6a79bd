"""``audit --format junit | github | markdown | html``: the audit report in the CI formats.

JUnit and Markdown render the report alone. HTML shows every variant's change against its
baseline and GitHub annotations point at the line where each variant is written, and the
report holds neither: for those two the corpus is read again, case by case, and held to the
report's corpus digest (a corpus edited since the audit stops the command, exit 3, with
nothing written to ``--output``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from textcontract.audit import AuditResult, Corpus, variant_views
from textcontract.cli._ci_output import Write, append_step_summary
from textcontract.cli._output import output_sink

__all__ = ["CI_AUDIT_FORMATS", "emit_audit_ci"]

CI_AUDIT_FORMATS = frozenset({"junit", "github", "markdown", "html"})

LoadCorpus = Callable[[], Corpus]


def _views(corpus: Corpus, report: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for view in variant_views(corpus, report["corpus"]["digest"]):
        yield view.to_json()


def _github(result: AuditResult, corpus: Corpus, write: Write) -> None:
    from textcontract.formats.audit_markdown import render_audit_markdown
    from textcontract.formats.github import write_audit_annotations

    report = result.report
    places = {
        (view.case, view.variant): (view.file, view.line)
        for view in variant_views(corpus, report["corpus"]["digest"])
    }
    rules = {
        entry.rule.header.id: (entry.location.file or corpus.contract.source, entry.location.line)
        for entry in corpus.contract.entries
    }
    write_audit_annotations(report, places, rules, write)
    thresholds = [check.to_json() for check in result.thresholds]
    append_step_summary(render_audit_markdown(report, thresholds))


def emit_audit_ci(
    result: AuditResult, output_format: str, output: Path | None, load: LoadCorpus
) -> None:
    """Render ``result`` in a CI format; ``load`` reads the corpus again when one needs it."""
    report = result.report
    thresholds = [check.to_json() for check in result.thresholds]
    with output_sink(output, commands=output_format == "github") as sink:
        write = sink.write
        if output_format == "junit":
            from textcontract.formats.audit_junit import write_audit_junit

            write_audit_junit(report, write)
        elif output_format == "markdown":
            from textcontract.formats.audit_markdown import render_audit_markdown

            write(render_audit_markdown(report, thresholds))
        elif output_format == "html":
            from textcontract.formats.audit_html import write_audit_html

            write_audit_html(report, _views(load(), report), write, thresholds)
        else:
            _github(result, load(), write)
