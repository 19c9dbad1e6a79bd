"""The authoring package's public surface and the declarations ``rules`` reads."""

from __future__ import annotations

import inspect

import textcontract.authoring as authoring
from textcontract.authoring import describe_param, describe_rule_types
from textcontract.rules import BUILTIN_TYPES, default_registry
from textcontract.rules.required_fact import RequiredFact


def test_all_names_exactly_the_public_api() -> None:
    public = {
        name
        for name, value in vars(authoring).items()
        if not name.startswith("_") and not inspect.ismodule(value) and name != "annotations"
    }
    assert set(authoring.__all__) == public
    assert len(authoring.__all__) == len(set(authoring.__all__))


def test_required_absent_and_concrete_defaults_are_told_apart() -> None:
    by_name = {param.name: describe_param(param) for param in RequiredFact.params}
    assert (by_name["key"]["required"], by_name["key"]["default"]) == (True, None)
    assert (by_name["equals"]["required"], by_name["equals"]["default"]) == (False, None)
    assert (by_name["state"]["required"], by_name["state"]["default"]) == (False, "current")


def test_every_builtin_type_is_described_from_its_declaration() -> None:
    described = describe_rule_types(default_registry(plugins=[]))
    assert [entry["name"] for entry in described] == [t.name for t in BUILTIN_TYPES]
    for entry, rule_type in zip(described, BUILTIN_TYPES, strict=True):
        assert entry["summary"] == rule_type.summary
        statuses = [sorted(s.value for s in code.statuses) for code in rule_type.codes]
        assert [code["statuses"] for code in entry["codes"]] == statuses
