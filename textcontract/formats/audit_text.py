"""``audit --format text``: the audit report as a terminal summary.

Rendered from the report's JSON form only (no engine code): figures with their
counts and intervals, the strength vector per class, the verdict with every
reason, coverage gaps, per-family counts, then the undetected faults, the
variations that were not preserved, and the exclusions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from rich.console import Console
from rich.table import Table
from rich.text import Text

from textcontract.formats.audit_terms import REASON_TEXT
from textcontract.formats.text_lines import print_line, print_table

__all__ = ["REASON_TEXT", "render_audit_text"]

_VERDICT_STYLES = {
    "PASS": "bold green",
    "WAIVED": "bold cyan",
    "CONCERNS": "bold yellow",
    "FAIL": "bold red",
    "INVALID": "bold magenta",
}
_OUTCOME_COLUMNS = ("detected", "undetected", "preserved", "not-preserved", "excluded")


def _number(value: float | None) -> str:
    return "null" if value is None else f"{value:.3f}"


def _interval(interval: Sequence[float] | None) -> str:
    if interval is None:
        return "95% interval: null"
    return f"95% interval [{interval[0]:.3f}, {interval[1]:.3f}]"


def _threshold_text(checks: Sequence[Mapping[str, Any]], figure: str) -> Text:
    for check in checks:
        if check["figure"] == figure:
            text = Text(f"   minimum {check['minimum']:.3f}: ")
            if check["met"]:
                text.append("met", style="green")
            elif check["value"] is None:
                text.append("not met (null figure: nothing measured)", style="bold red")
            else:
                text.append("not met", style="bold red")
            return text
    return Text("")


def _run_lines(report: Mapping[str, Any]) -> list[Text]:
    """Mode, recommendation, preflight and source revision (SPEC §17), when the report has them."""
    mode = report.get("mode", "contract-scoring")
    line = Text(f"mode: {mode}")
    if mode == "production":
        line.append(f", evaluator recommendation {report.get('evaluator_recommendation')}")
        line.append(" (from the baselines)", style="dim")
    lines = [line]
    preflight = report.get("preflight")
    if preflight is not None:
        lines.append(Text(f"preflight: passed ({preflight['digest'][:19]}…)", style="dim"))
    revision = report.get("source_revision")
    if revision is not None:
        dirty = {True: "dirty", False: "clean", None: "dirty unknown"}[revision["dirty"]]
        lines.append(
            Text(
                f"source revision: {revision['commit']} ({dirty}; {revision['basis']})", style="dim"
            )
        )
    return lines


class _Titled(NamedTuple):
    """A table with the line printed above it and the one below it (if any)."""

    title: str
    table: Table
    caption: str | None = None


def _waivers(report: Mapping[str, Any]) -> _Titled | None:
    waivers = report.get("waivers")
    if waivers is None:
        return None
    table = Table()
    for column in ("waiver", "status", "expires", "waived trials"):
        table.add_column(column, overflow="fold")
    for waiver in waivers["declared"]:
        trials = ", ".join(waiver["trials"]) or "none"
        table.add_row(waiver["id"], waiver["status"], waiver["expires"], trials)
    return _Titled(f"waivers (as of {waivers['as_of']})", table)


def _figures(report: Mapping[str, Any], checks: Sequence[Mapping[str, Any]]) -> list[Text]:
    detection, preservation = report["detection"], report["preservation"]
    canaries = report["canaries"]
    lines = []
    for name, counted, value, interval in (
        (
            "detection",
            f"{detection['detected']}/{detection['eligible']}",
            detection["score"],
            detection["interval95"],
        ),
        (
            "preservation",
            f"{preservation['preserved']}/{preservation['eligible']}",
            preservation["rate"],
            preservation["interval95"],
        ),
    ):
        line = Text.assemble((f"{name:<13}", "bold"), f"{counted} = {_number(value)}   ")
        line.append(_interval(interval))
        line.append_text(_threshold_text(checks, name))
        lines.append(line)
    lines.append(
        Text.assemble(
            (f"{'canaries':<13}", "bold"),
            f"{canaries['caught']}/{canaries['total']} caught (reported apart from detection)",
        )
    )
    return lines


def _strength(report: Mapping[str, Any]) -> _Titled:
    strength = report["strength"]
    table = Table()
    for column in ("class", "eligible", "exercised", "caught", "rate"):
        table.add_column(column, justify="left" if column == "class" else "right")
    for name, values in strength["classes"].items():
        table.add_row(
            name,
            str(values["eligible"]),
            str(values["exercised"]),
            str(values["caught"]),
            _number(values["rate"]),
        )
    return _Titled("strength vector (per class, never one number)", table)


def _verdict(report: Mapping[str, Any]) -> list[Text]:
    verdict = report["verdict"]
    value = verdict["value"]
    lines = [Text.assemble(("verdict: ", "bold"), (value, _VERDICT_STYLES.get(value, "bold")))]
    for reason in verdict["reasons"]:
        lines.append(Text(f"  - {reason}: {REASON_TEXT.get(reason, '')}".rstrip(": ")))
    strength = report["strength"]
    comparable = "yes" if strength["comparable"] else "no"
    line = f"comparable: {comparable}"
    if strength["unreached_oracles"]:
        line += f" (unreached oracles: {', '.join(strength['unreached_oracles'])})"
    lines.append(Text(line))
    return lines


def _gaps(report: Mapping[str, Any]) -> Text | _Titled:
    gaps = report["coverage_gaps"]
    if not gaps:
        return Text("coverage gaps: none (every rule is targeted by an eligible probe)")
    floor = report["policy"]["severity_floor"]
    table = Table()
    table.add_column("rule")
    table.add_column("severity")
    for gap in gaps:
        table.add_row(gap["rule"], gap["severity"])
    return _Titled(
        "coverage gaps (rules no eligible probe targets)",
        table,
        f"severity floor: {floor}; gaps below it do not move the verdict",
    )


def _families(report: Mapping[str, Any]) -> _Titled:
    table = Table()
    table.add_column("family")
    for column in _OUTCOME_COLUMNS:
        table.add_column(column, justify="right")
    for family, counts in report["families"].items():
        table.add_row(family, *(str(counts.get(column, "")) for column in _OUTCOME_COLUMNS))
    return _Titled("per family", table)


def _expected(variant: Mapping[str, Any]) -> str:
    return "\n".join(
        f"{item['rule']}:{item['code']}:{item['scope']} → {item['status']}"
        for item in variant["expected"]
    )


def _undetected(report: Mapping[str, Any]) -> _Titled | None:
    rows = [v for v in report["variants"] if v["outcome"] == "undetected"]
    if not rows:
        return None
    table = Table()
    table.add_column("variant / expected → observed", overflow="fold", ratio=1)
    for column in ("class", "severity", "reason"):
        table.add_column(column, no_wrap=True)
    for variant in rows:
        name = Text(f"{variant['case']}/{variant['variant']}")
        if variant["canary"]:
            name.append(" (canary)")
        name.append("\n")
        name.append(_expected(variant), style="dim")
        table.add_row(name, variant["class"], variant["severity"], variant["reason"])
    return _Titled("undetected faults", table)


def _not_preserved(report: Mapping[str, Any]) -> _Titled | None:
    rows = [v for v in report["variants"] if v["outcome"] == "not-preserved"]
    if not rows:
        return None
    table = Table()
    table.add_column("variant")
    table.add_column("family")
    table.add_column("reason")
    for variant in rows:
        table.add_row(
            f"{variant['case']}/{variant['variant']}", variant["family"], variant["reason"]
        )
    return _Titled("valid variations not preserved", table)


def _excluded(report: Mapping[str, Any]) -> _Titled | None:
    if not report["excluded"]:
        return None
    table = Table()
    table.add_column("variant")
    table.add_column("reason")
    for item in report["excluded"]:
        table.add_row(f"{item['case']}/{item['variant']}", item["reason"])
    return _Titled("excluded (in no figure)", table)


def _print(console: Console, item: Text | _Titled) -> None:
    if isinstance(item, _Titled):
        print_table(console, item.title, item.table, item.caption)
    else:
        print_line(console, item, hanging="  ")


def render_audit_text(
    report: Mapping[str, Any], console: Console, thresholds: Sequence[Mapping[str, Any]] = ()
) -> None:
    """Print the summary of an audit report; ``thresholds`` are the checked minimums."""
    contract = report["contract"]
    print_line(
        console,
        Text.assemble(
            ("audit of ", ""),
            (f"{contract['id']}", "bold"),
            (f" version {contract['version']}", ""),
            (f"  ({contract['digest'][:19]}…)", "dim"),
        ),
    )
    for line in [*_run_lines(report), *_figures(report, thresholds)]:
        print_line(console, line, hanging="  ")
    console.print()
    _print(console, _strength(report))
    verdict, *reasons, comparable = _verdict(report)
    print_line(console, verdict)
    for line in reasons:
        print_line(console, line, hanging="    ")
    print_line(console, comparable, hanging="  ")
    _print(console, _gaps(report))
    waivers = _waivers(report)
    if waivers is not None:
        _print(console, waivers)
    console.print()
    _print(console, _families(report))
    for table in (_undetected(report), _not_preserved(report), _excluded(report)):
        if table is not None:
            console.print()
            _print(console, table)
    console.print()
    print_line(
        console,
        Text(
            "These figures are conditional on this corpus: they say what the contract caught "
            "among the faults its authors planted, not how it will do in production.",
            style="dim",
        ),
    )
