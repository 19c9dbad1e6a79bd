"""Golden files pin a small example of every CI format, byte for byte.

The inputs are built by hand (``ci_builders``), so these files change only when a format
does. After a deliberate change, regenerate them with
``TEXTCONTRACT_UPDATE_GOLDEN=1 python -m pytest tests/formats/test_golden.py`` and review
the diff.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from io import StringIO

import pytest

from tests.formats.ci_builders import CONTRACT, GOLDEN, RULES, checked_documents, small_audit
from textcontract.formats.audit_html import render_audit_html
from textcontract.formats.audit_junit import write_audit_junit
from textcontract.formats.audit_markdown import render_audit_markdown
from textcontract.formats.check_junit import write_check_junit
from textcontract.formats.check_markdown import CheckSummary
from textcontract.formats.github import write_audit_annotations, write_check_annotations
from textcontract.formats.json_text import write_pretty
from textcontract.formats.sarif import SarifRun, sarif_log

BASE = "/work"
THRESHOLDS = [{"figure": "detection", "minimum": 0.9, "value": 0.0, "met": False}]


def _written(render: Callable[[Callable[[str], object]], None]) -> str:
    out = StringIO()
    render(out.write)
    return out.getvalue()


def _sarif() -> str:
    log = sarif_log([SarifRun(CONTRACT, RULES, checked_documents())], "0.1.0", BASE)
    return _written(lambda write: write_pretty(log, write))


def _check_summary() -> str:
    summary = CheckSummary()
    for document in checked_documents():
        summary.add(document)
    return summary.markdown()


def _audit_annotations() -> str:
    report, views = small_audit()
    places = {(v["case"], v["variant"]): (v["file"], v["line"]) for v in views}
    rules = {"no|pipes": ("contract.yaml", 14)}
    return _written(lambda write: write_audit_annotations(report, places, rules, write))


RENDERERS: dict[str, Callable[[], str]] = {
    "check.sarif": _sarif,
    "check.junit.xml": lambda: _written(lambda w: write_check_junit(checked_documents(), w)),
    "check.github.txt": lambda: _written(
        lambda w: write_check_annotations(checked_documents(), BASE, w)
    ),
    "check-summary.md": _check_summary,
    "audit.junit.xml": lambda: _written(lambda w: write_audit_junit(small_audit()[0], w)),
    "audit.github.txt": _audit_annotations,
    "audit.md": lambda: render_audit_markdown(small_audit()[0], THRESHOLDS),
    "audit.html": lambda: render_audit_html(*small_audit(), THRESHOLDS),
}


@pytest.mark.parametrize("name", sorted(RENDERERS))
def test_the_format_matches_its_golden_file(name: str) -> None:
    rendered = RENDERERS[name]()
    assert rendered == RENDERERS[name](), "not deterministic"
    golden = GOLDEN / name
    if os.environ.get("TEXTCONTRACT_UPDATE_GOLDEN"):
        golden.write_bytes(rendered.encode("utf-8"))
    assert golden.read_bytes() == rendered.encode("utf-8")
