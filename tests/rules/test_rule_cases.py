"""Every rule type's YAML fixture (tests/rules/cases/<Type>.yaml), one test per case."""

from __future__ import annotations

from pathlib import Path

import pytest

from textcontract.model import Status
from textcontract.rules import BUILTIN_TYPES
from textcontract.testing import RuleCase, evaluate_case, load_rule_cases, mismatches

CASES_DIR = Path(__file__).parent / "cases"
TYPES = {rule_type.name: rule_type for rule_type in BUILTIN_TYPES}
CASES = [case for path in sorted(CASES_DIR.glob("*.yaml")) for case in load_rule_cases(path)]


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_rule_case(case: RuleCase) -> None:
    result = evaluate_case(case, TYPES[case.rule])
    assert mismatches(case, result) == []


@pytest.mark.parametrize("name", sorted(TYPES))
def test_every_rule_type_has_a_fixture_covering_each_status_it_can_emit(name: str) -> None:
    rule_type = TYPES[name]
    cases = [case for case in CASES if case.rule == name]
    assert cases, f"tests/rules/cases/{name}.yaml is missing"
    covered = {Status(check["status"]) for case in cases for check in case.expect}
    emitted = {status for code in rule_type.codes for status in code.statuses}
    assert emitted <= covered, (
        f"{name}: no case produces {sorted(s.value for s in emitted - covered)}"
    )
    assert any(case.contract_error for case in cases), f"{name}: no case with a bad parameter"


@pytest.mark.parametrize("name", sorted(TYPES))
def test_every_rule_type_documents_examples(name: str) -> None:
    doc = TYPES[name].__module__
    module_doc = __import__(doc, fromlist=["_"]).__doc__ or ""
    assert "Violated" in module_doc
    assert "Satisfied" in module_doc
