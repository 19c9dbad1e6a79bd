"""The top of a contract file: format version, id, version, description, policy, defaults."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from textcontract.fields import MISSING, FieldReader, KeyPath, type_name
from textcontract.model import NAME_PATTERN, CheckPolicy, Enforcement, RuleVersion, Severity
from textcontract.rules import ACCENT_FOLDING, SURFACES, TIMEOUT_MS, Param, ParamProblem

__all__ = [
    "CONTRACT_FIELDS",
    "DEFAULTS_FIELDS",
    "DEFAULT_PARAMS",
    "FORMAT_VERSION",
    "POLICY_FIELDS",
    "FileDefaults",
    "Header",
    "read_defaults",
    "read_header",
    "read_version",
    "valid_param",
]

FORMAT_VERSION = 1
CONTRACT_FIELDS = (
    "textcontract",
    "id",
    "version",
    "description",
    "include",
    "defaults",
    "policy",
    "rules",
    "lineage",
    "tokens",
)
POLICY_FIELDS = ("block_heuristics", "block_undetermined")
DEFAULT_PARAMS: Mapping[str, Param] = {  # the parameters ``defaults:`` may set
    param.name: param for param in (SURFACES, ACCENT_FOLDING, TIMEOUT_MS)
}
DEFAULTS_FIELDS = ("severity", "enforcement", *DEFAULT_PARAMS)


@dataclass(frozen=True)
class Header:
    """The top-level fields of one file, validated (stand-ins where they were not)."""

    id: str
    version: RuleVersion
    description: str | None
    policy: CheckPolicy


@dataclass(frozen=True)
class FileDefaults:
    """What ``defaults:`` sets for the rules of its own file; only valid values are kept."""

    severity: Severity = Severity.MEDIUM
    enforcement: Enforcement = Enforcement.BLOCKING
    params: Mapping[str, Any] = field(default_factory=dict)


def read_version(reader: FieldReader, value: Any, path: KeyPath) -> RuleVersion:
    """A version: a non-empty string or an integer (reported as given), 1 when absent."""
    if value is MISSING:
        return 1
    if isinstance(value, bool) or not isinstance(value, str | int) or value == "":
        reader.problem(path, f"expected a non-empty string or an integer, got {type_name(value)}")
        return 1
    return value


def read_header(reader: FieldReader, data: Mapping[str, Any]) -> Header:
    """Check the file's top-level keys and read the header fields and the policy."""
    fields = reader.mapping(data, required=("textcontract", "id"), optional=CONTRACT_FIELDS)
    reader.expect_equal(
        fields["textcontract"],
        ("textcontract",),
        FORMAT_VERSION,
        hint=f"this textcontract reads contract format {FORMAT_VERSION}",
    )
    contract_id = reader.identifier(fields["id"], ("id",), "contract", NAME_PATTERN)
    description = reader.string(
        fields.get("description", MISSING), ("description",), None, empty=True
    )
    return Header(
        id=contract_id or "",
        version=read_version(reader, fields.get("version", MISSING), ("version",)),
        description=description,
        policy=_read_policy(reader, fields.get("policy", MISSING)),
    )


def _read_policy(reader: FieldReader, value: Any) -> CheckPolicy:
    if value is MISSING or value is None:
        return CheckPolicy()
    fields = reader.mapping(value, ("policy",), optional=POLICY_FIELDS)
    given = {
        name: reader.boolean(fields[name], ("policy", name), True)
        for name in POLICY_FIELDS
        if name in fields
    }
    return CheckPolicy(**given)


def read_defaults(reader: FieldReader, value: Any) -> FileDefaults:
    """``defaults:``, each value checked even when no rule of the file uses it."""
    if value is MISSING or value is None:
        return FileDefaults()
    fields = reader.mapping(value, ("defaults",), optional=DEFAULTS_FIELDS)
    severity = reader.choice(
        fields.get("severity", MISSING), ("defaults", "severity"), Severity, Severity.MEDIUM
    )
    enforcement = reader.choice(
        fields.get("enforcement", MISSING),
        ("defaults", "enforcement"),
        Enforcement,
        Enforcement.BLOCKING,
    )
    params = {}
    for name, param in DEFAULT_PARAMS.items():
        if name in fields and valid_param(reader, param, fields[name], ("defaults", name)):
            params[name] = fields[name]
    return FileDefaults(severity, enforcement, params)


def valid_param(reader: FieldReader, param: Param, value: Any, path: KeyPath) -> bool:
    """Whether ``value`` converts under ``param``; each problem is reported where it is."""
    try:
        param.convert(value)
    except ParamProblem as problem:
        for each in problem.each():
            reader.problem((*path, *each.path), each.message, each.hint)
        return False
    return True
