"""``audit --format html`` opened in a real headless Chromium: it loads with no console
error and no network request, its figures and charts are the report's, its filters count
what the figures count and work, and it reads at 375 px and 1280 px without sideways
scrolling (a screenshot of each width is written into the test's ``tmp_path``: run with
``--basetemp=DIR`` to keep them in DIR)."""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.formats.chromium import Page
from tests.formats.ci_builders import FIXTURES, small_audit
from textcontract.cli import app
from textcontract.formats.audit_html import FILTERS, render_audit_html
from textcontract.formats.audit_terms import OUTCOMES, interval_text, number_text


@pytest.fixture(scope="module")
def shipped(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """The shipped corpus's audit as HTML, and its JSON report."""
    folder = tmp_path_factory.mktemp("html")
    page, report = folder / "audit.html", folder / "audit.json"
    runner = CliRunner()
    for output_format, target in (("html", page), ("json", report)):
        result = runner.invoke(
            app,
            [
                "audit",
                str(FIXTURES / "mutations"),
                "--format",
                output_format,
                "--output",
                str(target),
            ],
        )
        assert result.exit_code == 0, result.output
    return page, json.loads(report.read_text(encoding="utf-8"))


def _lookup(report: dict[str, Any], name: str) -> Any:
    value: Any = report
    for part in name.split("."):
        value = value[part]
    return value


def test_the_page_loads_with_no_error_and_no_request(
    page: Page, shipped: tuple[Path, dict[str, Any]]
) -> None:
    path, _ = shipped
    page.open(path.as_uri())
    assert page.problems() == []
    requests = page.requests()
    assert requests == [path.as_uri()]
    assert not [url for url in requests if re.match(r"https?://", url)]
    resources = page.evaluate("performance.getEntriesByType('resource').map(entry => entry.name)")
    assert resources == []


def test_every_figure_in_the_dom_is_the_reports(
    page: Page, shipped: tuple[Path, dict[str, Any]]
) -> None:
    path, report = shipped
    page.open(path.as_uri())
    figures = page.evaluate(
        "Array.from(document.querySelectorAll('[data-figure]'))"
        ".map(e => [e.dataset.figure, JSON.parse(e.dataset.value), e.textContent])"
    )
    names = {name for name, _, _ in figures}
    assert {
        "detection.score",
        "detection.interval95",
        "preservation.rate",
        "strength.classes.gameability.rate",
        "verdict.value",
        "canaries.caught",
    } <= names
    for name, value, text in figures:
        expected = _lookup(report, name)
        assert value == expected, name
        if name.endswith("interval95"):
            assert text == interval_text(expected), name
        elif isinstance(expected, bool):
            assert text == ("yes" if expected else "no"), name
        elif isinstance(expected, float) or expected is None:
            assert text == number_text(expected), name
        else:
            assert text == str(expected), name
    reasons = page.evaluate(
        "Array.from(document.querySelectorAll('#verdict [data-reason]')).map(e => e.dataset.reason)"
    )
    assert reasons == report["verdict"]["reasons"]
    gaps = page.evaluate("document.querySelector('[data-gaps]').dataset.gaps")
    assert int(gaps) == len(report["coverage_gaps"])


def test_every_variant_is_shown_with_its_outcome(
    page: Page, shipped: tuple[Path, dict[str, Any]]
) -> None:
    path, report = shipped
    page.open(path.as_uri())
    shown = page.evaluate(
        "Array.from(document.querySelectorAll('.variant'))"
        ".map(e => [e.dataset.case, e.dataset.variant, e.dataset.outcome])"
    )
    expected = {(v["case"], v["variant"], v["outcome"]) for v in report["variants"]}
    expected |= {(e["case"], e["variant"], "excluded") for e in report["excluded"]}
    assert len(shown) == len(expected)
    assert {tuple(row) for row in shown} == expected
    changed = page.evaluate(
        "document.querySelector('[data-variant=\"total-mismatch\"] .change').innerHTML"
    )
    assert "<ins>" in changed
    assert "<del>" in changed


def _filtered(report: dict[str, Any], group: str) -> list[dict[str, Any]]:
    """The rows a filter shows: the excluded ones, the canaries, or an outcome's others."""
    if group == "excluded":
        return list(report["excluded"])
    if group == "canary":
        return [v for v in report["variants"] if v["canary"]]
    return [v for v in report["variants"] if v["outcome"] == group and not v["canary"]]


def test_the_filters_count_what_the_figures_count(
    page: Page, shipped: tuple[Path, dict[str, Any]]
) -> None:
    path, report = shipped
    page.open(path.as_uri())
    shown = page.evaluate(
        "Object.fromEntries(Array.from(document.querySelectorAll('#filters button'))"
        ".map(b => [b.dataset.filter, Number(b.textContent.match(/\\((\\d+)\\)$/)[1])]))"
    )
    detection, preservation = report["detection"], report["preservation"]
    assert shown == {
        "all": len(report["variants"]) + len(report["excluded"]),
        "detected": detection["detected"],
        "undetected": detection["eligible"] - detection["detected"],
        "preserved": preservation["preserved"],
        "not-preserved": preservation["eligible"] - preservation["preserved"],
        "excluded": len(report["excluded"]),
        "canary": report["canaries"]["total"],
    }
    assert (shown["detected"], shown["canary"]) == (18, 1)  # the canary is counted apart


@pytest.mark.parametrize("group", [*FILTERS])
def test_a_filter_click_hides_every_other_variant(
    page: Page, shipped: tuple[Path, dict[str, Any]], group: str
) -> None:
    path, report = shipped
    page.open(path.as_uri())
    page.click(f'#filters button[data-filter="{group}"]')
    visible = page.evaluate(
        "Array.from(document.querySelectorAll('.variant')).filter(e => e.offsetParent !== null)"
        ".map(e => [e.dataset.case, e.dataset.variant])"
    )
    rows = _filtered(report, group)
    assert sorted(map(tuple, visible)) == sorted((row["case"], row["variant"]) for row in rows)
    assert page.evaluate("document.getElementById('shown').textContent") == str(len(rows))
    hidden_cases = page.evaluate(
        "Array.from(document.querySelectorAll('.case'))"
        ".filter(c => c.hidden).map(c => c.dataset.case)"
    )
    wanted = {row["case"] for row in rows}
    assert all(case not in wanted for case in hidden_cases)
    page.click('#filters button[data-filter="all"]')
    assert page.evaluate("document.querySelectorAll('.variant[hidden]').length") == 0
    assert page.problems() == []


def _x(value: float) -> float:
    """Where a figure of 0–1 is drawn on the charts' 320-unit scale (8 to 312)."""
    return 8 + 304 * value


def test_the_figures_chart_draws_each_point_interval_and_threshold(
    page: Page, shipped: tuple[Path, dict[str, Any]]
) -> None:
    path, report = shipped
    page.open(path.as_uri())
    rows = page.evaluate(
        "Array.from(document.querySelectorAll('#figures-chart g.figure-row')).map(g => ({"
        "name: g.dataset.chart, value: g.dataset.value, low: g.dataset.low, high: g.dataset.high,"
        " minimum: g.dataset.minimum,"
        " cx: g.querySelector('circle.point').getAttribute('cx'),"
        " interval: ['x1', 'x2'].map(a => g.querySelector('line.interval').getAttribute(a)),"
        " threshold: g.querySelector('line.threshold').getAttribute('x1'),"
        " visible: g.querySelector('circle.point').getBoundingClientRect().width > 0}))"
    )
    minimums = {"detection": 0.75, "preservation": 0.8}  # fixtures/mutations/audit.yaml
    assert [row["name"] for row in rows] == ["detection", "preservation"]
    for row in rows:
        figure = report[row["name"]]
        value = figure["score" if row["name"] == "detection" else "rate"]
        low, high = figure["interval95"]
        assert (float(row["value"]), float(row["low"]), float(row["high"])) == (value, low, high)
        assert float(row["minimum"]) == minimums[row["name"]]
        assert float(row["cx"]) == pytest.approx(_x(value), abs=0.01)
        assert [float(x) for x in row["interval"]] == pytest.approx([_x(low), _x(high)], abs=0.01)
        assert float(row["threshold"]) == pytest.approx(_x(minimums[row["name"]]), abs=0.01)
        assert row["visible"]


def test_the_families_chart_has_one_bar_per_family_split_by_outcome(
    page: Page, shipped: tuple[Path, dict[str, Any]]
) -> None:
    path, report = shipped
    page.open(path.as_uri())
    bars = page.evaluate(
        "Array.from(document.querySelectorAll('#families-chart g.family-row')).map(g => ["
        "g.dataset.family, Array.from(g.querySelectorAll('rect.segment')).map(r => ["
        "r.dataset.outcome, Number(r.dataset.count), Number(r.getAttribute('width')),"
        " getComputedStyle(r).fill])])"
    )
    assert [family for family, _ in bars] == list(report["families"])
    per_variant = set()
    for family, segments in bars:
        assert {outcome: count for outcome, count, _, _ in segments} == report["families"][family]
        per_variant |= {round(width / count, 6) for _, count, width, _ in segments}
        assert len({fill for *_, fill in segments}) == len(segments)  # outcomes told apart
    assert len(per_variant) == 1  # one scale: a bar's length is its number of variants
    legend = page.evaluate(
        "Array.from(document.querySelectorAll('#families ul.legend li')).map(l => l.textContent)"
    )
    assert legend == list(OUTCOMES)


@pytest.mark.parametrize(("width", "mobile"), [(375, True), (1280, False)])
def test_the_page_reads_without_sideways_scrolling(
    page: Page, shipped: tuple[Path, dict[str, Any]], tmp_path: Path, width: int, mobile: bool
) -> None:
    path, _ = shipped
    try:
        page.emulate(width, 1600, mobile=mobile)
        page.open(path.as_uri())
        page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
        overflow = page.evaluate(
            f"(() => {{ const width = {width}; const root = document.documentElement;"
            " const wide = Array.from(document.querySelectorAll('body *')).filter(e => {"
            "  const box = e.getBoundingClientRect(); const style = getComputedStyle(e);"
            "  const scrolls = ['auto', 'scroll'].includes(style.overflowX)"
            "   && e.scrollWidth > e.clientWidth;"
            "  return box.width > 0 && (box.right > width + 0.5 || scrolls); })"
            "  .map(e => e.tagName + '.' + e.className + ': ' + e.textContent.slice(0, 40));"
            " return {page: root.scrollWidth, viewport: window.innerWidth, wide: wide}; })()"
        )
        # nothing reaches past the screen's edge or scrolls inside; a phone does not zoom out
        assert overflow["wide"] == [], overflow
        assert overflow["page"] <= width == overflow["viewport"], overflow
        charts = page.evaluate(
            "Array.from(document.querySelectorAll('svg.chart'))"
            ".map(s => s.getBoundingClientRect().width)"
        )
        assert len(charts) == 2
        assert all(0 < chart <= width for chart in charts)
        page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = false; })")
        shot = tmp_path / f"audit-{width}.png"
        page.screenshot(shot, width, 1600, mobile=mobile)
        header = shot.read_bytes()[:24]
        assert header[:8] == b"\x89PNG\r\n\x1a\n"
        assert int.from_bytes(header[16:20], "big") == width  # the PNG's IHDR width
        assert page.problems() == []
    finally:
        page.call("Emulation.clearDeviceMetricsOverride")


def test_the_page_is_self_contained_and_deterministic(shipped: tuple[Path, dict[str, Any]]) -> None:
    path, _ = shipped
    html = path.read_text(encoding="utf-8")
    assert not re.search(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//""", html)
    assert "@import" not in html
    assert "url(" not in html
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', html)
    assert policy is not None
    assert unescape(policy.group(1)).startswith("default-src 'none'; style-src 'sha256-")
    again = path.with_name("again.html")
    result = CliRunner().invoke(
        app, ["audit", str(FIXTURES / "mutations"), "--format", "html", "--output", str(again)]
    )
    assert result.exit_code == 0
    assert again.read_bytes() == path.read_bytes()


def test_changed_text_claims_and_facts_are_listed() -> None:
    report, views = small_audit()
    html = render_audit_html(report, views)
    total = html[html.index('data-variant="total"') : html.index('data-variant="float-total"')]
    assert "<del>10</del><ins>12</ins>" in total
    assert "EUR<del>.</del><ins> | &lt;b&gt;&amp;</ins></pre>" in total  # escaped, never markup
    assert "<code>order.total</code>: <del>10</del> → <ins>12</ins>" in total
    floats = html[html.index('data-variant="float-total"') : html.index('data-variant="same"')]
    assert "<code>order.total</code>: <del>10</del> → <ins>10.0</ins>" in floats
    same = html[html.index('data-variant="same"') :]
    assert "identical to the baseline" in same
    assert "equivalent" in same
