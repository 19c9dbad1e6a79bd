"""The shipped template-rendered example (fixtures/render, used by the README), and the CLI."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from jinja2 import FileSystemLoader
from typer.testing import CliRunner

import textcontract
from textcontract.inputs import load_context_file, load_document_file
from textcontract.model import Document
from textcontract.render import environment, render

ROOT = Path(__file__).resolve().parents[2]
HERE = ROOT / "fixtures" / "render"


def _rendered() -> Document:
    context = json.loads((HERE / "order-1001.context.json").read_text(encoding="utf-8"))
    items = json.loads((HERE / "order-1001.items.json").read_text(encoding="utf-8"))
    env = environment(loader=FileSystemLoader(HERE), keep_trailing_newline=True)
    template = env.get_template("order-shipped.txt.j2")
    return render(template, {"facts": context["states"]["current"], "items": items})


def _json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def test_shipped_document_is_what_the_template_renders() -> None:
    document = _rendered()
    assert _json(HERE / "order-1001.json") == document.to_json()
    assert load_document_file(HERE / "order-1001.json") == document


def test_edited_document_is_the_rendered_one_with_the_total_replaced() -> None:
    expected = _rendered().to_json()
    body = expected["surfaces"]["body"]
    body["text"] = body["text"].replace("59.90", "59.50")
    assert _json(HERE / "order-1001-edited.json") == expected


def test_the_contract_accepts_the_rendering_and_rejects_the_edit() -> None:
    contract = textcontract.load_contract(HERE / "textcontract.yaml")
    context = load_context_file(HERE / "order-1001.context.json")
    assert contract.check(_rendered(), context).accepted
    report = contract.check(load_document_file(HERE / "order-1001-edited.json"), context)
    assert not report.accepted
    broken = [c for c in report.checks if c.status.value != "satisfied"]
    assert [(c.rule_id, c.code, c.status.value) for c in broken] == [
        ("claims-still-stand", "CLAIM_ANCHORED", "violated")
    ]
    assert broken[0].evidence == (
        {
            "key": "order.total",
            "span": [169, 174],
            "expected": "59.90",
            "found": "59.50",
            "location": {
                "surface": "body",
                "offsets": [169, 174],
                "start": [9, 13],
                "end": [9, 18],
            },
        },
    )


def _check_command(name: str) -> list[str]:
    return [
        "check",
        str(HERE / name),
        "--context",
        str(HERE / "order-1001.context.json"),
        "--contract",
        str(HERE / "textcontract.yaml"),
        "--format",
        "json",
    ]


def test_readme_commands_as_a_subprocess() -> None:
    executable = shutil.which("textcontract", path=str(Path(sys.executable).parent))
    assert executable is not None
    accepted = subprocess.run(
        [executable, *_check_command("order-1001.json")], capture_output=True, text=True
    )
    assert accepted.returncode == 0, accepted.stderr
    assert json.loads(accepted.stdout)["accepted"] is True
    rejected = subprocess.run(
        [executable, *_check_command("order-1001-edited.json")], capture_output=True, text=True
    )
    assert rejected.returncode == 1, rejected.stderr
    assert json.loads(rejected.stdout)["counts"]["violated"] == 1


def test_rules_lists_claims_anchored() -> None:
    from textcontract.cli import app

    result = CliRunner().invoke(app, ["rules"])
    assert result.exit_code == 0, result.output
    assert "ClaimsAnchored  invariant" in result.stdout
    assert "search: boolean, default false" in result.stdout
    assert "CLAIM_PRESENT (satisfied/violated)" in result.stdout
    executable = shutil.which("textcontract", path=str(Path(sys.executable).parent))
    assert executable is not None
    listed = subprocess.run(
        [executable, "rules", "--format", "json"], capture_output=True, text=True
    )
    assert listed.returncode == 0, listed.stderr
    entry = next(
        t for t in json.loads(listed.stdout)["rule_types"] if t["name"] == "ClaimsAnchored"
    )
    assert entry["kind"] == "invariant"
    assert entry["main_code"] == "CLAIM_ANCHORED"
    assert [p["name"] for p in entry["params"]] == ["surfaces", "search"]


def test_readme_render_example_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Rendering with claims and anchors", 1)[1].split("\n## ", 1)[0]
    (block,) = re.findall(r"^```python\n(.*?)^```$", section, re.MULTILINE | re.DOTALL)
    monkeypatch.chdir(ROOT)
    namespace: dict[str, object] = {}
    exec(compile(block, "README.md[render example]", "exec"), namespace)
    assert namespace["document"] == _rendered()
