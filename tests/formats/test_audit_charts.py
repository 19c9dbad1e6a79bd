"""The HTML report's SVG charts (formats/audit_charts.py) on edge cases: a null figure, no
threshold, no family, names that need escaping; always well-formed SVG."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from textcontract.formats.audit_charts import families_chart, figures_chart, legend

SVG = "{http://www.w3.org/2000/svg}"


def _parsed(svg: str) -> ET.Element:
    return ET.fromstring(svg.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1))


def _report(detected: int, eligible: int) -> dict[str, Any]:
    rate = None if eligible == 0 else detected / eligible
    interval = None if eligible == 0 else [0.2, 0.9]
    return {
        "detection": {"detected": detected, "eligible": eligible, "score": rate,
                      "interval95": interval},
        "preservation": {"preserved": 1, "eligible": 1, "rate": 1.0, "interval95": [0.2, 1.0]},
    }  # fmt: skip


def test_a_null_figure_has_its_scale_and_label_but_no_point_or_interval() -> None:
    chart = _parsed(figures_chart(_report(0, 0), []))
    detection, preservation = chart.iter(f"{SVG}g")
    assert detection.get("data-value") == "null"
    assert detection.find(f"{SVG}circle") is None
    assert detection.find(f"{SVG}line[@class='interval']") is None
    assert "detection 0/0 = null" in "".join(detection.itertext())
    assert preservation.find(f"{SVG}circle") is not None
    assert chart.find(f".//{SVG}line[@class='threshold']") is None  # no threshold: no mark


def test_a_threshold_is_marked_where_its_minimum_lies() -> None:
    thresholds = [{"figure": "preservation", "minimum": 0.5, "value": 1.0, "met": True}]
    chart = _parsed(figures_chart(_report(3, 4), thresholds))
    marks = [line for line in chart.iter(f"{SVG}line") if line.get("class") == "threshold"]
    assert [(m.get("x1"), m.get("x2")) for m in marks] == [("160", "160")]


def test_families_escape_their_names_and_an_empty_report_draws_nothing() -> None:
    chart = _parsed(families_chart({'<b>&"x"': {"detected": 2, "excluded": 1}}))
    (row,) = chart.iter(f"{SVG}g")
    assert row.get("data-family") == '<b>&"x"'
    assert [(r.get("data-outcome"), r.get("width")) for r in row.iter(f"{SVG}rect")] == [
        ("detected", "202.67"),
        ("excluded", "101.33"),
    ]
    empty = _parsed(families_chart({}))
    assert list(empty.iter(f"{SVG}g")) == []
    assert legend(["detected"]).count("<li>") == 1
