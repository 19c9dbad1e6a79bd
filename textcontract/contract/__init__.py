"""Contracts: YAML loading with positions, schema checks, includes and rule packs."""

import typing as _typing

from textcontract._lazy import lazy_exports as _lazy_exports
from textcontract.contract._discover import CONTRACT_FILENAME, locate_contract
from textcontract.contract._header import CONTRACT_FIELDS, DEFAULTS_FIELDS, POLICY_FIELDS
from textcontract.contract._includes import ContractSource
from textcontract.contract._loader import (
    parse_contract_file,
    parse_contract_source,
    parse_contract_text,
)
from textcontract.contract._packs import builtin_pack, builtin_pack_names
from textcontract.contract._parsed import (
    ParsedContract,
    RuleEntry,
    RuleExample,
    contract_digest,
)
from textcontract.contract._rule_entries import COMMON_RULE_FIELDS

if _typing.TYPE_CHECKING:
    from textcontract.contract._jsonschema import SCHEMA_FILE, contract_schema
    from textcontract.contract._lineage import LINEAGE_FIELDS, Lineage

# The JSON Schema is built for `textcontract schema` only, the lineage reader for a contract
# with lineage: loaded on first access.
__getattr__, __dir__ = _lazy_exports(
    __name__,
    {
        **dict.fromkeys(("SCHEMA_FILE", "contract_schema"), "textcontract.contract._jsonschema"),
        **dict.fromkeys(("LINEAGE_FIELDS", "Lineage"), "textcontract.contract._lineage"),
    },
)

__all__ = [
    "COMMON_RULE_FIELDS",
    "CONTRACT_FIELDS",
    "CONTRACT_FILENAME",
    "DEFAULTS_FIELDS",
    "LINEAGE_FIELDS",
    "POLICY_FIELDS",
    "SCHEMA_FILE",
    "ContractSource",
    "Lineage",
    "ParsedContract",
    "RuleEntry",
    "RuleExample",
    "builtin_pack",
    "builtin_pack_names",
    "contract_digest",
    "contract_schema",
    "locate_contract",
    "parse_contract_file",
    "parse_contract_source",
    "parse_contract_text",
]
