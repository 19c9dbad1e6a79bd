"""JUnit XML for ``check`` and ``audit``: valid against Jenkins' junit-10.xsd, read back by
junitparser with the counts SPEC §12 promises, and never a character XML forbids."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
import xmlschema
from hypothesis import given, settings
from hypothesis import strategies as st
from junitparser import Error, Failure, JUnitXml, Skipped
from typer.testing import CliRunner

from tests.formats.ci_builders import (
    FIXTURES,
    SCHEMAS,
    audit_report,
    check,
    checked_documents,
    report,
    small_audit,
)
from textcontract.cli import app
from textcontract.formats.audit_junit import write_audit_junit
from textcontract.formats.check_findings import CheckedDocument
from textcontract.formats.check_junit import write_check_junit
from textcontract.formats.xml_text import xml_safe

SCHEMA = xmlschema.XMLSchema(SCHEMAS / "junit-10.xsd")
FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def check_xml(documents: list[CheckedDocument]) -> str:
    out = StringIO()
    write_check_junit(documents, out.write)
    return out.getvalue()


def read(text: str, tmp_path: Path) -> JUnitXml:
    path = tmp_path / "report.xml"
    path.write_text(text, encoding="utf-8")
    SCHEMA.validate(str(path))
    return JUnitXml.fromfile(str(path))


def test_check_junit_has_a_suite_per_document_and_a_case_per_check(tmp_path: Path) -> None:
    xml = read(check_xml(checked_documents()), tmp_path)
    suites = list(xml)
    assert [suite.name for suite in suites] == ["mail/order-1002.md", "replies/order 7, draft.json"]
    first = suites[0]
    assert (first.tests, first.failures, first.errors, first.skipped) == (7, 3, 1, 1)
    kinds = []
    for case in first:
        results = case.result
        kinds.append((case.classname, case.name, type(results[0]).__name__ if results else "pass"))
    claims = "claims-match-order CLAIM_STATE_MISMATCH surface:body"
    assert kinds == [
        ("claims-match-order", f"{claims} order.id", "pass"),  # a claims check names its key
        ("claims-match-order", f"{claims} order.total", "Failure"),
        ("no-refund-promise", "no-refund-promise NO_REFUND_PROMISE surface:body", "Failure"),
        ("subject-names-order", "subject-names-order PATTERN_TIMEOUT surface:subject", "Error"),
        ("tone", "tone FORBIDDEN_PATTERN surface:body", "pass"),  # advisory: passes
        (
            "status-shipped",
            "status-shipped FACT_UNAVAILABLE state:current:order.status",
            "Skipped",
        ),
        ("links", "links LINK_DOMAIN surface:body", "Failure"),
    ]
    cases = list(first)
    failure = cases[2].result[0]
    assert isinstance(failure, Failure)
    assert failure.message == "1 forbidden match on surface 'body', first 'Money back'"
    assert "mail/order-1002.md:9:20" in (failure.text or "")
    assert '"match": "Money back"' in (failure.text or "")
    assert "advisory" in (cases[4].system_out or "")
    assert isinstance(cases[3].result[0], Error)
    assert isinstance(cases[5].result[0], Skipped)
    second = suites[1]  # block_heuristics: false, so the heuristic violation passes
    assert (second.tests, second.failures, second.errors, second.skipped) == (2, 0, 0, 0)


def test_case_names_are_unique_within_a_suite(tmp_path: Path) -> None:
    """SPEC §21: two rules of one suite never share a name, and the same check twice (two
    identical findings of one rule) is told apart by a number."""

    def forbidden(rule: str, code: str = "FORBIDDEN_PATTERN", premise: str = "") -> Any:
        evidence = [{"premise": premise}] if premise else []
        kind = "heuristic"
        return check(rule, "T", kind, "violated", code, "surface:body", "m", evidence)

    reoffer = "SETTLED_PREMISE_REOFFER"
    checks = [
        forbidden("a"),
        forbidden("b"),
        forbidden("b"),
        forbidden("c", reoffer, "p"),
        forbidden("c", reoffer, "q"),
    ]
    built = report(checks, source="mail.md")
    xml = read(check_xml([CheckedDocument("mail.md", built)]), tmp_path)
    names = [case.name for suite in xml for case in suite]
    assert names == [
        "a FORBIDDEN_PATTERN surface:body",
        "b FORBIDDEN_PATTERN surface:body",
        "b FORBIDDEN_PATTERN surface:body #2",
        "c SETTLED_PREMISE_REOFFER surface:body p",
        "c SETTLED_PREMISE_REOFFER surface:body q",
    ]


def test_times_are_zero_and_the_output_is_deterministic() -> None:
    text = check_xml(checked_documents())
    assert text == check_xml(checked_documents())
    times = re.findall(r'time="([^"]*)"', text)
    assert times
    assert set(times) == {"0"}
    assert "timestamp" not in text
    assert "hostname" not in text


def test_a_report_without_checks_is_a_failing_suite(tmp_path: Path) -> None:
    xml = read(check_xml([CheckedDocument("empty.md", report([]))]), tmp_path)
    (suite,) = list(xml)
    assert (suite.tests, suite.failures) == (1, 1)
    (case,) = list(suite)
    assert case.name == "no checks"


TEXTS = st.text(
    alphabet=st.characters(codec=None, min_codepoint=0, max_codepoint=0x10FFFF), max_size=40
)


@settings(max_examples=60, deadline=None)
@given(message=TEXTS, match=TEXTS, scope_tail=TEXTS)
def test_no_character_xml_forbids_is_ever_written(
    message: str, match: str, scope_tail: str
) -> None:
    item = check(
        "rule",
        "ForbiddenPattern",
        "heuristic",
        "violated",
        "CODE",
        "surface:" + scope_tail,
        message,
        [{"match": match, "excerpt": match}],
    )
    text = check_xml([CheckedDocument("doc" + match + ".md", report([item]))])
    assert FORBIDDEN.search(text) is None
    root = ET.fromstring(text.encode("utf-8"))  # well-formed
    failure = root.find("testsuite/testcase/failure")
    assert failure is not None
    # attribute values survive exactly (after replacement); element text up to XML's CR rule
    assert failure.get("message") == xml_safe(message)
    suite = root.find("testsuite")
    assert suite is not None
    assert suite.get("name") == xml_safe("doc" + match + ".md")


def test_xml_safe_replaces_controls_with_pictures_and_keeps_the_rest() -> None:
    assert xml_safe("a\x00b\x1fc\tcr\r\nlf") == "a␀b␟c\tcr\r\nlf"
    assert xml_safe("\ufffe\uffff\ud800é😀") == "\ufffd\ufffd\ufffdé😀"


def audit_xml(data: dict[str, Any]) -> str:
    out = StringIO()
    write_audit_junit(data, out.write)
    return out.getvalue()


def test_audit_junit_has_a_case_per_variant(tmp_path: Path) -> None:
    data = audit_report()
    xml = read(audit_xml(data), tmp_path)
    cases = [case for suite in xml for case in suite]
    assert len(cases) == len(data["variants"]) + len(data["excluded"])
    failed = {(c.classname, c.name) for c in cases if c.result and isinstance(c.result[0], Failure)}
    assert failed == {
        (v["case"], v["variant"])
        for v in data["variants"]
        if v["outcome"] in ("undetected", "not-preserved")
    }
    skipped = {
        (c.classname, c.name): c.result[0].message
        for c in cases
        if c.result and isinstance(c.result[0], Skipped)
    }
    assert skipped == {
        (e["case"], e["variant"]): f"excluded: {e['reason']}" for e in data["excluded"]
    }
    for suite in xml:
        listed = list(suite)
        assert suite.tests == len(listed)
        assert suite.failures == sum(
            1 for c in listed if c.result and isinstance(c.result[0], Failure)
        )
        assert suite.skipped == sum(
            1 for c in listed if c.result and isinstance(c.result[0], Skipped)
        )
        assert suite.errors == 0


def test_audit_failure_says_why_and_what_was_expected(tmp_path: Path) -> None:
    data, _ = small_audit()
    xml = read(audit_xml(data), tmp_path)
    cases = {(c.classname, c.name): c for suite in xml for c in suite}
    failure = cases[("c1", "total")].result[0]
    assert failure.message == "fault not detected: accepted"
    assert "claims:CLAIM_STATE_MISMATCH:surface:body -> satisfied" in (failure.text or "")
    assert cases[("c1", "float-total")].result[0].message == "variation not preserved: rejected"


def test_the_cli_writes_audit_junit(tmp_path: Path) -> None:
    target = tmp_path / "audit.xml"
    result = CliRunner().invoke(
        app, ["audit", str(FIXTURES / "mutations"), "--format", "junit", "--output", str(target)]
    )
    assert result.exit_code == 0, result.output
    xml = read(target.read_text(encoding="utf-8"), tmp_path)
    assert sum(suite.tests for suite in xml) == 36


@pytest.mark.parametrize("document", ["order-1002.md", "order-1003.json"])
def test_the_cli_writes_check_junit(document: str, tmp_path: Path) -> None:
    orders = FIXTURES / "orders"
    result = CliRunner().invoke(
        app,
        [
            "check",
            str(orders / document),
            "--context",
            str(orders / (document.rsplit(".", 1)[0] + ".context.json")),
            "--contract",
            str(orders / "textcontract.yaml"),
            "--format",
            "junit",
        ],
    )
    xml = read(result.stdout, tmp_path)
    (suite,) = list(xml)
    assert suite.name == str(orders / document)
    assert result.exit_code == (1 if suite.failures or suite.errors else 0)
