"""Rule entries: the common fields, the type, the parameters (with the file's defaults), examples.

Each rule is read on its own; every problem it has is reported, and a rule with any
problem yields no entry (the load fails anyway, with all of them).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from textcontract.contract._header import FileDefaults, read_version
from textcontract.contract._parsed import RuleEntry, RuleExample
from textcontract.contract._tokens import Tokens, resolve_segmenting
from textcontract.errors import InputError, Location, Problem
from textcontract.fields import MISSING, FieldReader, KeyPath
from textcontract.model import NAME_PATTERN, Context, Enforcement, RuleVersion, Severity
from textcontract.rules import (
    SEGMENTER,
    Configured,
    Registry,
    RuleHeader,
    RuleType,
    configure_options,
)

__all__ = ["COMMON_RULE_FIELDS", "RuleScope", "read_rules"]

COMMON_RULE_FIELDS = (
    "id",
    "type",
    "version",
    "code",
    "severity",
    "enforcement",
    "description",
    "examples",
)
_EXAMPLE_KINDS = ("violated", "satisfied")


@dataclass(frozen=True)
class RuleScope:
    """What reading the rules of one file needs from the load around it."""

    registry: Registry
    defaults: FileDefaults
    places: dict[str, Location]
    """Where each rule id of the contract so far was written (ids are unique across files)."""
    tokens: Tokens | None = None
    """The ``tokens:`` block the file's rules are under (its own, or an including file's)."""


@dataclass(frozen=True)
class _Common:
    """A rule's common fields, validated (the file's defaults where not given)."""

    version: RuleVersion
    code: str | None
    severity: Severity
    enforcement: Enforcement
    description: str | None


def read_rules(reader: FieldReader, value: Any, scope: RuleScope) -> list[RuleEntry]:
    """The entries of the file's ``rules:`` list, in file order."""
    if value is MISSING or value is None:
        return []
    entries = []
    for index, raw in enumerate(reader.sequence(value, ("rules",))):
        entry = _read_rule(reader, raw, ("rules", index), scope)
        if entry is not None:
            entries.append(entry)
    return entries


def _read_rule(reader: FieldReader, raw: Any, path: KeyPath, scope: RuleScope) -> RuleEntry | None:
    if not isinstance(raw, dict):
        reader.mapping(raw, path)
        return None
    start = reader.mark()
    rule_id = _rule_id(reader, raw, path, scope.places)
    rule = reader.within(path, None if rule_id is None else f"rule {rule_id!r}")
    common = _common_fields(rule, raw, scope.defaults)
    examples = _examples(rule, raw.get("examples", MISSING))
    rule_type = _rule_type(rule, raw.get("type", MISSING), scope.registry)
    if rule_type is None:
        return None
    configured = _configure(reader, rule, raw, rule_type, scope)
    if reader.failed_since(start) or rule_id is None:
        return None
    header = RuleHeader(
        id=rule_id,
        version=common.version,
        type=rule_type.name,
        kind=rule_type.kind,
        severity=common.severity,
        enforcement=common.enforcement,
        code=common.code,
        description=common.description,
    )
    try:
        configured_rule = rule_type(header, configured.options)
    except Exception as exc:  # a plugin's constructor is user code
        rule.problem(
            (), f"rule type {rule_type.name} could not be configured: {type(exc).__name__}: {exc}"
        )
        return None
    return RuleEntry(
        rule=configured_rule,
        location=reader.at(path),
        resolved=resolve_segmenting(configured.resolved),
        violated_examples=examples.get("violated", ()),
        satisfied_examples=examples.get("satisfied", ()),
    )


def _rule_id(
    reader: FieldReader, raw: Mapping[str, Any], path: KeyPath, places: dict[str, Location]
) -> str | None:
    """The rule's id if it is valid and not used before (each reported otherwise)."""
    if "id" not in raw:
        reader.problem(path, "missing required key 'id'")
        return None
    rule_id = reader.identifier(raw["id"], (*path, "id"), "rule", NAME_PATTERN)
    if rule_id is None:
        return None
    where = reader.at((*path, "id"))
    if rule_id in places:
        reader.problems.append(
            Problem(
                f"rule id {rule_id!r} is already used at {places[rule_id]}",
                replace(where, key=f"rule {rule_id!r}"),
            )
        )
    else:
        places[rule_id] = where
    return rule_id


def _is_code(value: object) -> bool:
    return (
        isinstance(value, str)
        and value != ""
        and value[0].isascii()
        and value[0].isupper()
        and all(c.isascii() and (c.isupper() or c.isdigit() or c == "_") for c in value)
    )


def _common_fields(rule: FieldReader, raw: Mapping[str, Any], defaults: FileDefaults) -> _Common:
    code = raw.get("code")
    if code is not None and not _is_code(code):
        rule.problem(
            ("code",), f"expected UPPER_SNAKE_CASE such as NO_REFUND_PROMISE, got {code!r}"
        )
        code = None
    given = raw.get
    return _Common(
        version=read_version(rule, given("version", MISSING), ("version",)),
        code=code,
        severity=rule.choice(
            given("severity", MISSING), ("severity",), Severity, defaults.severity
        ),
        enforcement=rule.choice(
            given("enforcement", MISSING), ("enforcement",), Enforcement, defaults.enforcement
        ),
        description=rule.string(given("description", MISSING), ("description",), None, empty=True),
    )


def _rule_type(rule: FieldReader, value: Any, registry: Registry) -> type[RuleType] | None:
    if value is MISSING:
        rule.problem((), "missing required key 'type'")
        return None
    name = rule.string(value, ("type",), None)
    if name is None:
        return None
    found = registry.get(name)
    if found is None:
        suggestion = registry.suggest(name)
        rule.problem(
            ("type",),
            f"unknown rule type {name!r}",
            f"did you mean {suggestion!r}?"
            if suggestion
            else "run 'textcontract rules' to list the types",
        )
    return found


def _configure(
    reader: FieldReader,
    rule: FieldReader,
    raw: Mapping[str, Any],
    rule_type: type[RuleType],
    scope: RuleScope,
) -> Configured:
    """The rule's parameters, the file's defaults filling those it declares and leaves out,
    and the ``tokens:`` block it is under filling ``segmenter`` and ``locale``."""
    params = {name: value for name, value in raw.items() if name not in COMMON_RULE_FIELDS}
    inherited = {
        name: value
        for name, value in scope.defaults.params.items()
        if name not in params and rule_type.param(name) is not None
    }
    segmenting = {}
    if scope.tokens is not None and rule_type.param(SEGMENTER.name) is SEGMENTER:
        segmenting = scope.tokens.inherited_by(params)
    configured = configure_options(
        rule_type, {**params, **inherited, **segmenting}, COMMON_RULE_FIELDS
    )
    for problem in configured.problems:
        name = problem.path[0] if problem.path else None
        if name in inherited:
            where = reader.at(("defaults", *problem.path))
            label = f"{rule.label or rule.at().key} (from defaults.{name})"
            reader.problems.append(
                Problem(problem.message, replace(where, key=label), problem.hint)
            )
        elif name in raw:
            unknown = rule_type.param(str(name)) is None
            rule.problem(problem.path, problem.message, problem.hint, at_key=unknown)
        else:
            rule.problem((), problem.message, problem.hint)
    return configured


def _examples(rule: FieldReader, value: Any) -> dict[str, tuple[RuleExample, ...]]:
    """``examples: {violated: [...], satisfied: [...]}``, each a text or ``{text, context}``."""
    if value is MISSING or value is None:
        return {}
    fields = rule.mapping(value, ("examples",), optional=_EXAMPLE_KINDS)
    found: dict[str, tuple[RuleExample, ...]] = {}
    for kind in (kind for kind in fields if kind in _EXAMPLE_KINDS):  # in file order
        items = rule.sequence(fields[kind], ("examples", kind))
        read = (_example(rule, item, ("examples", kind, i)) for i, item in enumerate(items))
        found[kind] = tuple(example for example in read if example is not None)
    return found


def _example(rule: FieldReader, item: Any, path: KeyPath) -> RuleExample | None:
    where = rule.at(path)
    if isinstance(item, str):
        return RuleExample(item, None, where)
    start = rule.mark()
    fields = rule.mapping(item, path, required=("text",), optional=("context",))
    text = rule.string(fields["text"], (*path, "text"), None, empty=True)
    context = None
    if "context" in fields:
        try:
            context = Context.from_json(fields["context"], rule.file)
        except InputError as error:
            rule.absorb(error, (*path, "context"))
    if rule.failed_since(start) or text is None:
        return None
    return RuleExample(text, context, where)
