"""docs/strength.md runs as written: every console block, from the repository root on the
shipped files, prints what the page shows (SPEC §17 sections, and §21: "follow the worked
examples from the repository root"); the JSON excerpts are the tool's output."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.doc_examples import (
    command_environment,
    console_commands,
    exit_code_named,
    fenced_blocks,
    shown_as,
)
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


def test_the_score_excerpts(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "fixtures").symlink_to(ROOT / "fixtures")
    assert _run("audit", "fixtures/production", "--as-of", "2026-11-30", "--records", "rec")[0] == 0
    assert _run("preflight", "fixtures/production", "--output", "preflight.json")[0] == 0
    records = [f"rec/order-3001/refund-reoffer/trial-{i}.json" for i in range(3)]
    shipped = "fixtures/strength/production"
    args = ["score", "--probe", f"{shipped}/refund-reoffer.probe.json"]
    args += ["--policy", f"{shipped}/policy.yaml"]
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


CONSOLE_BLOCKS = fenced_blocks(DOC, "console")
_CLAIMS: dict[str, Callable[[Path], None]] = {}
"""What the page says of a command's effect beyond its output, checked right after it runs."""


def _claim(start: str) -> Callable[[Callable[[Path], None]], Callable[[Path], None]]:
    def register(check: Callable[[Path], None]) -> Callable[[Path], None]:
        _CLAIMS[start] = check
        return check

    return register


_ROW = re.compile(r"^\| `(order-1001/[\w-]+)` \| [\w-]+ \| \w+ \| ([^|]+) \|", re.MULTILINE)


def _states(shown: str) -> list[str]:
    """``caught, missed`` or ``caught ×3`` as the list of states it stands for."""
    if "×" in shown:
        state, times = shown.split(" ×")
        return [state] * int(times)
    return shown.split(", ")


@_claim("textcontract audit fixtures/strength/worked --artifacts out/")
def _the_worked_audit_is_the_pages_table(folder: Path) -> None:
    report = json.loads((folder / "audit-v3.json").read_text(encoding="utf-8"))
    trials = {
        p["probe_id"]: [o["state"] for o in p["outcomes"]] for p in report["strength"]["probes"]
    }
    section = DOC[DOC.index("## A worked example") : DOC.index("## Worked examples: production")]
    table = {probe: _states(shown.strip()) for probe, shown in _ROW.findall(section)}
    assert table == trials
    assert report["verdict"] == {
        "value": "FAIL",
        "reasons": ["invalidated-trial-at-or-above-floor", "behavioural-failure-below-floor"],
    }
    defect = report["strength"]["classes"]["defect"]
    assert f'"{defect["denominator"]}"' in " ".join(section.split())  # (wrapped on the page)
    gaps = [gap["rule"] for gap in report["coverage_gaps"]]
    assert gaps == ["mentions-order-number", "tracking-link", "not-a-resend"]


@_claim("textcontract score --record rec/order-1001/wrong-domain/")
def _rescoring_reproduces_the_artifact(folder: Path) -> None:
    scored = json.loads((folder / "wrong-domain.json").read_text(encoding="utf-8"))
    audited = json.loads((folder / "out/order-1001/wrong-domain.json").read_text("utf-8"))
    differing = [key for key in audited if scored[key] != audited[key]]
    assert (list(scored), differing) == (list(audited), ["attested_inputs"])


def _listing(folder: Path) -> list[str]:
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*"))


def test_the_page_runs_every_example_it_needs() -> None:
    commands = [command for block in CONSOLE_BLOCKS for command, _ in console_commands(block)]
    assert len(commands) >= 20
    for needed in ("textcontract audit", "textcontract score", "aggregate-strength", "compare",
                   "textcontract preflight", "textcontract lineage"):  # fmt: skip
        assert any(needed in command for command in commands), needed
    assert all("sha256:…" not in command and " … " not in command for command in commands)
    assert all(any(command.startswith(start) for command in commands) for start in _CLAIMS)


def test_every_console_block_prints_what_the_page_shows(tmp_path: Path) -> None:
    """The blocks run in page order in one folder, as a reader would type them: each
    command in its own shell (``$?`` is the previous command's status), stdout and stderr
    together, its exit code the one its ``# exit N`` names or a following ``echo $?`` shows
    (0 otherwise)."""
    (tmp_path / "fixtures").symlink_to(ROOT / "fixtures")
    env = command_environment()
    status = 0
    pairs = [pair for block in CONSOLE_BLOCKS for pair in console_commands(block)]
    for index, (command, expected) in enumerate(pairs):
        before = _listing(tmp_path / "out") if "--artifacts out/" in command else None
        completed = subprocess.run(
            ["bash", "-c", f"(exit {status}); {command}"],
            cwd=tmp_path,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            check=False,
            timeout=300,
        )
        assert shown_as(expected, completed.stdout), f"$ {command}\n{completed.stdout}"
        echoed = index + 1 < len(pairs) and pairs[index + 1][0] == "echo $?"
        named = exit_code_named(command)
        if not echoed:
            assert completed.returncode == (named or 0), f"$ {command}\n{completed.stdout}"
        if before is not None and completed.returncode == 5:
            assert _listing(tmp_path / "out") == before  # a failed preflight writes nothing
        for start, check in _CLAIMS.items():
            if command.startswith(start):
                check(tmp_path)
        status = completed.returncode
