"""Plugins through the ``textcontract.rules`` entry-point group, with a package in the suite.

``plugin_pkg/`` is a complete plugin distribution (the one docs/plugins.md shows). Most
tests hand its entry point to ``default_registry(plugins=[...])``; one runs a subprocess
with a ``*.dist-info`` on ``PYTHONPATH`` so that real entry-point discovery finds it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

import textcontract
from textcontract import ContractError, Status
from textcontract._yaml import load_yaml
from textcontract.authoring import describe_rule_types, run_examples
from textcontract.contract import contract_schema, parse_contract_text
from textcontract.rules import ENTRY_POINT_GROUP, RegistryError, default_registry
from textcontract.testing import RuleCase, evaluate_case, load_rule_cases, mismatches

PLUGIN = Path(__file__).parent / "plugin_pkg"
SRC = PLUGIN / "src"
if str(SRC) not in sys.path:
    sys.path.insert(0, str(SRC))

from textcontract_exclaim import MaxExclamations  # noqa: E402  (needs SRC on sys.path)

ROOT = Path(__file__).resolve().parents[2]


def _entry_point(name: str, value: str) -> EntryPoint:
    return EntryPoint(name=name, value=value, group=ENTRY_POINT_GROUP)


EXCLAIM = _entry_point("MaxExclamations", "textcontract_exclaim:MaxExclamations")
RAISING = _entry_point("Raising", "textcontract_faulty:Raising")
MISATTRIBUTING = _entry_point("Misattributing", "textcontract_faulty:Misattributing")
REGISTRY = default_registry(plugins=[EXCLAIM, RAISING, MISATTRIBUTING])

CASES = list(load_rule_cases(PLUGIN / "tests" / "MaxExclamations.yaml"))


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_plugin_fixture_runs_with_the_shipped_harness(case: RuleCase) -> None:
    assert mismatches(case, evaluate_case(case, MaxExclamations)) == []


def test_plugin_is_registered_after_the_builtins_with_its_origin() -> None:
    names = list(REGISTRY)
    assert names[-3:] == ["MaxExclamations", "Misattributing", "Raising"]
    assert REGISTRY["MaxExclamations"] is MaxExclamations
    assert REGISTRY.origin("MaxExclamations") == (
        "plugin MaxExclamations (textcontract_exclaim:MaxExclamations)"
    )
    assert REGISTRY.origin("RequiredFact") == "builtin"


def test_plugin_rule_is_unknown_without_its_entry_point() -> None:
    with pytest.raises(ContractError) as caught:
        parse_contract_text(
            "textcontract: 1\nid: c\nrules:\n  - {id: calm, type: MaxExclamations}\n",
            registry=default_registry(plugins=[]),
        )
    assert "unknown rule type 'MaxExclamations'" in str(caught.value)


def test_a_plugin_that_cannot_load_is_a_registry_error() -> None:
    with pytest.raises(RegistryError) as caught:
        default_registry(plugins=[_entry_point("Gone", "textcontract_missing_module:Gone")])
    assert "cannot load rule plugin" in str(caught.value)
    assert "plugin Gone" in str(caught.value)


def test_a_plugin_may_not_shadow_a_builtin() -> None:
    shadow = _entry_point("Again", "textcontract.rules.forbidden_pattern:ForbiddenPattern")
    with pytest.raises(RegistryError) as caught:
        default_registry(plugins=[shadow])
    assert "registered twice" in str(caught.value)


CONTRACT = """\
textcontract: 1
id: with-plugins
rules:
  - {id: before, type: ForbiddenPattern, patterns: [refund]}
  - {id: raises, type: Raising}
  - {id: lies, type: Misattributing}
  - id: calm
    type: MaxExclamations
    maximum: 1
    examples: {violated: ["Wow!! Great!"], satisfied: ["Great!"]}
  - {id: after, type: NoRepeatedText}
"""


def test_raising_or_misattributing_plugin_rules_give_rule_error_and_others_run() -> None:
    contract = textcontract.load_contract_text(CONTRACT, registry=REGISTRY)
    report = contract.check("Shipped!! Enjoy.")
    assert [(c.rule_id, c.status, c.code, c.scope) for c in report.checks] == [
        ("before", Status.SATISFIED, "FORBIDDEN_PATTERN", "surface:body"),
        ("raises", Status.ERROR, "RULE_ERROR", "$"),
        ("lies", Status.ERROR, "RULE_ERROR", "$"),
        ("calm", Status.VIOLATED, "TOO_MANY_EXCLAMATIONS", "surface:body"),
        ("after", Status.SATISFIED, "REUSED_TEXT", "surface:body"),
    ]
    raised, lied = report.checks[1], report.checks[2]
    assert "RuntimeError: plugin bug" in raised.message
    assert "someone-else" in lied.message
    assert not report.accepted


def test_a_plugin_constructor_that_raises_is_a_located_contract_error() -> None:
    registry = default_registry(
        plugins=[_entry_point("RaisingConstructor", "textcontract_faulty:RaisingConstructor")]
    )
    text = "textcontract: 1\nid: c\nrules:\n  - {id: broken, type: RaisingConstructor}\n"
    with pytest.raises(ContractError) as caught:
        textcontract.load_contract_text(text, name="c.yaml", registry=registry)
    [problem] = caught.value.problems
    assert (problem.location.file, problem.location.line, problem.location.column) == (
        "c.yaml",
        4,
        5,
    )
    assert problem.message == (
        "rule type RaisingConstructor could not be configured: ValueError: cannot configure"
    )


def test_plugin_examples_run_under_test_and_a_raising_rule_is_observed_as_error() -> None:
    definition = parse_contract_text(
        CONTRACT.replace(
            "{id: raises, type: Raising}",
            "{id: raises, type: Raising, examples: {satisfied: [anything]}}",
        ),
        registry=REGISTRY,
    )
    result = run_examples(definition)
    assert [(m.rule_id, m.expected.value, m.observed.value) for m in result.mismatches] == [
        ("raises", "satisfied", "error")
    ]
    assert {r.rule_id for r in result.results if r.holds} == {"calm"}


def test_plugin_appears_in_rules_with_its_declarations() -> None:
    described = {entry["name"]: entry for entry in describe_rule_types(REGISTRY)}
    exclaim = described["MaxExclamations"]
    assert exclaim["origin"].startswith("plugin MaxExclamations")
    assert exclaim["kind"] == "heuristic"
    assert [p["name"] for p in exclaim["params"]] == ["surfaces", "maximum"]
    assert exclaim["params"][1] == {
        "name": "maximum",
        "type": "integer",
        "required": False,
        "default": 1,
        "description": "most exclamation marks allowed",
        "minimum": 0,
    }
    assert [c["code"] for c in exclaim["codes"]] == ["TOO_MANY_EXCLAMATIONS", "SURFACE_MISSING"]


def test_plugin_appears_in_the_schema_and_its_parameters_are_validated() -> None:
    schema = contract_schema(REGISTRY)
    assert "MaxExclamations" in schema["$defs"]["rule"]["properties"]["type"]["enum"]
    validator = Draft202012Validator(schema)

    def errors(text: str) -> list[str]:
        data, _ = load_yaml(text, "<t>")
        return [error.message for error in validator.iter_errors(data)]

    head = "textcontract: 1\nid: c\nrules:\n"
    assert errors(head + "  - {id: calm, type: MaxExclamations, maximum: 2}\n") == []
    assert errors(head + "  - {id: calm, type: MaxExclamations, maximum: -1}\n")
    assert errors(head + "  - {id: calm, type: MaxExclamations, maxmum: 2}\n")


def test_docs_show_the_plugin_exactly_as_tested() -> None:
    docs = (ROOT / "docs" / "plugins.md").read_text(encoding="utf-8")
    for path in (
        PLUGIN / "pyproject.toml",
        SRC / "textcontract_exclaim" / "__init__.py",
        PLUGIN / "tests" / "MaxExclamations.yaml",
    ):
        assert path.read_text(encoding="utf-8").strip() in docs, f"{path.name} differs in docs"


_DISCOVERY_SCRIPT = """
import json
from textcontract.rules import default_registry
from textcontract.engine import load_contract_text
registry = default_registry()
contract = load_contract_text(
    "textcontract: 1\\nid: c\\nrules:\\n  - {id: calm, type: MaxExclamations}\\n"
)
report = contract.check("Hey!!!")
print(json.dumps({"origin": registry.origin("MaxExclamations"),
                  "statuses": [c.status.value for c in report.checks]}))
"""


def test_real_entry_point_discovery_in_a_subprocess(tmp_path: Path) -> None:
    info = tmp_path / "textcontract_exclaim-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: textcontract-exclaim\nVersion: 0.1.0\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(
        "[textcontract.rules]\nMaxExclamations = textcontract_exclaim:MaxExclamations\n",
        encoding="utf-8",
    )
    environment = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(tmp_path), str(SRC)]),
    }
    done = subprocess.run(
        [sys.executable, "-c", _DISCOVERY_SCRIPT],
        capture_output=True,
        text=True,
        env=environment,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "origin": "plugin MaxExclamations (textcontract_exclaim:MaxExclamations)",
        "statuses": ["violated"],
    }

    listing = subprocess.run(
        [sys.executable, "-c", _CLI_SCRIPT, "rules", "--format", "json"],
        capture_output=True,
        text=True,
        env=environment,
        check=False,
        timeout=120,
    )
    assert listing.returncode == 0, listing.stderr
    names = [entry["name"] for entry in json.loads(listing.stdout)["rule_types"]]
    assert names[-1] == "MaxExclamations"

    schema = subprocess.run(
        [sys.executable, "-c", _CLI_SCRIPT, "schema"],
        capture_output=True,
        text=True,
        env=environment,
        check=False,
        timeout=120,
    )
    assert schema.returncode == 0, schema.stderr
    assert "rule.MaxExclamations" in json.loads(schema.stdout)["$defs"]


_CLI_SCRIPT = """
import typer
from textcontract.cli._rules import register as register_rules
from textcontract.cli._schema import register as register_schema
app = typer.Typer(add_completion=False)
@app.callback()
def root() -> None:
    pass
register_rules(app)
register_schema(app)
app()
"""
