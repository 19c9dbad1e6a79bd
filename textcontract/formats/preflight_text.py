"""``preflight --format text`` (and ``audit --format text`` when its preflight fails).

Rendered from the verdict's JSON form only: the verdict, every check that did not
hold with its note, and the plan's size.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

__all__ = ["render_preflight_text"]


def _checks(verdict: Mapping[str, Any]) -> Table | Text:
    shown = [check for check in verdict["checks"] if check["outcome"] != "satisfied"]
    if not shown:
        return Text(f"every check satisfied ({len(verdict['checks'])})")
    table = Table(title="checks that did not hold", title_justify="left")
    table.add_column("kind", no_wrap=True)
    table.add_column("subject", overflow="fold", ratio=1)
    table.add_column("outcome", no_wrap=True)
    table.add_column("note", overflow="fold", ratio=1)
    for check in shown:
        table.add_row(check["kind"], check["subject"], check["outcome"], check["note"] or "")
    return table


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
    console.print(_checks(verdict))
    plan = verdict["plan"]
    console.print(
        f"plan: {len(plan['probes'])} admitted probes, {plan['trials_total']} trials; "
        f"{len(plan['excluded'])} variants excluded"
    )
