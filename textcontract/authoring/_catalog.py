"""``textcontract rules``: rule types and shipped packs, read from their declarations.

Nothing here restates a rule type: names, kinds, parameters, codes and
summaries come from the registry (the same declarations the loader validates
with), and pack contents from loading each shipped pack.
"""

from __future__ import annotations

from typing import Any

from textcontract.contract import (
    ParsedContract,
    builtin_pack,
    builtin_pack_names,
    parse_contract_text,
)
from textcontract.errors import InternalError
from textcontract.rules import ABSENT, REQUIRED, Param, Registry, RuleType

__all__ = [
    "catalog_json",
    "describe_packs",
    "describe_param",
    "describe_rule_type",
    "describe_rule_types",
]


def describe_param(param: Param) -> dict[str, Any]:
    """A parameter as ``rules`` shows it; ``default`` is null when there is none."""
    has_default = param.default is not REQUIRED and param.default is not ABSENT
    described: dict[str, Any] = {
        "name": param.name,
        "type": param.type.label,
        "required": param.required,
        "default": param.default if has_default else None,
        "description": param.description,
    }
    if param.minimum is not None:
        described["minimum"] = param.minimum
    if param.maximum is not None:
        described["maximum"] = param.maximum
    return described


def describe_rule_type(rule_type: type[RuleType], origin: str) -> dict[str, Any]:
    return {
        "name": rule_type.name,
        "kind": rule_type.kind.value,
        "origin": origin,
        "summary": rule_type.summary,
        "params": [describe_param(param) for param in rule_type.params],
        "main_code": rule_type.main_code,
        "codes": [
            {
                "code": code.name,
                "statuses": sorted(status.value for status in code.statuses),
                "description": code.description,
            }
            for code in rule_type.codes
        ],
    }


def describe_rule_types(registry: Registry) -> list[dict[str, Any]]:
    """Every registered type, built-ins first in declaration order, then plugins by name."""
    return [describe_rule_type(registry[name], registry.origin(name)) for name in registry]


def _load_pack(name: str, registry: Registry) -> ParsedContract:
    pack = builtin_pack(name)
    if pack is None:  # listed a moment ago; only a broken installation gets here
        raise InternalError(f"shipped rule pack {name!r} disappeared")
    include = f"builtin:{name}"
    return parse_contract_text(pack.read_text(encoding="utf-8-sig"), include, registry)


def describe_packs(registry: Registry) -> list[dict[str, Any]]:
    """Every shipped pack with its rules, by pack name."""
    described = []
    for name in builtin_pack_names():
        parsed = _load_pack(name, registry)
        described.append(
            {
                "name": name,
                "include": f"builtin:{name}",
                "description": parsed.description,
                "rules": [
                    {
                        "id": entry.rule.header.id,
                        "type": entry.rule.header.type,
                        "severity": entry.rule.header.severity.value,
                        "enforcement": entry.rule.header.enforcement.value,
                        "description": entry.rule.header.description,
                    }
                    for entry in parsed.entries
                ],
            }
        )
    return described


def catalog_json(
    rule_types: list[dict[str, Any]] | None = None, packs: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """The ``rules --format json`` document: rule types, or packs with ``--packs``."""
    document: dict[str, Any] = {"catalog_version": 1}
    if rule_types is not None:
        document["rule_types"] = rule_types
    if packs is not None:
        document["packs"] = packs
    return document
