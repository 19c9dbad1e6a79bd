"""The worked examples of docs/strength.md are what the tool prints (SPEC §17 sections)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from textcontract.cli import app

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "strength.md").read_text(encoding="utf-8")
EXAMPLES = DOC[DOC.index("## Worked examples: production") : DOC.index("## What the numbers")]
runner = CliRunner()


def _blocks(kind: str) -> list[str]:
    return re.findall(rf"```{kind}\n(.*?)```", EXAMPLES, flags=re.DOTALL)


def _json_blocks() -> list[Any]:
    return [json.loads(block) for block in _blocks("json")]


def _run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout


def test_the_production_audit_json_excerpts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    code, out = _run("audit", "fixtures/production", "--as-of", "2026-11-30", "--format", "json")
    assert code == 0
    report = json.loads(out)
    blocks = _json_blocks()
    (probe,) = [p for p in report["strength"]["probes"] if p["probe_id"].endswith("refund-reoffer")]
    assert probe["outcomes"] in blocks
    assert report["waivers"] in blocks
    code, out = _run("audit", "fixtures/mutations", "--mode", "production", "--format", "json")
    production = json.loads(out)
    excerpt = {k: production[k] for k in ("mode", "evaluator_recommendation", "verdict")}
    assert (code, excerpt in blocks) == (1, True)


def test_the_console_excerpts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    consoles = "\n".join(_blocks("console"))
    code, out = _run("preflight", "fixtures/preflight/mutations", "--format", "text")
    assert code == 5
    for line in out.splitlines():
        assert line.rstrip() in consoles, line
    code, out = _run("audit", "fixtures/production", "--as-of", "2026-11-30")
    assert code == 0
    lines = out.splitlines()
    for line in lines[: lines.index("comparable: yes") + 1]:
        assert line.rstrip() in consoles, line


def test_the_score_excerpts(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "fixtures").symlink_to(ROOT / "fixtures")
    assert _run("audit", "fixtures/production", "--as-of", "2026-11-30", "--records", "rec")[0] == 0
    assert _run("preflight", "fixtures/production", "--output", "preflight.json")[0] == 0
    (tmp_path / "policy.yaml").write_text(
        "catch_threshold: 0.5\nminimum_trial_count: 3\nseverity_floor: high\n"
        "re_execution_cap: 1\nfloors: {defect: 0.75}\n",
        encoding="utf-8",
    )
    (tmp_path / "refund-reoffer.probe.json").write_text(
        json.dumps(
            {
                "probe_id": "order-3001/refund-reoffer",
                "class": "defect",
                "severity": "medium",
                "canary": False,
                "clean_control": False,
            }
        ),
        encoding="utf-8",
    )
    records = [f"rec/order-3001/refund-reoffer/trial-{i}.json" for i in range(3)]
    args = ["score", "--probe", "refund-reoffer.probe.json", "--policy", "policy.yaml"]
    for record in records:
        args += ["--record", record]
    waivers = ["--waivers", "fixtures/production/audit.yaml"]
    code, out = _run(
        *args, "--preflight-verdict", "preflight.json", *waivers, "--as-of", "2026-11-30"
    )
    assert code == 0
    artifact = json.loads(out)
    keys = ("attested_inputs", "evaluator_recommendation", "waivers", "as_of", "preflight_digest")
    excerpt = {k: artifact[k] for k in (*keys, "source_revision", "verdict")}
    assert excerpt in _json_blocks()
    code, out = _run(*args, *waivers, "--as-of", "2027-01-01")
    assert code == 5
    assert out.strip() in "\n".join(_blocks("console"))


def test_the_lineage_excerpt_has_the_documented_shape() -> None:
    consoles = "\n".join(_blocks("console"))
    start = consoles.index("$ textcontract lineage v1.yaml v3.yaml\n") + len(
        "$ textcontract lineage v1.yaml v3.yaml\n"
    )
    shown = json.loads(consoles[start : consoles.index("$ echo $?", start)])
    assert [f["code"] for f in shown["findings"]] == [
        "lineage-parent-absent",
        "lineage-length-inconsistent",
    ]
    assert shown["checks"] == {
        "length_consistent": False,
        "no_repeated_digest": True,
        "no_gap": False,
    }
