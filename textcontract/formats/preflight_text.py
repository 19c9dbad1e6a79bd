"""``preflight --format text`` (and ``audit --format text`` when its preflight fails).

Rendered from the verdict's JSON form only: the verdict, every check that did not
hold with its note, and the plan's size.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Console
from rich.text import Text

from textcontract.formats.audit_terms import short_digest
from textcontract.formats.text_lines import print_line

__all__ = ["render_preflight_text"]


_STYLES = {"failed": "bold red", "exempt": "yellow"}
_NOTE_INDENT = "    "


def _checks(verdict: Mapping[str, Any]) -> list[tuple[Text, str, str]]:
    """One line per check that is not satisfied, its note below it (with their indents)."""
    shown = [check for check in verdict["checks"] if check["outcome"] != "satisfied"]
    lines = [(Text(f"checks: {len(verdict['checks'])}, {len(shown)} not satisfied"), "", "")]
    for check in shown:
        outcome = (check["outcome"], _STYLES.get(check["outcome"], ""))
        line = Text.assemble("  - ", outcome, f" {check['kind']}: {check['subject']}")
        line.no_wrap = True  # a subject is one token: a narrow terminal folds it, not us
        lines.append((line, "", ""))
        if check["note"]:
            lines.append((Text(check["note"], style="dim"), _NOTE_INDENT, _NOTE_INDENT))
    return lines


def render_preflight_text(verdict: Mapping[str, Any], console: Console) -> None:
    """Print a preflight verdict for people (lines wrapped by :mod:`.text_lines`)."""
    contract = verdict["contract"]
    passed = verdict["passed"]
    plan = verdict["plan"]
    lines: list[tuple[Text, str, str]] = [
        (
            Text.assemble(
                ("preflight of ", ""),
                (contract["id"], "bold"),
                (f" version {contract['version']}", ""),
                (f"  ({short_digest(contract['digest'])})", "dim"),
            ),
            "",
            "",
        ),
        (Text(f"mode: {verdict['mode']}"), "", ""),
        (
            Text.assemble(
                ("verdict: ", "bold"),
                ("passed", "bold green") if passed else ("failed", "bold red"),
                "" if passed else " — nothing was evaluated beyond the baselines",
            ),
            "  ",
            "",
        ),
        *_checks(verdict),
        (
            Text(
                f"plan: {len(plan['probes'])} admitted probes, {plan['trials_total']} trials; "
                f"{len(plan['excluded'])} variants excluded"
            ),
            "  ",
            "",
        ),
    ]
    for line, hanging, indent in lines:
        print_line(console, line, hanging, indent)
