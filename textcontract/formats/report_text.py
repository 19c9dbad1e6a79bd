"""``check --format text``: a rich table per document, then its verdict line."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from textcontract.formats.check_findings import check_location, location_text
from textcontract.model import Check, Document, Enforcement, Report, Status

__all__ = ["render_report_text", "status_style"]

_STYLES = {
    Status.SATISFIED: "green",
    Status.VIOLATED: "red",
    Status.UNDETERMINED: "yellow",
    Status.ERROR: "bold magenta",
}
_EXCERPT_WIDTH = 60


def status_style(status: Status) -> str:
    return _STYLES[status]


def _evidence_excerpt(check: Check) -> str:
    if not check.evidence:
        return check.message
    first = check.evidence[0]
    for name in ("excerpt", "match"):
        value = first.get(name)
        if isinstance(value, str):
            return _shorten(value)
    return _shorten(check.message)


def _shorten(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= _EXCERPT_WIDTH else flat[: _EXCERPT_WIDTH - 1] + "…"


def _place(name: str, check: Check, source: Document | None) -> str | None:
    """``path:line:column`` of the check's first located evidence (SPEC §10), if any."""
    location = check_location(check.to_json())
    if location is None:
        return None
    surface = source.surface(str(location["surface"])) if source is not None else None
    if surface is None:
        return location_text(name, location, None, in_file_lines=False)
    return location_text(name, location, surface.origin.line, surface.origin.file_lines)


def _table(name: str, report: Report, source: Document | None) -> Table:
    table = Table(show_edge=False, pad_edge=False, expand=False, show_lines=False)
    table.add_column("status", no_wrap=True)
    table.add_column("rule", no_wrap=True, overflow="ellipsis", max_width=28)
    table.add_column("code", no_wrap=True, overflow="ellipsis", max_width=28)
    table.add_column("scope / evidence", overflow="fold", ratio=1, min_width=24)
    for check in report.checks:
        rule = check.rule_id if check.enforcement is Enforcement.BLOCKING else f"{check.rule_id}*"
        detail = Text(check.scope)
        place = _place(name, check, source)
        if place is not None:
            detail.append(f"  {place}")
        detail.append("\n")
        detail.append(_evidence_excerpt(check), style="dim")
        table.add_row(
            Text(check.status.value, style=status_style(check.status)), rule, check.code, detail
        )
    return table


def _verdict(name: str, report: Report) -> Text:
    verdict = Text()
    verdict.append(f"{name}: ")
    verdict.append(
        "accepted" if report.accepted else "rejected",
        style="green" if report.accepted else "bold red",
    )
    verdict.append(", ")
    verdict.append(
        "complete" if report.complete else "incomplete",
        style="green" if report.complete else "yellow",
    )
    counts = report.counts
    verdict.append(
        f"  ({counts['satisfied']} satisfied, {counts['violated']} violated, "
        f"{counts['undetermined']} undetermined, {counts['error']} error)"
    )
    if any(check.enforcement is Enforcement.ADVISORY for check in report.checks):
        verdict.append("\n* advisory rule: never rejects through violated or undetermined")
    return verdict


def render_report_text(
    reports: Sequence[tuple[str, Report]], console: Console, sources: Sequence[Document] = ()
) -> None:
    """Print each document's table and verdict to ``console``.

    ``sources``, the checked documents in report order, give the file lines of surfaces
    other than a markdown body.
    """
    for index, (name, report) in enumerate(reports):
        if index:
            console.print()
        source = sources[index] if index < len(sources) else None
        table = _table(name, report, source)
        parts: list[Any] = [Text(name, style="bold"), table, _verdict(name, report)]
        console.print(Group(*parts))
