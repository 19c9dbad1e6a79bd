"""The JSON Schema: generated from the declarations, shipped without drift, and accurate."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from textcontract import ContractError
from textcontract._yaml import load_yaml
from textcontract.cli._schema import render_schema
from textcontract.contract import (
    COMMON_RULE_FIELDS,
    CONTRACT_FIELDS,
    DEFAULTS_FIELDS,
    POLICY_FIELDS,
    contract_schema,
    parse_contract_text,
)
from textcontract.rules import default_registry

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "textcontract" / "schema" / "contract.schema.json"
REGISTRY = default_registry(plugins=[])
SCHEMA = contract_schema(REGISTRY)
VALIDATOR = Draft202012Validator(SCHEMA)
CONTRACTS = sorted([*ROOT.glob("fixtures/**/textcontract.yaml"), *ROOT.glob("rules/*.yaml")])


def _yaml(text: str) -> Any:
    data, _ = load_yaml(text, "<test>")
    return data


def _errors(data: Any) -> list[str]:
    return sorted(error.message for error in VALIDATOR.iter_errors(data))


def test_shipped_schema_is_the_generated_one() -> None:
    expected = render_schema(REGISTRY)
    assert SHIPPED.read_text(encoding="utf-8") == expected, (
        "textcontract/schema/contract.schema.json is stale; regenerate it with "
        "'textcontract schema --no-plugins --output textcontract/schema/contract.schema.json'"
    )


def test_shipped_schema_is_package_data() -> None:
    from importlib import resources

    shipped = resources.files("textcontract").joinpath("schema/contract.schema.json")
    assert json.loads(shipped.read_text(encoding="utf-8")) == SCHEMA


def test_schema_is_valid_draft_2020_12() -> None:
    Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_schema_covers_exactly_the_loader_fields() -> None:
    assert list(SCHEMA["properties"]) == list(CONTRACT_FIELDS)
    assert list(SCHEMA["properties"]["defaults"]["properties"]) == list(DEFAULTS_FIELDS)
    assert list(SCHEMA["properties"]["policy"]["properties"]) == list(POLICY_FIELDS)
    for name, rule_type in REGISTRY.items():
        definition = SCHEMA["$defs"][f"rule.{name}"]
        params = [param.name for param in rule_type.params]
        assert list(definition["properties"]) == [*COMMON_RULE_FIELDS, *params]
        assert definition["properties"]["type"] == {"const": name}
        assert definition["additionalProperties"] is False
        required = [p.name for p in rule_type.params if p.required]
        assert definition["required"] == ["id", "type", *required]
        for param in rule_type.params:
            assert definition["properties"][param.name] == param.json_schema()


def test_one_if_then_per_rule_type() -> None:
    branches = SCHEMA["$defs"]["rule"]["allOf"]
    assert [branch["if"]["properties"]["type"]["const"] for branch in branches] == list(REGISTRY)
    assert SCHEMA["$defs"]["rule"]["properties"]["type"]["enum"] == list(REGISTRY)


@pytest.mark.parametrize("path", CONTRACTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_shipped_contract_and_pack_validates(path: Path) -> None:
    assert _errors(_yaml(path.read_text(encoding="utf-8"))) == []


VALID = """\
textcontract: 1
id: complete
version: 2
description: every field once
include: [builtin:placeholders, local/pack.yaml]
defaults:
  {severity: high, enforcement: advisory, surfaces: [body], accent_folding: false, timeout_ms: 100}
policy: {block_heuristics: false, block_undetermined: true}
rules:
  - id: status
    type: RequiredFact
    version: "3"
    code: ORDER_STATUS
    severity: critical
    enforcement: blocking
    description: shipped
    key: order.status
    equals: null
    examples:
      violated: ["text", {text: "t", context: {order.status: pending}}]
      satisfied: []
  - {id: range, type: TokenRange, min: 1}
  - {id: rel, type: CompareFields, left: {key: a}, right: {state: after, key: a}, op: le}
  - {id: trans, type: AllowedTransition, before: {key: s}, after: {state: after, key: s},
     allowed: [[pending, shipped], [1, 2.5]]}
"""


def test_a_contract_using_every_field_validates() -> None:
    assert _errors(_yaml(VALID)) == []


BROKEN = {
    "unknown-contract-field": ("textcontract: 1\nid: c\nrulez: []\n", "rulez"),
    "unknown-rule-field": (
        "textcontract: 1\nid: c\nrules:\n  - {id: r, type: ForbiddenPattern, patterns: [x], "
        "pattern: y}\n",
        "pattern",
    ),
    "wrong-type": (
        "textcontract: 1\nid: c\nrules:\n  - {id: r, type: MinimumTokens, minimum: '5'}\n",
        "'5'",
    ),
    "bad-enum": (
        "textcontract: 1\nid: c\nrules:\n  - {id: r, type: RequiredFact, key: k, "
        "severity: urgent}\n",
        "urgent",
    ),
    "bad-choice": (
        "textcontract: 1\nid: c\nrules:\n  - {id: r, type: RequiredPattern, patterns: [x], "
        "match: most}\n",
        "most",
    ),
    "unknown-rule-type": (
        "textcontract: 1\nid: c\nrules:\n  - {id: r, type: ForbidenPattern, patterns: [x]}\n",
        "ForbidenPattern",
    ),
    "missing-required-param": (
        "textcontract: 1\nid: c\nrules:\n  - {id: r, type: ForbiddenPattern}\n",
        "patterns",
    ),
    "out-of-range": (
        "textcontract: 1\nid: c\nrules:\n  - {id: r, type: ForbiddenPattern, patterns: [x], "
        "timeout_ms: 0}\n",
        "0",
    ),
    "bad-id": ("textcontract: 1\nid: Order\nrules:\n  - {id: r, type: NoRepeatedText}\n", "Order"),
    "bad-code": (
        "textcontract: 1\nid: c\nrules:\n  - {id: r, type: NoRepeatedText, code: lower}\n",
        "lower",
    ),
    "bad-format-version": (
        "textcontract: 2\nid: c\nrules:\n  - {id: r, type: NoRepeatedText}\n",
        "1 was expected",
    ),
    "bad-example": (
        "textcontract: 1\nid: c\nrules:\n  - {id: r, type: NoRepeatedText, "
        "examples: {violated: [{txt: a}]}}\n",
        "",
    ),
    "bad-policy": ("textcontract: 1\nid: c\npolicy: {block_heuristics: 'no'}\n", "'no'"),
    "bad-defaults-field": ("textcontract: 1\nid: c\ndefaults: {patterns: [x]}\n", "patterns"),
    "bad-include": ("textcontract: 1\nid: c\ninclude: ['builtin:Bad_Name']\n", "builtin"),
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_contracts_fail_the_schema_and_the_loader(name: str) -> None:
    text, mentioned = BROKEN[name]
    errors = _errors(_yaml(text))
    assert errors, f"the schema accepted {name}"
    assert any(mentioned in error for error in errors) or not mentioned, errors
    with pytest.raises(ContractError):
        parse_contract_text(text)


def test_documentation_shows_the_editor_modeline() -> None:
    text = (ROOT / "docs" / "authoring.md").read_text(encoding="utf-8")
    assert "# yaml-language-server: $schema=" in text
