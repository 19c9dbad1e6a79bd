"""``check --format junit``: one ``<testsuite>`` per document, one ``<testcase>`` per check.

A case's ``classname`` is the rule id and its ``name`` ``RULE CODE SCOPE`` with, for a
claims check, its claim key (for SettledPremise, its premise); a name met again in the suite
gets ``#2``, ``#3``…, so names are unique within a suite (SPEC §21).

A check that rejects the document (violated and blocking under the report's policy) is a
``<failure>`` whose body holds the evidence; an ``error`` check is an ``<error>``; an
undetermined one is ``<skipped>``; an advisory violation passes with its message in
``<system-out>``. With ``check --baseline``, a failure or error the baseline holds is
``<skipped>`` (``unchanged since the baseline: …``): it does not fail the run (SPEC §21). A
report with no checks is rejected (SPEC §3), so its suite holds one
failing ``textcontract`` case saying so — a dashboard never shows a rejected document green.
Suites are written one at a time; times are ``0`` (the output is deterministic).
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from textcontract.formats.check_findings import CheckedDocument, blocks, region_of
from textcontract.formats.xml_text import XML_DECLARATION, element, serialize
from textcontract.model import shown_pattern

__all__ = ["write_check_junit"]

_NO_CHECKS = "the contract produced no checks for this document, so it is not accepted"


def _where(check: Mapping[str, Any], document: CheckedDocument) -> str:
    region = region_of(check, document)
    place = f"{document.path}:{region.start_line}"
    if region.start_column is not None:
        place += f":{region.start_column}"
    return place


def _body(check: Mapping[str, Any], document: CheckedDocument) -> str:
    """Where, what, and every evidence item as one JSON line (a long pattern shortened)."""
    lines = [
        f"{_where(check, document)}: {check['status']} {check['rule_id']} {check['code']} "
        f"at {check['scope']}",
        str(check.get("message") or ""),
    ]
    for item in check.get("evidence") or ():
        lines.append(json.dumps(_shown_item(item), ensure_ascii=False, sort_keys=True))
    return "\n".join(lines) + "\n"


def _shown_item(item: Any) -> Any:
    """An evidence item with a long pattern shortened, as messages name it (SPEC §21)."""
    if isinstance(item, Mapping) and isinstance(item.get("pattern"), str):
        return {**item, "pattern": shown_pattern(item["pattern"])}
    return item


def _case_name(check: Mapping[str, Any]) -> str:
    """``RULE CODE SCOPE``, then what tells the checks of one rule and scope apart: the claim
    key of a claims check, the premise of a SettledPremise check (when the scope lacks it)."""
    name = f"{check['rule_id']} {check['code']} {check['scope']}"
    for item in (check.get("evidence") or ())[:1]:
        if not isinstance(item, Mapping):
            continue
        for field in ("key", "premise"):
            detail = item.get(field)
            if isinstance(detail, str) and detail not in str(check["scope"]):
                return f"{name} {detail}"
    return name


def _unique_names(checks: Sequence[Mapping[str, Any]]) -> list[str]:
    """Every check's case name, unique within the suite: a name met again gets ``#2``, ``#3``…
    (SPEC §21: dashboards key test results by name)."""
    seen: dict[str, int] = {}
    names = []
    for check in checks:
        name = _case_name(check)
        seen[name] = seen.get(name, 0) + 1
        names.append(name if seen[name] == 1 else f"{name} #{seen[name]}")
    return names


def _testcase(
    check: Mapping[str, Any], name: str, document: CheckedDocument, policy: Mapping[str, Any]
) -> tuple[ET.Element, str | None]:
    """The case and what it counts as: ``failures``, ``errors``, ``skipped`` or None (passed)."""
    case = element("testcase", {"classname": check["rule_id"], "name": name, "time": "0"})
    status, message = check["status"], str(check.get("message") or "")
    counted: str | None = None
    fails = status == "error" or (status == "violated" and blocks(check, policy))
    if fails and check.get("baseline") == "unchanged":
        # known before (check --baseline): it does not fail the run, so it fails no test
        case.append(element("skipped", {"message": f"unchanged since the baseline: {message}"}))
        counted = "skipped"
    elif status == "error":
        case.append(
            element("error", {"message": message, "type": check["code"]}, _body(check, document))
        )
        counted = "errors"
    elif status == "undetermined":
        case.append(element("skipped", {"message": message}))
        counted = "skipped"
    elif status == "violated" and blocks(check, policy):
        case.append(
            element("failure", {"message": message, "type": check["code"]}, _body(check, document))
        )
        counted = "failures"
    elif status == "violated":
        case.append(element("system-out", None, f"advisory: {_body(check, document)}"))
    return case, counted


def _no_checks_case() -> ET.Element:
    case = element("testcase", {"classname": "textcontract", "name": "no checks", "time": "0"})
    case.append(element("failure", {"message": _NO_CHECKS, "type": "NO_CHECKS"}, _NO_CHECKS))
    return case


def _suite(document: CheckedDocument) -> ET.Element:
    report = document.report
    policy = report.get("policy") or {}
    counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    cases = []
    checks = list(report.get("checks") or ())
    for check, name in zip(checks, _unique_names(checks), strict=True):
        case, counted = _testcase(check, name, document, policy)
        cases.append(case)
        counts["tests"] += 1
        if counted is not None:
            counts[counted] += 1
    if not cases:
        cases.append(_no_checks_case())
        counts["tests"], counts["failures"] = 1, 1
    suite = element("testsuite", {"name": document.source, **counts, "time": "0"})
    suite.extend(cases)
    return suite


def write_check_junit(documents: Iterable[CheckedDocument], write: Callable[[str], object]) -> None:
    """Write the JUnit XML of every document, one suite at a time."""
    write(XML_DECLARATION)
    write('<testsuites name="textcontract check">\n')
    for document in documents:
        write(serialize(_suite(document), level=1))
    write("</testsuites>\n")
