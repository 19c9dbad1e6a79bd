"""``check --format text``: a rich table per document, then its verdict line."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from textcontract.model import Check, Report, Status

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


def _table(report: Report) -> Table:
    table = Table(show_edge=False, pad_edge=False, expand=False)
    table.add_column("status", no_wrap=True)
    table.add_column("rule", no_wrap=True)
    table.add_column("code", no_wrap=True)
    table.add_column("scope", overflow="fold")
    table.add_column("evidence", overflow="fold")
    for check in report.checks:
        table.add_row(
            Text(check.status.value, style=status_style(check.status)),
            check.rule_id
            if check.enforcement.value == "blocking"
            else f"{check.rule_id} (advisory)",
            check.code,
            check.scope,
            _evidence_excerpt(check),
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
    return verdict


def render_report_text(reports: Sequence[tuple[str, Report]], console: Console) -> None:
    """Print each document's table and verdict to ``console``."""
    for index, (name, report) in enumerate(reports):
        if index:
            console.print()
        parts: list[Any] = [Text(name, style="bold"), _table(report), _verdict(name, report)]
        console.print(Group(*parts))
