"""``audit --format html`` opened in a real headless Chromium: it loads with no console
error and no network request, its figures are the report's, and its filters work."""

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
from textcontract.formats.audit_html import render_audit_html
from textcontract.formats.audit_terms import interval_text, number_text


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


@pytest.mark.parametrize("outcome", ["undetected", "not-preserved", "excluded", "detected"])
def test_a_filter_click_hides_every_other_variant(
    page: Page, shipped: tuple[Path, dict[str, Any]], outcome: str
) -> None:
    path, report = shipped
    page.open(path.as_uri())
    page.click(f'#filters button[data-filter="{outcome}"]')
    visible = page.evaluate(
        "Array.from(document.querySelectorAll('.variant')).filter(e => e.offsetParent !== null)"
        ".map(e => e.dataset.outcome)"
    )
    rows = (
        report["excluded"]
        if outcome == "excluded"
        else [v for v in report["variants"] if v["outcome"] == outcome]
    )
    assert visible == [outcome] * len(rows)
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
