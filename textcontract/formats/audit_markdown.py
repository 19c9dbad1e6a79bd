"""``audit --format markdown``: a review report for a pull request comment.

Verdict and reasons first; then what needs attention — undetected faults, valid variations
that were not preserved, coverage gaps; then the figures with their intervals and the
strength vector; per-family counts and exclusions folded away at the end. Every table cell
is escaped (:mod:`textcontract.formats.markdown_text`). A GitHub comment holds at most
65,536 characters, so each list shows its first :data:`ROWS_SHOWN` rows and counts the rest.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from textcontract.formats.audit_terms import OUTCOMES, REASON_TEXT, interval_text, number_text
from textcontract.formats.markdown_text import Raw, table, text

__all__ = ["ROWS_SHOWN", "render_audit_markdown"]

ROWS_SHOWN = 100


def _verdict(report: Mapping[str, Any], thresholds: Sequence[Mapping[str, Any]]) -> list[str]:
    contract, verdict = report["contract"], report["verdict"]
    lines = [
        f"## textcontract audit: {text(contract['id'])} {text(contract['version'])} — "
        f"**{verdict['value']}**\n"
    ]
    reasons = [
        f"- `{reason}`: {text(REASON_TEXT.get(reason, ''))}" for reason in verdict["reasons"]
    ]
    lines.append("\n".join(reasons) + "\n" if reasons else "No verdict reason: every rung holds.\n")
    checks = [
        f"- {check['figure']} ≥ {check['minimum']:.3f}: "
        f"{'met' if check['met'] else '**not met**'} (measured {number_text(check['value'])})"
        for check in thresholds
    ]
    if checks:
        lines.append("Thresholds:\n\n" + "\n".join(checks) + "\n")
    return lines


def _capped(rows: Sequence[Sequence[object]]) -> tuple[Sequence[Sequence[object]], str]:
    if len(rows) <= ROWS_SHOWN:
        return rows, ""
    return rows[:ROWS_SHOWN], f"\n… and {len(rows) - ROWS_SHOWN} more.\n"


def _expected(row: Mapping[str, Any]) -> str:
    return "\n".join(
        f"{item['rule']}:{item['code']}:{item['scope']} → {item['status']}"
        for item in row.get("expected") or ()
    )


def _undetected(report: Mapping[str, Any]) -> str | None:
    rows = [
        (
            f"{v['case']}/{v['variant']}" + (" (canary)" if v["canary"] else ""),
            v["class"],
            v["severity"],
            v["reason"],
            _expected(v),
        )
        for v in report["variants"]
        if v["outcome"] == "undetected"
    ]
    if not rows:
        return None
    shown, more = _capped(rows)
    header = ("variant", "class", "severity", "reason", "expected → observed")
    return f"#### Undetected faults ({len(rows)})\n\n" + table(header, shown) + more


def _not_preserved(report: Mapping[str, Any]) -> str | None:
    rows = [
        (f"{v['case']}/{v['variant']}", v["family"], v["reason"])
        for v in report["variants"]
        if v["outcome"] == "not-preserved"
    ]
    if not rows:
        return None
    shown, more = _capped(rows)
    title = f"#### Valid variations not preserved ({len(rows)})\n\n"
    return title + table(("variant", "family", "reason"), shown) + more


def _gaps(report: Mapping[str, Any]) -> str | None:
    gaps = report["coverage_gaps"]
    if not gaps:
        return None
    floor = report["policy"]["severity_floor"]
    rows, more = _capped([(gap["rule"], gap["severity"]) for gap in gaps])
    title = f"#### Coverage gaps ({len(gaps)}): rules no eligible probe targets\n\n"
    note = f"\nSeverity floor: {text(floor)}; gaps below it do not move the verdict.\n"
    return title + table(("rule", "severity"), rows) + more + note


def _attention(report: Mapping[str, Any]) -> list[str]:
    parts = [part for part in (_undetected(report), _not_preserved(report), _gaps(report)) if part]
    if not parts:
        parts = [
            "Nothing: every fault was detected, every variation preserved, every rule targeted.\n"
        ]
    return ["### Needs attention\n", *parts]


def _figures(report: Mapping[str, Any]) -> list[str]:
    detection, preservation = report["detection"], report["preservation"]
    canaries = report["canaries"]
    rows = [
        (
            "detection",
            Raw(f"{detection['detected']} / {detection['eligible']}"),
            Raw(number_text(detection["score"])),
            Raw(interval_text(detection["interval95"])),
        ),
        (
            "preservation",
            Raw(f"{preservation['preserved']} / {preservation['eligible']}"),
            Raw(number_text(preservation["rate"])),
            Raw(interval_text(preservation["interval95"])),
        ),
        ("canaries caught", Raw(f"{canaries['caught']} / {canaries['total']}"), "", ""),
    ]
    return ["### Figures\n", table(("figure", "count", "value", "95% interval"), rows, "lrrl")]


def _strength(report: Mapping[str, Any]) -> list[str]:
    strength = report["strength"]
    rows = [
        (name, c["eligible"], c["exercised"], c["caught"], Raw(number_text(c["rate"])))
        for name, c in strength["classes"].items()
    ]
    comparable = "yes" if strength["comparable"] else "no"
    note = f"Comparable: {comparable}."
    if strength["unreached_oracles"]:
        note += " Unreached oracles: " + ", ".join(text(o) for o in strength["unreached_oracles"])
        note += "."
    return [
        "### Strength vector (per class, never one number)\n",
        table(("class", "eligible", "exercised", "caught", "rate"), rows, "lrrrr"),
        note + "\n",
    ]


def _folded(report: Mapping[str, Any]) -> list[str]:
    families = [
        (family, *(counts.get(outcome, "") for outcome in OUTCOMES))
        for family, counts in report["families"].items()
    ]
    parts = [
        "<details><summary>Per family</summary>\n",
        table(("family", *OUTCOMES), families, "l" + "r" * len(OUTCOMES)),
        "</details>\n",
    ]
    excluded = report["excluded"]
    if excluded:
        rows, more = _capped([(f"{e['case']}/{e['variant']}", e["reason"]) for e in excluded])
        parts += [
            f"<details><summary>Excluded ({len(excluded)}), in no figure</summary>\n",
            table(("variant", "reason"), rows) + more,
            "</details>\n",
        ]
    return parts


def render_audit_markdown(
    report: Mapping[str, Any], thresholds: Sequence[Mapping[str, Any]] = ()
) -> str:
    """The review report of an audit (SPEC §6 report JSON); ``thresholds`` as checked."""
    contract = report["contract"]
    footer = (
        f"<sub>contract digest {text(contract['digest'])} · corpus digest "
        f"{text(report['corpus']['digest'])} · textcontract {text(report['engine']['version'])}. "
        "These figures are conditional on this corpus: they say what the contract caught among "
        "the faults its authors planted.</sub>\n"
    )
    parts = [
        *_verdict(report, thresholds),
        *_attention(report),
        *_figures(report),
        *_strength(report),
        *_folded(report),
        footer,
    ]
    return "\n".join(parts)
