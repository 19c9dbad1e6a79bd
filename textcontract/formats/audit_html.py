"""``audit --format html``: one self-contained page a person opens to judge a contract.

Verdict and reasons, detection and preservation with their intervals (a table and a chart),
the strength vector, coverage gaps, per-family counts (a chart and a table), then every case
with its variants — labels, outcome, reason, expected checks with their status, and each
trial's change against the baseline (:mod:`textcontract.formats.html_changes`) — with
buttons that filter variants by outcome. A filter's count is the figure's: canaries have a
filter of their own, as the figures report them apart (SPEC §21). The charts are inline SVG
(:mod:`textcontract.formats.audit_charts`); the page reads at 375 px without sideways
scrolling.

The style sheet and the script (``assets/``) are written into the page, and its Content
Security Policy allows exactly those two (by their SHA-256) and nothing else: the page makes
no network request and loads no font. Every figure is written twice, as text and as the
exact JSON value in ``data-value``, so a test can hold the page to the report. The page is
written case by case from :func:`textcontract.audit.variant_views`' stream.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from html import escape
from importlib.resources import files
from itertools import groupby
from typing import Any

from textcontract.formats.audit_charts import families_chart, figures_chart, legend
from textcontract.formats.audit_terms import OUTCOMES, REASON_TEXT, interval_text, number_text
from textcontract.formats.html_changes import change_html, document_html

__all__ = ["FILTERS", "render_audit_html", "write_audit_html"]

Row = Mapping[str, Any]


def _asset(name: str) -> str:
    return files("textcontract.formats").joinpath("assets", name).read_text(encoding="utf-8")


def _hash(source: str) -> str:
    digest = hashlib.sha256(source.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


def _figure(name: str, value: Any, shown: str, label: str) -> str:
    """A table cell holding a figure: its text, its exact JSON value, and its column's name
    (``data-label``, which a narrow screen shows beside the value)."""
    data = escape(json.dumps(value))
    attributes = (
        f'class="num" data-label="{escape(label)}" data-figure="{escape(name)}" data-value="{data}"'
    )
    return f"<td {attributes}>{escape(shown)}</td>"


def _head(report: Row, style: str, script: str) -> str:
    contract = report["contract"]
    title = (
        f"textcontract audit — {contract['id']} {contract['version']}: {report['verdict']['value']}"
    )
    policy = (
        f"default-src 'none'; style-src {_hash(style)}; script-src {_hash(script)}; "
        "img-src data:; base-uri 'none'; form-action 'none'"
    )
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{escape(policy)}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<link rel="icon" href="data:,">\n'
        f"<title>{escape(title)}</title>\n<style>{style}</style>\n</head>\n<body>\n"
    )


def _header(report: Row) -> str:
    contract = report["contract"]
    return (
        f"<header><h1>textcontract audit: {escape(contract['id'])} "
        f'<span class="version">version {escape(str(contract["version"]))}</span></h1>\n'
        f'<p class="meta">contract {escape(contract["digest"])} · corpus '
        f"{escape(report['corpus']['digest'])} · textcontract "
        f"{escape(report['engine']['version'])}</p></header>\n"
    )


def _verdict(report: Row, thresholds: Sequence[Row]) -> str:
    verdict = report["verdict"]
    value = verdict["value"]
    reasons = "".join(
        f'<li data-reason="{escape(reason)}"><code>{escape(reason)}</code>: '
        f"{escape(REASON_TEXT.get(reason, ''))}</li>"
        for reason in verdict["reasons"]
    )
    checks = "".join(
        f'<li data-threshold="{escape(c["figure"])}">{escape(c["figure"])} ≥ '
        f"{c['minimum']:.3f}: {'met' if c['met'] else 'not met'} "
        f"(measured {escape(number_text(c['value']))})</li>"
        for c in thresholds
    )
    return (
        f'<section id="verdict" class="verdict verdict-{escape(value)}">\n'
        f'<h2>Verdict: <span class="value" data-figure="verdict.value" '
        f'data-value="{escape(json.dumps(value))}">{escape(value)}</span></h2>\n'
        + (
            f'<ul class="reasons">{reasons}</ul>\n'
            if reasons
            else "<p>No reason: every rung holds.</p>\n"
        )
        + (f'<ul class="thresholds">{checks}</ul>\n' if checks else "")
        + "</section>\n"
    )


def _rate_row(label: str, key: str, figure: Row, count: str, value_key: str) -> str:
    return (
        f"<tr><th>{escape(label)}</th>"
        + _figure(f"{key}.{count}", figure[count], str(figure[count]), "counted")
        + _figure(f"{key}.eligible", figure["eligible"], str(figure["eligible"]), "eligible")
        + _figure(f"{key}.{value_key}", figure[value_key], number_text(figure[value_key]), "value")
        + _figure(
            f"{key}.interval95",
            figure["interval95"],
            interval_text(figure["interval95"]),
            "95% interval",
        )
        + "</tr>\n"
    )


def _figures(report: Row, thresholds: Sequence[Row]) -> str:
    canaries = report["canaries"]
    return (
        '<section id="figures"><h2>Figures</h2>\n'
        f"<figure>{figures_chart(report, thresholds)}</figure>\n"
        '<table class="stack"><thead><tr><th>figure</th>'
        "<th>counted</th><th>eligible</th><th>value</th><th>95% interval</th></tr></thead><tbody>\n"
        + _rate_row("detection", "detection", report["detection"], "detected", "score")
        + _rate_row("preservation", "preservation", report["preservation"], "preserved", "rate")
        + "<tr><th>canaries</th>"
        + _figure("canaries.caught", canaries["caught"], str(canaries["caught"]), "caught")
        + _figure("canaries.total", canaries["total"], str(canaries["total"]), "total")
        + "<td></td><td></td></tr>\n</tbody></table>\n"
        '<p class="note">Detection counts eligible non-canary faults; preservation counts '
        "eligible valid variations; canaries are reported apart.</p></section>\n"
    )


def _strength(report: Row) -> str:
    strength = report["strength"]
    rows, denominators = [], []
    for name, values in strength["classes"].items():
        key = f"strength.classes.{name}"
        cells = "".join(
            _figure(f"{key}.{field}", values[field], str(values[field]), field)
            for field in ("eligible", "exercised", "caught")
        )
        rate = _figure(f"{key}.rate", values["rate"], number_text(values["rate"]), "rate")
        rows.append(f"<tr><th>{escape(name)}</th>{cells}{rate}</tr>\n")
        denominators.append(f"<li><b>{escape(name)}</b>: {escape(values['denominator'])}</li>")
    comparable = "yes" if strength["comparable"] else "no"
    unreached = ", ".join(strength["unreached_oracles"])
    return (
        '<section id="strength"><h2>Strength vector <span class="note">(per class, never one '
        'number)</span></h2>\n<table class="stack"><thead><tr><th>class</th><th>eligible</th>'
        "<th>exercised</th><th>caught</th><th>rate</th></tr></thead><tbody>\n"
        + "".join(rows)
        + "</tbody></table>\n"
        + f'<ul class="note denominators">{"".join(denominators)}</ul>\n'
        f'<p>comparable: <span data-figure="strength.comparable" '
        f'data-value="{escape(json.dumps(strength["comparable"]))}">{comparable}</span>'
        + (f" · unreached oracles: <code>{escape(unreached)}</code>" if unreached else "")
        + "</p></section>\n"
    )


def _gaps(report: Row) -> str:
    gaps = report["coverage_gaps"]
    floor = report["policy"]["severity_floor"]
    if not gaps:
        body = '<p data-gaps="0">None: every rule is targeted by an eligible probe.</p>\n'
    else:
        rows = "".join(
            f'<tr data-gap="{escape(gap["rule"])}"><td data-label="rule"><code>'
            f'{escape(gap["rule"])}</code></td><td data-label="severity">'
            f"{escape(gap['severity'])}</td></tr>\n"
            for gap in gaps
        )
        body = (
            f'<table class="stack" data-gaps="{len(gaps)}"><thead><tr><th>rule</th>'
            f"<th>severity</th></tr></thead><tbody>{rows}</tbody></table>\n"
        )
    return (
        '<section id="coverage-gaps"><h2>Coverage gaps</h2>\n'
        f'{body}<p class="note">Severity floor: {escape(floor)}; gaps below it do not move the '
        "verdict.</p></section>\n"
    )


def _families(report: Row) -> str:
    head = "".join(f"<th>{escape(outcome)}</th>" for outcome in OUTCOMES)
    rows = "".join(
        f"<tr><th>{escape(family)}</th>"
        + "".join(
            f'<td class="num" data-label="{outcome}">{counts.get(outcome, "")}</td>'
            for outcome in OUTCOMES
        )
        + "</tr>\n"
        for family, counts in report["families"].items()
    )
    return (
        '<section id="families"><h2>Per family</h2>\n<p class="note">Every variant of each '
        "family, by outcome (canaries and excluded variants included).</p>\n"
        f"<figure>{families_chart(report['families'])}{legend()}</figure>\n"
        "<details><summary>the same counts as a table</summary>\n"
        f'<table class="stack"><thead><tr><th>family</th>{head}</tr></thead><tbody>\n{rows}'
        "</tbody></table></details></section>\n"
    )


_CANARY = "canary"
"""The filter of the canaries, which no outcome filter counts (the figures count them apart)."""
FILTERS = (*OUTCOMES, _CANARY)
"""Every filter after "all", in order."""


def _filters(counts: Mapping[str, int]) -> str:
    total = sum(counts.values())
    buttons = [
        f'<button type="button" data-filter="all" aria-pressed="true">all ({total})</button>'
    ]
    buttons += [
        f'<button type="button" data-filter="{group}" aria-pressed="false">'
        f"{'canaries' if group == _CANARY else group} ({counts.get(group, 0)})</button>"
        for group in FILTERS
    ]
    return (
        '<h2 id="cases">Cases and variants</h2>\n<nav id="filters" aria-label="filter variants by '
        f'outcome">{"".join(buttons)} <span class="note"><span id="shown">{total}</span> '
        "shown</span></nav>\n"
    )


def _expected(row: Row) -> str:
    items = row.get("expected") or ()
    if not items:
        return ""
    rows = "".join(
        f'<tr><td data-label="rule"><code>{escape(i["rule"])}</code></td>'
        f'<td data-label="code"><code>{escape(i["code"])}</code></td>'
        f'<td data-label="scope"><code>{escape(i["scope"])}</code></td>'
        f'<td data-label="status" class="status-{escape(i["status"])}" '
        f'data-status="{escape(i["status"])}">'
        f"{escape(i['status'])}</td></tr>"
        for i in items
    )
    return (
        '<table class="expected stack"><thead><tr><th>expected rule</th><th>code</th><th>scope</th>'
        f"<th>status</th></tr></thead><tbody>{rows}</tbody></table>\n"
    )


def _labels(view: Row, row: Row) -> str:
    labels = view["labels"]
    pairs = [
        ("relation", labels["relation"]),
        ("class", labels["class"]),
        ("family", labels["family"]),
        ("severity", row.get("severity") or labels["severity"] or "default"),
        ("validity", labels["validity"]),
        ("provenance", labels["provenance"] or "—"),
        ("reason", row.get("reason") or "—"),
        ("written at", f"{view['file']}:{view['line']}" if view["line"] else view["file"]),
    ]
    items = "".join(f"<dt>{escape(k)}</dt><dd>{escape(str(v))}</dd>" for k, v in pairs)
    return f'<dl class="labels">{items}</dl>\n'


def _trials(view: Row) -> str:
    trials = view["trials"]
    parts = []
    for index, trial in enumerate(trials):
        title = f"<h5>trial {index}</h5>" if len(trials) > 1 else ""
        parts.append(f'<div class="trial">{title}{change_html(view["baseline"], trial)}</div>')
    return f'<div class="change"><h6>change against the baseline</h6>{"".join(parts)}</div>\n'


def _group(row: Row, canary: bool) -> str:
    """The filter that shows a variant: its outcome, or ``canary`` for a counted canary."""
    outcome = str(row["outcome"])
    return _CANARY if canary and outcome != "excluded" else outcome


def _variant(view: Row, row: Row) -> str:
    outcome = row["outcome"]
    is_canary = bool(view["labels"]["canary"])
    canary = ' <span class="badge">canary</span>' if is_canary else ""
    return (
        f'<article class="variant" id="variant-{escape(view["case"])}/{escape(view["variant"])}" '
        f'data-case="{escape(view["case"])}" data-variant="{escape(view["variant"])}" '
        f'data-outcome="{escape(outcome)}" data-group="{_group(row, is_canary)}">\n'
        f"<header><h4>{escape(view['variant'])}</h4> "
        f'<span class="badge outcome-{escape(outcome)}">{escape(outcome)}</span>{canary}</header>\n'
        + _labels(view, row)
        + _expected(row)
        + _trials(view)
        + "</article>\n"
    )


def _case(case: str, views: list[Row], rows: Mapping[tuple[str, str], Row]) -> str:
    first = views[0]
    parts = [
        f'<section class="case" data-case="{escape(case)}">\n<header><h3>{escape(case)}'
        f'<span class="file">{escape(first["file"])}</span></h3></header>\n'
        "<details><summary>baseline document and context</summary>"
        f"{document_html(first['baseline'])}</details>\n"
    ]
    for view in views:
        row = rows.get((case, view["variant"]))
        if row is None:
            raise ValueError(f"variant {case}/{view['variant']} is not in the audit report")
        parts.append(_variant(view, row))
    parts.append("</section>\n")
    return "".join(parts)


def _rows(report: Row) -> dict[tuple[str, str], Row]:
    rows: dict[tuple[str, str], Row] = {(r["case"], r["variant"]): r for r in report["variants"]}
    for row in report["excluded"]:
        rows[(row["case"], row["variant"])] = {**row, "outcome": "excluded"}
    return rows


def _filter_counts(report: Row) -> dict[str, int]:
    """What each filter shows, counted as the figures count: outcomes of the variants that
    are no canary, the canaries, the excluded variants."""
    counts: dict[str, int] = {}
    for row in report["variants"]:
        group = _group(row, bool(row["canary"]))
        counts[group] = counts.get(group, 0) + 1
    counts["excluded"] = len(report["excluded"])
    return counts


def _page(report: Row, views: Iterable[Row], thresholds: Sequence[Row]) -> Iterator[str]:
    style, script = _asset("audit-report.css"), _asset("audit-report.js")
    rows = _rows(report)
    yield _head(report, style, script)
    yield _header(report)
    yield _verdict(report, thresholds)
    yield _figures(report, thresholds)
    yield _strength(report)
    yield _gaps(report)
    yield _families(report)
    yield _filters(_filter_counts(report))
    for case, grouped in groupby(views, key=lambda view: str(view["case"])):
        yield _case(case, list(grouped), rows)
    yield f"<script>{script}</script>\n</body>\n</html>\n"


def write_audit_html(
    report: Row,
    views: Iterable[Row],
    write: Callable[[str], object],
    thresholds: Sequence[Row] = (),
) -> None:
    """Write the page. ``views`` are ``VariantView.to_json()`` items in report order."""
    for piece in _page(report, views, thresholds):
        write(piece)


def render_audit_html(report: Row, views: Iterable[Row], thresholds: Sequence[Row] = ()) -> str:
    """The page as one string (for tests and small corpora)."""
    return "".join(_page(report, views, thresholds))
