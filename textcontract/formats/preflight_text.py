"""``preflight --format text`` (and ``audit --format text`` when its preflight fails).

Rendered from the verdict's JSON form only: the verdict, every check that did not
hold with its note, and the plan's size.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Console
from rich.padding import Padding
from rich.text import Text

__all__ = ["render_preflight_text"]


_STYLES = {"failed": "bold red", "exempt": "yellow"}


def _checks(verdict: Mapping[str, Any]) -> list[Text | Padding]:
    """One line per check that is not satisfied (subject whole), its note below it."""
    shown = [check for check in verdict["checks"] if check["outcome"] != "satisfied"]
    lines: list[Text | Padding] = [
        Text(f"checks: {len(verdict['checks'])}, {len(shown)} not satisfied")
    ]
    for check in shown:
        lines.append(
            Text.assemble(
                "  - ",
                (check["outcome"], _STYLES.get(check["outcome"], "")),
                f" {check['kind']}: {check['subject']}",
            )
        )
        if check["note"]:
            lines.append(Padding(Text(check["note"], style="dim"), (0, 0, 0, 4)))
    return lines


def render_preflight_text(verdict: Mapping[str, Any], console: Console) -> None:
    """Print a preflight verdict for people."""
    contract = verdict["contract"]
    console.print(
        Text.assemble(
            ("preflight of ", ""),
            (contract["id"], "bold"),
            (f" version {contract['version']}", ""),
            (f"  ({contract['digest'][:19]}…)", "dim"),
        )
    )
    console.print(f"mode: {verdict['mode']}")
    passed = verdict["passed"]
    console.print(
        Text.assemble(
            ("verdict: ", "bold"),
            ("passed", "bold green") if passed else ("failed", "bold red"),
            "" if passed else " — nothing was evaluated beyond the baselines",
        )
    )
    for line in _checks(verdict):
        console.print(line)
    plan = verdict["plan"]
    console.print(
        f"plan: {len(plan['probes'])} admitted probes, {plan['trials_total']} trials; "
        f"{len(plan['excluded'])} variants excluded"
    )
