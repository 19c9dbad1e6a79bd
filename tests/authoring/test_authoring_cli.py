"""``rules``, ``schema``, ``test`` and ``lint`` through typer (local app) and a subprocess."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from textcontract.cli._lint import register as register_lint
from textcontract.cli._rules import register as register_rules
from textcontract.cli._schema import register as register_schema
from textcontract.cli._test import register as register_test
from textcontract.rules import BUILTIN_TYPES

ROOT = Path(__file__).resolve().parents[2]
PACKS = sorted(str(path) for path in (ROOT / "rules").glob("*.yaml"))
runner = CliRunner()


def _app() -> typer.Typer:
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)

    @app.callback()
    def _root() -> None:
        """A local app: the lead wires the same register functions into the real one."""

    for register in (register_rules, register_schema, register_test, register_lint):
        register(app)
    return app


APP = _app()


def _invoke(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(APP, list(args))
    return result.exit_code, result.stdout, result.stderr


MISMATCHING = """\
textcontract: 1
id: mismatching
rules:
  - id: no-refund
    type: ForbiddenPattern
    patterns: ['\\brefund\\b']
    examples:
      violated: [We will refund you, Thanks]
      satisfied: [Thanks]
"""

WARNING = """\
textcontract: 1
id: warning
rules:
  - {id: accents, type: ForbiddenPattern, patterns: ['remboursé']}
  - {id: range, type: TokenRange, min: 9, max: 2}
"""


@pytest.fixture
def contracts(tmp_path: Path) -> Path:
    (tmp_path / "mismatching.yaml").write_text(MISMATCHING, encoding="utf-8")
    (tmp_path / "warning.yaml").write_text(WARNING, encoding="utf-8")
    (tmp_path / "broken.yaml").write_text(
        "textcontract: 1\nid: broken\nrules:\n  - {id: r, type: TokenRang, min: 1}\n",
        encoding="utf-8",
    )
    return tmp_path


# -- rules -------------------------------------------------------------------


def test_rules_text_lists_every_type_with_kind_parameters_and_codes() -> None:
    code, out, _ = _invoke("rules")
    assert code == 0
    for rule_type in BUILTIN_TYPES:
        assert rule_type.name in out
        assert rule_type.summary in out
    assert "TokenRange  heuristic" in out
    assert 'state: string, default "current"' in out
    assert "timeout_ms: integer 1–60000, default 250" in out
    assert "codes: TOKEN_COUNT (satisfied/violated), UNSUPPORTED_SCRIPT (undetermined)" in out


def test_rules_json_reads_the_declarations() -> None:
    code, out, _ = _invoke("rules", "--format", "json")
    assert code == 0
    listed = json.loads(out)
    assert listed["catalog_version"] == 1
    by_name = {entry["name"]: entry for entry in listed["rule_types"]}
    assert list(by_name) == [rule_type.name for rule_type in BUILTIN_TYPES]
    for rule_type in BUILTIN_TYPES:
        entry = by_name[rule_type.name]
        assert entry["kind"] == rule_type.kind.value
        assert entry["origin"] == "builtin"
        assert [p["name"] for p in entry["params"]] == [p.name for p in rule_type.params]
        assert [p["type"] for p in entry["params"]] == [p.type.label for p in rule_type.params]
        assert [c["code"] for c in entry["codes"]] == [c.name for c in rule_type.codes]
        assert entry["main_code"] == rule_type.main_code


def test_rules_packs_lists_pack_rules_and_descriptions() -> None:
    code, out, _ = _invoke("rules", "--packs")
    assert code == 0
    assert "include: [builtin:placeholders]" in out
    assert "placeholders.bracketed-identifier (ForbiddenPattern, high)" in out
    assert "llm-boilerplate.chat-filler (ForbiddenPattern, low, advisory)" in out

    code, out, _ = _invoke("rules", "--packs", "--format", "json")
    packs = {pack["name"]: pack for pack in json.loads(out)["packs"]}
    assert set(packs) >= {"placeholders", "llm-boilerplate", "leaked-markup"}
    assert packs["placeholders"]["include"] == "builtin:placeholders"
    assert all(rule["description"] for pack in packs.values() for rule in pack["rules"])


# -- schema ------------------------------------------------------------------


def test_schema_prints_json_and_writes_output_atomically(tmp_path: Path) -> None:
    code, out, _ = _invoke("schema", "--no-plugins")
    assert code == 0
    shipped = (ROOT / "textcontract" / "schema" / "contract.schema.json").read_text("utf-8")
    assert out == shipped
    target = tmp_path / "schema.json"
    code, out, _ = _invoke("schema", "--no-plugins", "--output", str(target))
    assert (code, out) == (0, "")
    assert target.read_text(encoding="utf-8") == shipped


# -- test --------------------------------------------------------------------


def test_test_exits_0_when_every_example_holds() -> None:
    code, out, _ = _invoke("test", *PACKS)
    assert code == 0, out
    assert "placeholders.yaml: " in out
    assert " 0 mismatches" in out


def test_test_reports_each_mismatch_and_exits_1(contracts: Path) -> None:
    path = contracts / "mismatching.yaml"
    code, out, _ = _invoke("test", str(path))
    assert code == 1
    assert f"{path}:8:38: mismatch no-refund example violated[1]" in out
    assert "expected violated, observed satisfied" in out
    assert "1 mismatch" in out

    code, out, _ = _invoke("test", str(path), "--format", "json")
    assert code == 1
    document = json.loads(out)
    assert (document["test_version"], document["examples"], document["mismatches"]) == (1, 3, 1)
    (mismatch,) = document["contracts"][0]["mismatches"]
    assert mismatch["rule"] == "no-refund"
    assert (mismatch["expected"], mismatch["observed"], mismatch["text"]) == (
        "violated",
        "satisfied",
        "Thanks",
    )


def test_test_exits_2_on_a_contract_error_before_running_anything(contracts: Path) -> None:
    code, out, err = _invoke(
        "test", str(contracts / "mismatching.yaml"), str(contracts / "broken.yaml")
    )
    assert code == 2
    assert out == ""
    assert "broken.yaml:4:" in err
    assert "did you mean 'TokenRange'" in err


# -- lint --------------------------------------------------------------------


def test_lint_warns_and_exits_1_only_with_strict(contracts: Path) -> None:
    path = str(contracts / "warning.yaml")
    code, out, _ = _invoke("lint", path)
    assert code == 0
    assert f"{path}:4:5: DEAD_PATTERN accents (patterns[0]): dead pattern" in out
    assert f"{path}:5:5: NEVER_HOLDS range (min):" in out
    assert "2 warnings" in out

    code, _, _ = _invoke("lint", path, "--strict")
    assert code == 1

    code, out, _ = _invoke("lint", path, "--format", "json")
    document = json.loads(out)
    assert document["counts"] == {"DEAD_PATTERN": 1, "NEVER_HOLDS": 1, "NEVER_VIOLATED": 0}
    assert [(w["code"], w["rule"], w["line"], w["column"]) for w in document["warnings"]] == [
        ("DEAD_PATTERN", "accents", 4, 5),
        ("NEVER_HOLDS", "range", 5, 5),
    ]


def test_lint_strict_is_clean_on_the_packs_and_the_fixtures() -> None:
    fixtures = sorted(str(p) for p in ROOT.glob("fixtures/**/textcontract.yaml"))
    code, out, _ = _invoke("lint", "--strict", *PACKS, *fixtures)
    assert code == 0, out
    assert "no warnings" in out


def test_lint_exits_2_on_a_contract_error(contracts: Path) -> None:
    code, _, err = _invoke("lint", str(contracts / "broken.yaml"))
    assert code == 2
    assert "unknown rule type 'TokenRang'" in err


# -- the real console script ---------------------------------------------------


def test_installed_console_script_runs_the_authoring_commands() -> None:
    executable = shutil.which("textcontract") or str(Path(sys.executable).parent / "textcontract")
    done = subprocess.run(
        [executable, "rules", "--format", "json"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["rule_types"][0]["name"] == "RequiredFact"
    done = subprocess.run(
        [executable, "test", *PACKS], capture_output=True, text=True, check=False, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr
