"""``rules --format text``: rule types with parameters and codes, or the shipped packs.

Renders the JSON form built by ``textcontract.authoring`` (``describe_rule_types``,
``describe_packs``), so text and JSON always show the same facts. Lines are
never hard-wrapped: the terminal wraps them, and files keep one fact a line.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.text import Text

__all__ = ["render_packs_text", "render_rule_types_text"]


def _default(param: Mapping[str, Any]) -> str:
    if param["required"]:
        return "required"
    if param["default"] is None:
        return "optional"
    return f"default {json.dumps(param['default'], ensure_ascii=False)}"


def _bounds(param: Mapping[str, Any]) -> str:
    low, high = param.get("minimum"), param.get("maximum")
    if low is None and high is None:
        return ""
    if high is None:
        return f" ≥ {low}"
    if low is None:
        return f" ≤ {high}"
    return f" {low}–{high}"


def _rule_type_lines(described: Mapping[str, Any]) -> list[Text]:
    title = Text()
    title.append(described["name"], style="bold")
    title.append(f"  {described['kind']}")
    if described["origin"] != "builtin":
        title.append(f"  from {described['origin']}", style="cyan")
    lines = [title, Text(f"  {described['summary']}")]
    for param in described["params"]:
        line = Text("    ")
        line.append(param["name"], style="bold")
        line.append(f": {param['type']}{_bounds(param)}, {_default(param)} — ")
        line.append(param["description"])
        lines.append(line)
    if not described["params"]:
        lines.append(Text("    (no parameters)"))
    codes = ", ".join(
        f"{code['code']} ({'/'.join(code['statuses'])})" for code in described["codes"]
    )
    lines.append(Text(f"  codes: {codes}"))
    return lines


def _print_lines(lines: Sequence[Text], console: Console) -> None:
    for line in lines:
        console.print(line, soft_wrap=True)


def render_rule_types_text(types: Sequence[Mapping[str, Any]], console: Console) -> None:
    """One block per rule type: kind, origin for plugins, parameters, codes."""
    for index, described in enumerate(types):
        if index:
            console.print()
        _print_lines(_rule_type_lines(described), console)


def render_packs_text(packs: Sequence[Mapping[str, Any]], console: Console) -> None:
    """One block per shipped pack: how to include it, then its rules."""
    if not packs:
        console.print("no rule packs are shipped")
        return
    for index, pack in enumerate(packs):
        if index:
            console.print()
        title = Text()
        title.append(f"include: [{pack['include']}]", style="bold")
        if pack["description"]:
            title.append(f"  {pack['description']}")
        lines = [title]
        for rule in pack["rules"]:
            severity = rule["severity"]
            if rule["enforcement"] != "blocking":
                severity += f", {rule['enforcement']}"
            line = Text("  ")
            line.append(rule["id"], style="bold")
            line.append(f" ({rule['type']}, {severity})")
            if rule["description"]:
                line.append(f" — {rule['description']}")
            lines.append(line)
        _print_lines(lines, console)
