"""``lint --format text``: one line per warning (file:line:column), then a count."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.text import Text

__all__ = ["render_lint_text"]


def _place(warning: Mapping[str, Any]) -> str:
    parts = [str(warning["file"] or "<contract>")]
    if warning["line"] is not None:
        parts.append(str(warning["line"]))
        if warning["column"] is not None:
            parts.append(str(warning["column"]))
    return ":".join(parts)


def render_lint_text(warnings: Sequence[Mapping[str, Any]], console: Console) -> None:
    for warning in warnings:
        line = Text()
        line.append(f"{_place(warning)}: ")
        line.append(warning["code"], style="yellow")
        field = f" ({warning['field']})" if warning["field"] else ""
        line.append(f" {warning['rule']}{field}: {warning['message']}")
        console.print(line, soft_wrap=True)
    count = len(warnings)
    console.print(
        Text(
            f"{count} warning{'s' if count != 1 else ''}" if count else "no warnings",
            style="yellow" if count else "green",
        )
    )
