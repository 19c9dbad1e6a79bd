"""``audit --format text`` follows ``check``'s text rules at every width (SPEC §11, §21):
whole identifiers and messages, wrapped to the width, never cut with ``…``, no padding."""

from __future__ import annotations

import copy
import io
import json
import os
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from textcontract.audit import audit_directory
from textcontract.formats.audit_text import render_audit_text

ROOT = Path(__file__).resolve().parents[2]
WIDTHS = (20, 33, 40, 60, 80, 132)
THRESHOLDS = [
    {"figure": "detection", "minimum": 0.75, "value": 0.78, "met": True},
    {"figure": "preservation", "minimum": 0.9, "value": None, "met": False},
]
LONG = "an-identifier-longer-than-any-narrow-terminal-is-wide-and-stays-whole"


@cache
def _shipped(name: str) -> str:
    """The report of a shipped corpus, as JSON text (fresh objects per test)."""
    return json.dumps(audit_directory(ROOT / "fixtures" / name).report)


def _long_names(report: dict[str, Any]) -> dict[str, Any]:
    """``report`` with identifiers longer than the narrowest widths tried here."""
    report = copy.deepcopy(report)
    report["families"][LONG] = {"detected": 1, "undetected": 2, "not-preserved": 3}
    first = next(row for row in report["variants"] if row["outcome"] == "undetected")
    first["variant"] = LONG
    first["expected"][0]["rule"] = LONG
    report["coverage_gaps"] = [{"rule": LONG, "severity": "critical"}]
    report["strength"]["unreached_oracles"] = [f"{LONG}:CODE:surface:body", "b:C:surface:x"]
    return report


def _report(name: str) -> dict[str, Any]:
    """A report by name: two shipped corpora, and the first with long identifiers."""
    if name == "long-identifiers":
        return _long_names(_report("mutations"))
    found: dict[str, Any] = json.loads(_shipped("production" if name == "waivers" else name))
    return found


REPORTS = ("long-identifiers", "mutations", "waivers")


def _rendered(report: dict[str, Any], width: int) -> str:
    out = io.StringIO()
    console = Console(file=out, width=width, color_system=None, force_terminal=False)
    render_audit_text(report, console, THRESHOLDS)
    return out.getvalue()


def _identifiers(report: dict[str, Any]) -> set[str]:
    """What a reader searches the output for, each of which must stand whole on one line."""
    found = {report["contract"]["id"], report["contract"]["digest"][:19]}
    found |= set(report["families"])
    for row in report["variants"]:
        if row["outcome"] in ("undetected", "not-preserved"):
            found |= {f"{row['case']}/{row['variant']}", row["reason"], row["family"]}
        for item in row["expected"] if row["outcome"] == "undetected" else ():
            found.add(f"{item['rule']}:{item['code']}:{item['scope']}")
    found |= {f"{row['case']}/{row['variant']}" for row in report["excluded"]}
    found |= {row["reason"] for row in report["excluded"]}
    found |= {gap["rule"] for gap in report["coverage_gaps"]}
    found |= set(report["strength"]["unreached_oracles"])
    found |= set(report["verdict"]["reasons"])
    for waiver in (report.get("waivers") or {}).get("declared", ()):
        found |= {waiver["id"], *waiver["trials"]}
    return found


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", REPORTS)
def test_every_width_shows_the_whole_text_wrapped_never_cut(name: str, width: int) -> None:
    report = _report(name)
    text = _rendered(report, width)
    lines = text.splitlines()
    assert "…" not in text
    assert [line for line in lines if line != line.rstrip()] == []
    for line in lines:  # a line is longer than the width only when it is one long word
        # (text_lines keeps 20 columns after the deepest pad, 6 here, however narrow)
        assert len(line) <= max(width, 26) or len(line.split()) == 1, line
    for identifier in _identifiers(report):
        assert any(identifier in line.split(" ") or identifier in line for line in lines), (
            identifier
        )
    # wrapping moves line breaks and nothing else: the words are those of a wide terminal
    assert text.split() == _rendered(report, 1000).split()


@pytest.mark.parametrize("name", REPORTS)
def test_rows_line_up_and_continuations_hang_below_them(name: str) -> None:
    lines = _rendered(_report(name), 80).splitlines()
    start = lines.index("strength vector (per class, never one number)")
    rows = lines[start + 1 : start + 4]
    assert [row.split()[0] for row in rows] == ["defect", "gameability", "zero-action"]
    assert len({row.index("rate") for row in rows}) == 1  # padded names: one column
    assert len({row.index("caught") for row in rows}) == 1  # right-aligned counts
    narrow = _rendered(_report(name), 40).splitlines()
    title = narrow.index("per family (variants by outcome)")
    for line in narrow[title + 1 :]:
        if not line:
            break
        assert line.startswith("  ")  # a row at 2 columns, its continuation at 4
        assert not line.startswith("   ") or line.startswith("    ")


def test_a_digest_is_shown_as_12_hex_digits_without_an_ellipsis() -> None:
    report = _report("mutations")
    first = _rendered(report, 80).splitlines()[0]
    digest = report["contract"]["digest"]
    assert first.endswith(f"({digest[:19]})")
    assert digest[:20] not in first


def test_the_cli_at_60_columns_keeps_every_family_and_expected_check_whole() -> None:
    """The issue's examples, through a real process into a pipe: the generated corpus'
    families (two of them began ``claim-``) and a shipped corpus's expected checks."""
    env = {**os.environ, "COLUMNS": "60"}
    env.pop("GITHUB_ACTIONS", None)
    outputs = {}
    for corpus in ("generated", "mutations"):
        completed = subprocess.run(
            [sys.executable, "-m", "textcontract", "audit", f"fixtures/{corpus}"],
            cwd=ROOT, env=env, capture_output=True, text=True, check=False, timeout=300,
        )  # fmt: skip
        assert completed.returncode == 0, completed.stderr
        outputs[corpus] = completed.stdout
    words = {
        word for text in outputs.values() for line in text.splitlines() for word in line.split()
    }
    for whole in (
        "claim-perturb",
        "claim-retype",
        "forbidden-disguise",
        "forbidden-inject",
        "tracking-link:REQUIRED_PATTERN:surface:body",
        "claims-match-order:CLAIM_STATE_MISMATCH:surface:body",
    ):
        assert whole in words, whole
    assert all("…" not in text for text in outputs.values())
    assert all(len(line) <= 60 for text in outputs.values() for line in text.splitlines())
