"""Inline SVG charts of an audit report, for the HTML page (SPEC §21).

Two charts, drawn from the report's JSON form only, as SVG elements written into the page
(no script library, no request): detection and preservation as a point on a 0–1 scale with
its 95% interval as a bar and each threshold as a mark; and one bar per family, split into
its variants' outcomes. Each chart scales to the width it is given (a ``viewBox``, no fixed
size), so it reads at 375 px and at 1280 px alike. Every drawn figure carries the value it
draws in ``data-*`` attributes, and every mark a ``<title>`` a screen reader or a hover
shows, so a test can hold the picture to the report and a reader need not guess.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from textcontract.formats.audit_terms import OUTCOMES, interval_text, number_text

__all__ = ["families_chart", "figures_chart", "legend"]

_WIDTH = 320.0
_LEFT, _RIGHT = 8.0, 312.0
"""Where 0 and 1 (figures) or 0 and the longest bar (families) fall on the x axis."""
_ROW = 44.0
"""Height of one figure's row: its label, its scale, its interval and point."""
_BAR_ROW = 25.0
"""Height of one family's row: its label above, its bar below."""

Row = Mapping[str, Any]


def _x(value: float) -> str:
    return _number(_LEFT + (_RIGHT - _LEFT) * value)


def _number(value: float) -> str:
    """SVG coordinates to two decimals, without a trailing ``.00``."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _data(**values: Any) -> str:
    return "".join(
        f' data-{name.replace("_", "-")}="{escape("null" if value is None else str(value))}"'
        for name, value in values.items()
    )


def _figure_row(
    index: int, name: str, counted: str, value: float | None, interval: Sequence[float] | None,
    minimum: float | None,
) -> str:  # fmt: skip
    top = index * _ROW
    axis = top + 30
    label = f"{name} {counted} = {number_text(value)}"
    if interval is not None:
        label += f", 95% interval {interval_text(interval)}"
    parts = [
        f'<g class="figure-row"{_data(chart=name, value=value, minimum=minimum)}'
        + (_data(low=interval[0], high=interval[1]) if interval is not None else "")
        + ">",
        f"<title>{escape(label)}</title>",
        f'<text class="label" x="{_number(_LEFT)}" y="{_number(top + 14)}">{escape(label)}</text>',
        f'<line class="axis" x1="{_x(0)}" x2="{_x(1)}" y1="{_number(axis)}" y2="{_number(axis)}"/>',
    ]
    if interval is not None:
        parts.append(
            f'<line class="interval" x1="{_x(interval[0])}" x2="{_x(interval[1])}" '
            f'y1="{_number(axis)}" y2="{_number(axis)}"/>'
        )
    if minimum is not None:
        parts.append(
            f'<line class="threshold" x1="{_x(minimum)}" x2="{_x(minimum)}" '
            f'y1="{_number(axis - 9)}" y2="{_number(axis + 9)}">'
            f"<title>minimum {minimum:.3f}</title></line>"
        )
    if value is not None:
        parts.append(f'<circle class="point" cx="{_x(value)}" cy="{_number(axis)}" r="4.5"/>')
    parts.append("</g>")
    return "".join(parts)


def figures_chart(report: Row, thresholds: Sequence[Row]) -> str:
    """Detection and preservation: point, 95% interval and threshold on one 0–1 scale."""
    minimums = {check["figure"]: check["minimum"] for check in thresholds}
    rows = []
    for index, (name, counted, value) in enumerate(
        (("detection", "detected", "score"), ("preservation", "preserved", "rate"))
    ):
        figure = report[name]
        rows.append(
            _figure_row(
                index, name, f"{figure[counted]}/{figure['eligible']}", figure[value],
                figure["interval95"], minimums.get(name),
            )
        )  # fmt: skip
    scale_top = 2 * _ROW
    ticks = "".join(
        f'<text class="tick" x="{_x(tick)}" y="{_number(scale_top + 6)}">{tick:g}</text>'
        for tick in (0, 0.25, 0.5, 0.75, 1)
    )
    height = scale_top + 10
    return (
        f'<svg class="chart" id="figures-chart" viewBox="0 0 {_number(_WIDTH)} '
        f'{_number(height)}" role="img" aria-labelledby="figures-chart-title">'
        '<title id="figures-chart-title">Detection and preservation, each a point with its '
        "95% interval (the bar) and its threshold (the mark), on a scale from 0 to 1</title>"
        + "".join(rows)
        + ticks
        + "</svg>"
    )


def families_chart(families: Mapping[str, Mapping[str, int]]) -> str:
    """One bar per family, its segments the family's variants by outcome."""
    longest = max((sum(counts.values()) for counts in families.values()), default=0)
    scale = (_RIGHT - _LEFT) / longest if longest else 0.0
    rows = []
    for index, (family, counts) in enumerate(families.items()):
        top = index * _BAR_ROW
        total = sum(counts.values())
        shown = ", ".join(f"{counts[o]} {o}" for o in OUTCOMES if counts.get(o))
        parts = [
            f'<g class="family-row"{_data(family=family, total=total)}>',
            f"<title>{escape(f'{family}: {shown}')}</title>",
            f'<text class="label" x="{_number(_LEFT)}" y="{_number(top + 10)}">'
            f"{escape(family)} ({total})</text>",
        ]
        x = _LEFT
        for outcome in OUTCOMES:
            count = counts.get(outcome, 0)
            if not count:
                continue
            width = count * scale
            parts.append(
                f'<rect class="segment outcome-{outcome}" x="{_number(x)}" y="{_number(top + 13)}" '
                f'width="{_number(width)}" height="8"{_data(outcome=outcome, count=count)}>'
                f"<title>{escape(f'{family}: {count} {outcome}')}</title></rect>"
            )
            x += width
        parts.append("</g>")
        rows.append("".join(parts))
    height = max(len(families), 1) * _BAR_ROW
    return (
        f'<svg class="chart" id="families-chart" viewBox="0 0 {_number(_WIDTH)} '
        f'{_number(height)}" role="img" aria-labelledby="families-chart-title">'
        '<title id="families-chart-title">One bar per family: its variants, split by '
        "outcome</title>" + "".join(rows) + "</svg>"
    )


def legend(outcomes: Sequence[str] = OUTCOMES) -> str:
    """The outcome colours, as an HTML list beside a chart (it wraps on a narrow screen)."""
    items = "".join(
        f'<li><span class="swatch outcome-{escape(o)}" aria-hidden="true"></span>{escape(o)}</li>'
        for o in outcomes
    )
    return f'<ul class="legend">{items}</ul>'
