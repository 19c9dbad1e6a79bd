"""``test --format text``: each example mismatch, then one summary line per contract.

Renders the JSON form of ``textcontract.authoring.ContractExamples``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.text import Text

__all__ = ["render_examples_text"]

_TEXT_WIDTH = 70


def _place(location: Mapping[str, Any]) -> str:
    parts = [str(location["file"] or "<contract>")]
    if location["line"] is not None:
        parts.append(str(location["line"]))
        if location["column"] is not None:
            parts.append(str(location["column"]))
    return ":".join(parts)


def _shown(text: str) -> str:
    flat = text.replace("\n", "\\n")
    return flat if len(flat) <= _TEXT_WIDTH else flat[: _TEXT_WIDTH - 1] + "…"


def _mismatch(result: Mapping[str, Any], console: Console) -> None:
    line = Text()
    line.append(f"{_place(result['location'])}: ")
    line.append("mismatch", style="bold red")
    line.append(f" {result['rule']} example {result['example']}: expected ")
    line.append(result["expected"], style="bold")
    line.append(", observed ")
    line.append(result["observed"], style="bold")
    console.print(line, soft_wrap=True)
    console.print(Text(f"    text: {_shown(result['text'])!r}"), soft_wrap=True)
    for check in result["checks"]:
        console.print(
            Text(f"    {check['status']} {check['code']} {check['scope']}: {check['message']}"),
            soft_wrap=True,
        )


def render_examples_text(contracts: Sequence[Mapping[str, Any]], console: Console) -> None:
    """Mismatches of every contract, a summary line each, and untested rules."""
    for contract in contracts:
        for result in contract["mismatches"]:
            _mismatch(result, console)
        summary = Text()
        summary.append(f"{contract['contract']}: {contract['examples']} examples, ")
        count = len(contract["mismatches"])
        summary.append(
            f"{count} mismatch{'es' if count != 1 else ''}",
            style="bold red" if count else "green",
        )
        untested = contract["rules_without_examples"]
        if untested:
            summary.append(f"; rules without examples: {', '.join(untested)}", style="yellow")
        console.print(summary, soft_wrap=True)
