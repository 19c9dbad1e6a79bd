"""``audit --format text``: the audit report as a terminal summary.

Rendered from the report's JSON form only (no engine code): figures with their
counts and intervals, the strength vector per class, the verdict with every
reason, coverage gaps, waivers, per-family counts, then the undetected faults, the
variations that were not preserved, and the exclusions.

The text rules are ``check``'s (SPEC §11, §21): every line goes through
:func:`~textcontract.formats.text_lines.print_line`, which wraps it to the width under a
hanging indent and never cuts or folds a word — an identifier longer than the line
stands whole on a line of its own. So there are no tables, whose columns rich shortens
with ``…`` when the width runs out: a table's rows are lines, their first field padded to
the longest of the section (numbers right-aligned) so that they line up while they fit.
A digest is shown as its first 12 hex digits, without an ellipsis.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from rich.console import Console
from rich.text import Text

from textcontract.formats.audit_terms import (
    OUTCOMES,
    REASON_TEXT,
    interval_text,
    number_text,
    short_digest,
)
from textcontract.formats.text_lines import print_line

__all__ = ["render_audit_text"]

_VERDICT_STYLES = {
    "PASS": "bold green",
    "WAIVED": "bold cyan",
    "CONCERNS": "bold yellow",
    "FAIL": "bold red",
    "INVALID": "bold magenta",
}
_ROW, _DETAIL = "  ", "    "
"""Indents of a section's rows and of what continues them."""


class _Line(NamedTuple):
    """One paragraph: its first line indented by ``indent``, its continuations by ``hanging``."""

    text: Text
    indent: str = ""
    hanging: str = _ROW


def _title(text: str) -> _Line:
    return _Line(Text(text, style="italic"))


def _row(*parts: str | tuple[str, str]) -> _Line:
    return _Line(Text.assemble(*parts), _ROW, _DETAIL)


def _padded(names: Sequence[str], right: bool = False) -> list[str]:
    """``names`` padded to the longest of them (on the left when ``right``)."""
    width = max(map(len, names), default=0)
    return [name.rjust(width) if right else name.ljust(width) for name in names]


def _threshold(checks: Sequence[Mapping[str, Any]], figure: str) -> Text:
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


def _run_lines(report: Mapping[str, Any]) -> Iterator[_Line]:
    """Mode, recommendation, preflight and source revision (SPEC §17), when the report has them."""
    mode = report.get("mode", "contract-scoring")
    line = Text(f"mode: {mode}")
    if mode == "production":
        line.append(f", evaluator recommendation {report.get('evaluator_recommendation')}")
        line.append(" (from the baselines)", style="dim")
    yield _Line(line)
    preflight = report.get("preflight")
    if preflight is not None:
        yield _Line(Text(f"preflight: passed ({short_digest(preflight['digest'])})", style="dim"))
    revision = report.get("source_revision")
    if revision is not None:
        dirty = {True: "dirty", False: "clean", None: "dirty unknown"}[revision["dirty"]]
        text = f"source revision: {revision['commit']} ({dirty}; {revision['basis']})"
        yield _Line(Text(text, style="dim"))


def _figures(report: Mapping[str, Any], checks: Sequence[Mapping[str, Any]]) -> Iterator[_Line]:
    for name, counted, value in (
        ("detection", "detected", "score"),
        ("preservation", "preserved", "rate"),
    ):
        figure = report[name]
        line = Text.assemble((f"{name:<13}", "bold"), f"{figure[counted]}/{figure['eligible']}")
        line.append(f" = {number_text(figure[value])}")
        line.append(f"   95% interval {interval_text(figure['interval95'])}")
        line.append_text(_threshold(checks, name))
        yield _Line(line)
    canaries = report["canaries"]
    yield _Line(
        Text.assemble(
            (f"{'canaries':<13}", "bold"),
            f"{canaries['caught']}/{canaries['total']} caught (reported apart from detection)",
        )
    )


def _strength(report: Mapping[str, Any]) -> Iterator[_Line]:
    classes = report["strength"]["classes"]
    yield _title("strength vector (per class, never one number)")
    columns = [
        _padded([str(v[field]) for v in classes.values()], right=True)
        for field in ("caught", "exercised", "eligible")
    ]
    for name, values, caught, exercised, eligible in zip(
        _padded(list(classes)), classes.values(), *columns, strict=True
    ):
        rate = number_text(values["rate"]).rjust(5)
        counts = f"{caught} caught of {exercised} exercised, {eligible} eligible"
        yield _row((name, "bold"), f"  rate {rate}: {counts}")


def _verdict(report: Mapping[str, Any]) -> Iterator[_Line]:
    value = report["verdict"]["value"]
    yield _Line(Text.assemble(("verdict: ", "bold"), (value, _VERDICT_STYLES.get(value, "bold"))))
    for reason in report["verdict"]["reasons"]:
        explained = f"  - {reason}: {REASON_TEXT.get(reason, '')}".rstrip(": ")
        yield _Line(Text(explained), "", _DETAIL)
    strength = report["strength"]
    line = f"comparable: {'yes' if strength['comparable'] else 'no'}"
    if strength["unreached_oracles"]:
        line += f" (unreached oracles: {', '.join(strength['unreached_oracles'])})"
    yield _Line(Text(line))


def _gaps(report: Mapping[str, Any]) -> Iterator[_Line]:
    gaps = report["coverage_gaps"]
    if not gaps:
        yield _Line(Text("coverage gaps: none (every rule is targeted by an eligible probe)"))
        return
    yield _title("coverage gaps (rules no eligible probe targets)")
    for rule, gap in zip(_padded([gap["rule"] for gap in gaps]), gaps, strict=True):
        yield _row((rule, "bold"), f"  {gap['severity']}")
    floor = report["policy"]["severity_floor"]
    yield _Line(Text(f"severity floor: {floor}; gaps below it do not move the verdict", "dim"))


def _waivers(report: Mapping[str, Any]) -> Iterator[_Line]:
    waivers = report.get("waivers")
    if waivers is None:
        return
    yield _title(f"waivers (as of {waivers['as_of']})")
    for waiver in waivers["declared"]:
        trials = ", ".join(waiver["trials"]) or "none"
        yield _row(
            (waiver["id"], "bold"),
            f": {waiver['status']}, expires {waiver['expires']}; waived trials: {trials}",
        )


def _families(report: Mapping[str, Any]) -> Iterator[_Line]:
    families = report["families"]
    yield _title("per family (variants by outcome)")
    for name, counts in zip(_padded(list(families)), families.values(), strict=True):
        found = ", ".join(f"{counts[o]} {o}" for o in OUTCOMES if counts.get(o))
        yield _row((name, "bold"), f"  {found or 'no variant'}")


def _variant(row: Mapping[str, Any]) -> str:
    return f"{row['case']}/{row['variant']}"


def _undetected(report: Mapping[str, Any]) -> Iterator[_Line]:
    rows = [v for v in report["variants"] if v["outcome"] == "undetected"]
    if not rows:
        return
    yield _title("undetected faults (expected check → its status)")
    for row in rows:
        canary = " (canary)" if row["canary"] else ""
        labels = f"{canary}: {row['class']}, {row['severity']}, {row['reason']}"
        yield _row((_variant(row), "bold"), labels)
        for item in row["expected"]:
            expected = f"{item['rule']}:{item['code']}:{item['scope']} → {item['status']}"
            yield _Line(Text(expected, style="dim"), _DETAIL, _DETAIL + "  ")


def _not_preserved(report: Mapping[str, Any]) -> Iterator[_Line]:
    rows = [v for v in report["variants"] if v["outcome"] == "not-preserved"]
    if not rows:
        return
    yield _title("valid variations not preserved")
    for row in rows:
        yield _row((_variant(row), "bold"), f": {row['family']}, {row['reason']}")


def _excluded(report: Mapping[str, Any]) -> Iterator[_Line]:
    if not report["excluded"]:
        return
    yield _title("excluded (in no figure)")
    for item in report["excluded"]:
        yield _row((_variant(item), "bold"), f": {item['reason']}")


def _sections(
    report: Mapping[str, Any], thresholds: Sequence[Mapping[str, Any]]
) -> Iterator[_Line | None]:
    """Every line in order; None is an empty line between sections."""
    contract = report["contract"]
    yield _Line(
        Text.assemble(
            "audit of ",
            (f"{contract['id']}", "bold"),
            f" version {contract['version']}  ",
            (f"({short_digest(contract['digest'])})", "dim"),
        )
    )
    yield from _run_lines(report)
    yield from _figures(report, thresholds)
    yield None
    yield from _strength(report)
    yield from _verdict(report)
    yield from _gaps(report)
    yield from _waivers(report)
    for section in (_families, _undetected, _not_preserved, _excluded):
        lines = list(section(report))
        if lines:
            yield None
            yield from lines
    yield None
    yield _Line(
        Text(
            "These figures are conditional on this corpus: they say what the contract caught "
            "among the faults its authors planted, not how it will do in production.",
            style="dim",
        )
    )


def render_audit_text(
    report: Mapping[str, Any], console: Console, thresholds: Sequence[Mapping[str, Any]] = ()
) -> None:
    """Print the summary of an audit report; ``thresholds`` are the checked minimums."""
    for line in _sections(report, thresholds):
        if line is None:
            console.print()
        else:
            print_line(console, line.text, line.hanging, line.indent)
