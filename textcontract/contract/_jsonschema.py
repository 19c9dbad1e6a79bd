"""The JSON Schema (draft 2020-12) of the contract format, built from the loader's declarations.

Nothing here is a second copy of the format: the field lists come from the
loader (``CONTRACT_FIELDS``, ``COMMON_RULE_FIELDS``, ``DEFAULTS_FIELDS``,
``POLICY_FIELDS``), every rule type and its parameters from the registry
(``Param.json_schema()``), and a field the loader learns without a schema here
makes generation fail loudly. Each rule type gets one ``if``/``then`` keyed on
``type``, so an editor validates the parameters of the type actually written.

What the schema cannot say, the loader still checks: constraints between
parameters (TokenRange needs ``min`` or ``max``; ``equals`` excludes
``one_of``), pattern syntax, rule id uniqueness, includes, and that
``textcontract`` is the integer 1 rather than 1.0.
"""

from __future__ import annotations

from typing import Any

from textcontract.contract._header import (
    CONTRACT_FIELDS,
    DEFAULT_PARAMS,
    DEFAULTS_FIELDS,
    FORMAT_VERSION,
    POLICY_FIELDS,
)
from textcontract.contract._lineage import LINEAGE_FIELDS
from textcontract.contract._packs import PACK_NAME, builtin_pack_names
from textcontract.contract._rule_entries import COMMON_RULE_FIELDS
from textcontract.contract._tokens import TOKENS_FIELDS
from textcontract.model import Enforcement, Severity
from textcontract.rules import SEGMENTING_PARAMS as SEGMENTER_PARAMS
from textcontract.rules import Registry, RuleType

__all__ = ["JSON_SCHEMA_DIALECT", "SCHEMA_FILE", "contract_schema"]

JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
SCHEMA_FILE = "schema/contract.schema.json"
"""Where the schema of the built-in rule types ships, relative to the package."""

_NAME = "^[a-z0-9][a-z0-9_.-]*$"
_CODE = "^[A-Z][A-Z0-9_]*$"
_DEFS = "#/$defs/"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": _DEFS + name}


def _described(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {**schema, "description": description}


def _shared_defs() -> dict[str, dict[str, Any]]:
    example = {
        "anyOf": [
            {"type": "string"},
            {
                "type": "object",
                "properties": {
                    "text": {
                        "type": "string",
                        "description": "put on every surface the rule reads",
                    },
                    "context": {
                        "type": "object",
                        "description": "the context of this example (either context form)",
                    },
                },
                "required": ["text"],
                "additionalProperties": False,
            },
        ],
        "description": "a text, or {text, context}",
    }
    examples = {"type": "array", "items": _ref("example")}
    return {
        "name": {"type": "string", "pattern": _NAME},
        "version": {"type": ["string", "integer"], "minLength": 1},
        "severity": {"enum": [severity.value for severity in Severity]},
        "enforcement": {"enum": [enforcement.value for enforcement in Enforcement]},
        "example": example,
        "examples": {
            "type": "object",
            "properties": {
                "violated": _described(examples, "texts the rule must violate"),
                "satisfied": _described(examples, "texts the rule must satisfy"),
            },
            "additionalProperties": False,
        },
    }


def _common_rule_fields() -> dict[str, dict[str, Any]]:
    known = {
        "id": _described(_ref("name"), "unique across the contract and its includes"),
        "type": {"type": "string", "description": "the rule type ('textcontract rules')"},
        "version": _described(_ref("version"), "reported as written (default 1)"),
        "code": {
            "type": "string",
            "pattern": _CODE,
            "description": "renames the type's main finding code, e.g. NO_REFUND_PROMISE",
        },
        "severity": _described(_ref("severity"), "default medium (or the file's defaults)"),
        "enforcement": _described(
            _ref("enforcement"), "advisory rules never reject through violated or undetermined"
        ),
        "description": {"type": "string"},
        "examples": _described(_ref("examples"), "run by 'textcontract test'"),
    }
    return {name: known[name] for name in COMMON_RULE_FIELDS}


def _defaults_schema() -> dict[str, Any]:
    properties: dict[str, Any] = {}
    for name in DEFAULTS_FIELDS:
        if name in ("severity", "enforcement"):
            properties[name] = _ref(name)
            continue
        schema = DEFAULT_PARAMS[name].json_schema()
        properties[name] = _described(
            {key: value for key, value in schema.items() if key != "description"},
            f"default {name} for this file's rules that have the parameter",
        )
    return {
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
        "description": "defaults for this file's own rules",
    }


def _policy_schema() -> dict[str, Any]:
    meanings = {
        "block_heuristics": "false: violated heuristic checks are advisory",
        "block_undetermined": "false: undetermined checks do not reject",
    }
    return {
        "type": "object",
        "properties": {
            name: {"type": "boolean", "default": True, "description": meanings[name]}
            for name in POLICY_FIELDS
        },
        "additionalProperties": False,
        "description": "the check policy (ignored in included files)",
    }


def _include_schema() -> dict[str, Any]:
    pack_name = PACK_NAME.pattern.removesuffix("\\Z")
    builtin = f"^builtin:{pack_name}$"
    return {
        "type": "array",
        "items": {
            "type": "string",
            "minLength": 1,
            "anyOf": [{"pattern": builtin}, {"not": {"pattern": "^builtin:"}}],
            "examples": [f"builtin:{name}" for name in builtin_pack_names()],
        },
        "description": "rule packs: builtin:NAME (shipped) or a path relative to this file",
    }


def _lineage_schema() -> dict[str, Any]:
    digest = {"type": "string", "pattern": "^sha256:[0-9a-f]{64}$"}
    return {
        "type": "object",
        "properties": {
            "parent_digest": _described(
                {"anyOf": [digest, {"type": "null"}]},
                "the digest of the revision this one revises (null for the first)",
            ),
            "revision_count": {
                "type": "integer",
                "minimum": 0,
                "description": "0 for the first revision, the parent's + 1 after",
            },
        },
        "required": list(LINEAGE_FIELDS),
        "additionalProperties": False,
        "description": "where this revision comes from; out of the digest (ignored in includes)",
    }


def _tokens_schema() -> dict[str, Any]:
    params = {param.name: param for param in SEGMENTER_PARAMS}
    meanings = {
        "segmenter": "how the token rules cut tokens: words (the default) or icu (ICU word"
        " segments holding a letter, every script; needs the icu extra)",
        "locale": "the icu segmenter's locale (default root)",
    }
    properties = {}
    for name in TOKENS_FIELDS:
        schema = params[name].json_schema()
        schema.pop("description", None)
        properties[name] = _described(schema, meanings[name])
    return {
        "type": "object",
        "properties": properties,
        "required": ["segmenter"],
        "additionalProperties": False,
        "description": "how the token rules of this file, and of the files it includes, cut"
        " tokens (a rule's own segmenter overrides it)",
    }


def _contract_field(name: str) -> dict[str, Any]:
    if name == "textcontract":
        return {"const": FORMAT_VERSION, "description": "the contract format version"}
    if name == "id":
        return _described(_ref("name"), "the contract id")
    if name == "version":
        return _described(_ref("version"), "reported as written (default 1)")
    if name == "description":
        return {"type": "string"}
    if name == "include":
        return _include_schema()
    if name == "defaults":
        return _defaults_schema()
    if name == "policy":
        return _policy_schema()
    if name == "rules":
        return {"type": "array", "items": _ref("rule")}
    if name == "lineage":
        return _lineage_schema()
    if name == "tokens":
        return _tokens_schema()
    raise KeyError(f"the JSON schema does not describe contract field {name!r}")


def _rule_type_schema(rule_type: type[RuleType], common: dict[str, Any]) -> dict[str, Any]:
    properties = {**common, "type": {"const": rule_type.name}}
    for param in rule_type.params:
        properties[param.name] = param.json_schema()
    required = [
        "id",
        "type",
        *(p.name for p in rule_type.params if p.required and p.name not in DEFAULT_PARAMS),
    ]
    return {
        "type": "object",
        "description": f"{rule_type.name} ({rule_type.kind.value}): {rule_type.summary}",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }


def contract_schema(registry: Registry) -> dict[str, Any]:
    """The schema of contracts whose rules use ``registry``'s types (plugins included)."""
    common = _common_rule_fields()
    names = list(registry)
    rule = {
        "type": "object",
        "properties": {
            "id": common["id"],
            "type": {"enum": names, "description": "the rule type ('textcontract rules')"},
        },
        "required": ["id", "type"],
        "allOf": [
            {
                "if": {"properties": {"type": {"const": name}}, "required": ["type"]},
                "then": _ref(f"rule.{name}"),
            }
            for name in names
        ],
    }
    defs: dict[str, Any] = {**_shared_defs(), "rule": rule}
    for name in names:
        defs[f"rule.{name}"] = _rule_type_schema(registry[name], common)
    return {
        "$schema": JSON_SCHEMA_DIALECT,
        "title": f"textcontract contract (format {FORMAT_VERSION})",
        "description": "A YAML contract of rules checked against generated text.",
        "type": "object",
        "properties": {name: _contract_field(name) for name in CONTRACT_FIELDS},
        "required": ["textcontract", "id"],
        "additionalProperties": False,
        "$defs": defs,
    }
