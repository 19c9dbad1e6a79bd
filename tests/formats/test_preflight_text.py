"""``preflight --format text``: every line whole, notes wrapped under their indent, no padding."""

from __future__ import annotations

import io
from typing import Any

import pytest
from rich.console import Console

from textcontract.formats.preflight_text import render_preflight_text

_NOTE = (
    "the unmutated baseline already violates this expectation, so the probe would be "
    "caught without its fault and measures nothing"
)
_SUBJECT = "order-1004/cheapen#tone:FORBIDDEN_PATTERN:surface:body"


def _verdict() -> dict[str, Any]:
    return {
        "contract": {"id": "order-tone", "version": 1, "digest": "sha256:" + "ab" * 32},
        "mode": "contract-scoring",
        "passed": False,
        "checks": [
            {"kind": "baseline-accepted", "subject": "order-1004", "outcome": "satisfied",
             "note": ""},
            {"kind": "fault-scoped", "subject": _SUBJECT, "outcome": "failed", "note": _NOTE},
        ],
        "plan": {"probes": [{}, {}], "trials_total": 2, "excluded": []},
    }  # fmt: skip


def _render(width: int) -> list[str]:
    out = io.StringIO()
    render_preflight_text(_verdict(), Console(file=out, width=width, color_system=None))
    return out.getvalue().splitlines()


@pytest.mark.parametrize("width", [30, 40, 80, 200])
def test_no_line_ends_in_padding_and_the_note_is_wrapped_under_its_indent(width: int) -> None:
    lines = _render(width)
    assert [line for line in lines if line != line.rstrip()] == []
    assert f"  - failed fault-scoped: {_SUBJECT}" in lines  # the subject is never broken
    start = lines.index(f"  - failed fault-scoped: {_SUBJECT}") + 1
    end = next(index for index, line in enumerate(lines) if line.startswith("plan: "))
    note = lines[start:end]
    assert all(line.startswith("    ") and len(line) <= max(width, 24) for line in note)
    assert " ".join(line.strip() for line in note) == _NOTE


def test_the_header_the_verdict_and_the_counts() -> None:
    lines = _render(80)
    assert lines[:4] == [
        "preflight of order-tone version 1  (sha256:abababababab)",
        "mode: contract-scoring",
        "verdict: failed — nothing was evaluated beyond the baselines",
        "checks: 2, 1 not satisfied",
    ]
    assert lines[-1] == "plan: 2 admitted probes, 2 trials; 0 variants excluded"
