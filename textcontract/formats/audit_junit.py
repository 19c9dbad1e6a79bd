"""``audit --format junit``: one ``<testsuite>`` per case, one ``<testcase>`` per variant.

A fault the contract did not detect and a valid variation it did not preserve are
``<failure>``s (the reason is the message, the expected checks and their statuses the body);
an excluded variant is ``<skipped>`` with its reason. Cases and variants keep report order
(cases by id, each case's counted variants in file order, then its exclusions); times are ``0``.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator, Mapping
from typing import Any
from xml.sax.saxutils import quoteattr

from textcontract.formats.xml_text import XML_DECLARATION, element, serialize, xml_safe

__all__ = ["write_audit_junit"]

_FAILED = {"undetected", "not-preserved"}


def _rows_by_case(report: Mapping[str, Any]) -> Iterator[tuple[str, list[Mapping[str, Any]]]]:
    """Rows per case, cases by id: the case's counted variants, then its exclusions."""
    cases: dict[str, list[Mapping[str, Any]]] = {}
    for row in report["variants"]:
        cases.setdefault(row["case"], []).append(row)
    for row in report["excluded"]:
        cases.setdefault(row["case"], []).append({**row, "outcome": "excluded"})
    for case in sorted(cases):
        yield case, cases[case]


def _expected(row: Mapping[str, Any]) -> str:
    lines = [
        f"{item['rule']}:{item['code']}:{item['scope']} -> {item['status']}"
        for item in row.get("expected") or ()
    ]
    return "\n".join(["expected checks:", *lines]) + "\n" if lines else ""


def _failure_message(row: Mapping[str, Any]) -> str:
    what = "fault not detected" if row["outcome"] == "undetected" else "variation not preserved"
    canary = " (canary)" if row.get("canary") else ""
    return f"{what}{canary}: {row['reason']}"


def _testcase(row: Mapping[str, Any]) -> tuple[ET.Element, str | None]:
    case = element("testcase", {"classname": row["case"], "name": row["variant"], "time": "0"})
    outcome = row["outcome"]
    if outcome == "excluded":
        case.append(element("skipped", {"message": f"excluded: {row['reason']}"}))
        return case, "skipped"
    labels = (
        f"{row['relation']} · class {row['class']} · family {row['family']} · "
        f"severity {row['severity']} · outcome {outcome}\n"
    )
    if outcome in _FAILED:
        failure = element(
            "failure",
            {"message": _failure_message(row), "type": outcome},
            labels + _expected(row),
        )
        case.append(failure)
        return case, "failures"
    case.append(element("system-out", None, labels + _expected(row)))
    return case, None


def _suite(name: str, rows: list[Mapping[str, Any]]) -> ET.Element:
    counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    cases = []
    for row in rows:
        case, counted = _testcase(row)
        cases.append(case)
        counts["tests"] += 1
        if counted is not None:
            counts[counted] += 1
    suite = element("testsuite", {"name": name, **counts, "time": "0"})
    suite.extend(cases)
    return suite


def write_audit_junit(report: Mapping[str, Any], write: Callable[[str], object]) -> None:
    """Write the JUnit XML of an audit report (SPEC §6), one suite per case."""
    contract = report["contract"]
    write(XML_DECLARATION)
    name = f"textcontract audit {contract['id']} {contract['version']}"
    write(f"<testsuites name={quoteattr(xml_safe(name))}>\n")
    for case, rows in _rows_by_case(report):
        write(serialize(_suite(case, rows), level=1))
    write("</testsuites>\n")
