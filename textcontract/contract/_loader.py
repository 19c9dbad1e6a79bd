"""Loading contracts: YAML with positions, the schema, includes, and every error at once.

All problems of a contract and of the files it includes are collected and
raised together as one :class:`ContractError`, each naming file, line, column
and the rule id and field it concerns.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from textcontract._files import decode_utf8, read_bytes_capped
from textcontract._yaml import Positions, load_yaml
from textcontract.contract._definition import (
    ContractDefinition,
    RuleEntry,
    RuleExample,
    contract_digest,
)
from textcontract.contract._packs import builtin_pack, builtin_pack_names
from textcontract.errors import ContractError, InputError, Location, Problem
from textcontract.model import (
    NAME_PATTERN,
    CheckPolicy,
    Context,
    Enforcement,
    RuleVersion,
    Severity,
    type_name,
)
from textcontract.rules import Registry, RuleHeader, RuleType, configure_options, default_registry

__all__ = [
    "COMMON_RULE_FIELDS",
    "CONTRACT_FIELDS",
    "DEFAULTS_FIELDS",
    "POLICY_FIELDS",
    "load_contract_definition",
    "load_contract_file",
    "load_contract_text",
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
)
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
DEFAULTS_FIELDS = ("severity", "enforcement", "surfaces", "accent_folding", "timeout_ms")
_PARAM_DEFAULTS = ("surfaces", "accent_folding", "timeout_ms")
POLICY_FIELDS = ("block_heuristics", "block_undetermined")
_SEVERITIES = tuple(s.value for s in Severity)
_ENFORCEMENTS = tuple(e.value for e in Enforcement)
_BUILTIN = "builtin:"


def _did_you_mean(name: str, candidates: Sequence[str]) -> str | None:
    close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return f"did you mean {close[0]!r}?" if close else None


def _is_version(value: object) -> bool:
    if isinstance(value, bool):
        return False
    return (isinstance(value, str) and value != "") or isinstance(value, int)


def _is_code(value: object) -> bool:
    return (
        isinstance(value, str)
        and value != ""
        and value[0].isascii()
        and value[0].isupper()
        and all(c.isascii() and (c.isupper() or c.isdigit() or c == "_") for c in value)
    )


@dataclass
class _FileDefaults:
    severity: Severity = Severity.MEDIUM
    enforcement: Enforcement = Enforcement.BLOCKING
    params: dict[str, Any] = field(default_factory=dict)


@dataclass
class _Header:
    """The top-level fields of one file, validated."""

    id: str = ""
    version: RuleVersion = 1
    description: str | None = None
    policy: CheckPolicy = field(default_factory=CheckPolicy)


class _Load:
    """One load: the registry, the include stack, the problems and the rules found so far."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self.problems: list[Problem] = []
        self.entries: list[RuleEntry] = []
        self.rule_places: dict[str, Location] = {}
        self.stack: list[tuple[str, str]] = []
        self.files: list[str] = []

    def problem(self, message: str, location: Location, hint: str | None = None) -> None:
        self.problems.append(Problem(message, location, hint))

    # -- files ---------------------------------------------------------------

    def load_file(
        self, text: str, display: str, identity: str, base: Path | None
    ) -> _Header | None:
        identities = [identity for identity, _ in self.stack]
        if identity in identities:
            start = identities.index(identity)
            chain = " -> ".join([*(shown for _, shown in self.stack[start:]), display])
            self.problem(f"include cycle: {chain}", Location(self.stack[start][1]))
            return None
        self.stack.append((identity, display))
        self.files.append(display)
        try:
            return self._load_text(text, display, base)
        finally:
            self.stack.pop()

    def _load_text(self, text: str, display: str, base: Path | None) -> _Header | None:
        try:
            data, positions = load_yaml(text, display, error=ContractError)
        except InputError as error:
            self.problems.extend(error.problems)
            return None
        if not isinstance(data, Mapping):
            self.problem(
                f"a contract must be a mapping, got {type_name(data)}", positions.value(())
            )
            return None
        header = self._header(data, positions)
        defaults = self._defaults(data.get("defaults"), positions)
        for include, where in self._includes(data.get("include"), positions):
            self._include(include, where, display, base)
        self._rules(data.get("rules"), positions, defaults, header.id)
        return header

    def _header(self, data: Mapping[str, Any], positions: Positions) -> _Header:
        header = _Header()
        for name in data:
            if name not in CONTRACT_FIELDS:
                self.problem(
                    f"unknown contract field {name!r}",
                    positions.key((name,), key=name),
                    _did_you_mean(name, CONTRACT_FIELDS),
                )
        if "textcontract" not in data:
            self.problem(
                "missing 'textcontract: 1' (the contract format version)", positions.value(())
            )
        elif data["textcontract"] != FORMAT_VERSION or isinstance(
            data["textcontract"], bool | float
        ):
            self.problem(
                f"unsupported contract format {data['textcontract']!r}; "
                "this textcontract reads format 1",
                positions.value(("textcontract",), key="textcontract"),
            )
        raw_id = data.get("id")
        if raw_id is None:
            self.problem("missing contract 'id'", positions.value(()))
        elif not isinstance(raw_id, str) or not NAME_PATTERN.match(raw_id):
            self.problem(
                f"contract id {raw_id!r} does not match [a-z0-9][a-z0-9_.-]*",
                positions.value(("id",), key="id"),
            )
        else:
            header.id = raw_id
        if "version" in data:
            if _is_version(data["version"]):
                header.version = data["version"]
            else:
                self.problem(
                    f"version must be a string or an integer, got {type_name(data['version'])}",
                    positions.value(("version",), key="version"),
                )
        if "description" in data:
            if isinstance(data["description"], str):
                header.description = data["description"]
            else:
                self.problem(
                    "description must be a string",
                    positions.value(("description",), key="description"),
                )
        header.policy = self._policy(data.get("policy"), positions)
        return header

    def _policy(self, raw: object, positions: Positions) -> CheckPolicy:
        if raw is None:
            return CheckPolicy()
        if not isinstance(raw, Mapping):
            self.problem(
                f"policy must be a mapping, got {type_name(raw)}",
                positions.value(("policy",), key="policy"),
            )
            return CheckPolicy()
        values: dict[str, bool] = {}
        for name, value in raw.items():
            where = positions.value(("policy", name), key=f"policy.{name}")
            if name not in POLICY_FIELDS:
                self.problem(
                    f"unknown policy field {name!r}",
                    positions.key(("policy", name), key=f"policy.{name}"),
                    _did_you_mean(name, POLICY_FIELDS),
                )
            elif not isinstance(value, bool):
                self.problem(f"expected true or false, got {type_name(value)}", where)
            else:
                values[name] = value
        return CheckPolicy(**values)

    def _defaults(self, raw: object, positions: Positions) -> _FileDefaults:
        defaults = _FileDefaults()
        if raw is None:
            return defaults
        if not isinstance(raw, Mapping):
            self.problem(
                f"defaults must be a mapping, got {type_name(raw)}",
                positions.value(("defaults",), key="defaults"),
            )
            return defaults
        for name, value in raw.items():
            where = positions.value(("defaults", name), key=f"defaults.{name}")
            if name not in DEFAULTS_FIELDS:
                self.problem(
                    f"unknown defaults field {name!r} (allowed: {', '.join(DEFAULTS_FIELDS)})",
                    positions.key(("defaults", name), key=f"defaults.{name}"),
                    _did_you_mean(name, DEFAULTS_FIELDS),
                )
            elif name == "severity":
                if value in _SEVERITIES:
                    defaults.severity = Severity(value)
                else:
                    self.problem(f"expected one of {', '.join(_SEVERITIES)}, got {value!r}", where)
            elif name == "enforcement":
                if value in _ENFORCEMENTS:
                    defaults.enforcement = Enforcement(value)
                else:
                    self.problem(
                        f"expected one of {', '.join(_ENFORCEMENTS)}, got {value!r}", where
                    )
            else:
                defaults.params[name] = value
        return defaults

    def _includes(self, raw: object, positions: Positions) -> list[tuple[str, Location]]:
        if raw is None:
            return []
        if not isinstance(raw, list):
            self.problem(
                f"include must be a list of rule packs, got {type_name(raw)}",
                positions.value(("include",), key="include"),
            )
            return []
        found = []
        for index, item in enumerate(raw):
            where = positions.value(("include", index), key=f"include[{index}]")
            if not isinstance(item, str) or not item:
                self.problem("an include is 'builtin:NAME' or a relative path", where)
            else:
                found.append((item, where))
        return found

    def _include(self, include: str, where: Location, display: str, base: Path | None) -> None:
        if include.startswith(_BUILTIN):
            name = include.removeprefix(_BUILTIN)
            pack = builtin_pack(name)
            if pack is None:
                known = builtin_pack_names()
                self.problem(
                    f"no shipped rule pack {include!r} (shipped: {', '.join(known) or 'none'})",
                    where,
                    _did_you_mean(name, known),
                )
                return
            self.load_file(pack.read_text(encoding="utf-8-sig"), include, include, None)
            return
        if base is None:
            self.problem(
                f"cannot include {include!r}: a relative include needs a contract read from a file",
                where,
            )
            return
        target = base / include
        shown = str(Path(display).parent / include) if display else include
        try:
            data = read_bytes_capped(target)
            text = decode_utf8(data, shown)
        except OSError as exc:
            self.problem(f"cannot read included file {include!r}: {exc.strerror or exc}", where)
            return
        except InputError as error:
            self.problems.extend(error.problems)
            return
        self.load_file(text, shown, str(target.resolve()), target.parent)

    # -- rules ---------------------------------------------------------------

    def _rules(
        self, raw: object, positions: Positions, defaults: _FileDefaults, file_id: str
    ) -> None:
        del file_id
        if raw is None:
            return
        if not isinstance(raw, list):
            self.problem(
                f"rules must be a list, got {type_name(raw)}",
                positions.value(("rules",), key="rules"),
            )
            return
        for index, item in enumerate(raw):
            self._rule(item, index, positions, defaults)

    def _rule(self, raw: object, index: int, positions: Positions, defaults: _FileDefaults) -> None:
        path: tuple[str | int, ...] = ("rules", index)
        rule_where = positions.value(path, key=f"rules[{index}]")
        if not isinstance(raw, Mapping):
            self.problem(f"a rule must be a mapping, got {type_name(raw)}", rule_where)
            return
        rule_id = raw.get("id")
        label = f"rules[{index}]"
        if rule_id is None:
            self.problem("rule has no 'id'", rule_where)
        elif not isinstance(rule_id, str) or not NAME_PATTERN.match(rule_id):
            self.problem(
                f"rule id {rule_id!r} does not match [a-z0-9][a-z0-9_.-]*",
                positions.value((*path, "id"), key=f"{label}.id"),
            )
            rule_id = None
        else:
            label = f"rule {rule_id!r}"
            if rule_id in self.rule_places:
                first = self.rule_places[rule_id]
                self.problem(
                    f"rule id {rule_id!r} is already used at {first}",
                    positions.value((*path, "id"), key=label),
                )
            else:
                self.rule_places[rule_id] = positions.value((*path, "id"))

        def at(*sub: str | int, key_position: bool = False) -> Location:
            field_name = "".join(f"[{s}]" if isinstance(s, int) else f".{s}" for s in sub)
            shown = f"{label}, field {field_name.lstrip('.')}" if sub else label
            return (positions.key if key_position else positions.value)((*path, *sub), key=shown)

        rule_type = self._rule_type(raw.get("type"), at)
        header_problems = len(self.problems)
        version: RuleVersion = 1
        if "version" in raw:
            if _is_version(raw["version"]):
                version = raw["version"]
            else:
                self.problem(
                    f"version must be a string or an integer, got {type_name(raw['version'])}",
                    at("version"),
                )
        code = raw.get("code")
        if code is not None and not _is_code(code):
            self.problem(
                f"code must be UPPER_SNAKE_CASE such as NO_REFUND_PROMISE, got {code!r}", at("code")
            )
        severity = defaults.severity
        if "severity" in raw:
            if raw["severity"] in _SEVERITIES:
                severity = Severity(raw["severity"])
            else:
                self.problem(
                    f"severity must be one of {', '.join(_SEVERITIES)}, got {raw['severity']!r}",
                    at("severity"),
                )
        enforcement = defaults.enforcement
        if "enforcement" in raw:
            if raw["enforcement"] in _ENFORCEMENTS:
                enforcement = Enforcement(raw["enforcement"])
            else:
                self.problem(
                    f"enforcement must be one of {', '.join(_ENFORCEMENTS)}, "
                    f"got {raw['enforcement']!r}",
                    at("enforcement"),
                )
        description = raw.get("description")
        if description is not None and not isinstance(description, str):
            self.problem("description must be a string", at("description"))
            description = None
        examples = self._examples(raw.get("examples"), at)
        if rule_type is None:
            return
        params = {name: value for name, value in raw.items() if name not in COMMON_RULE_FIELDS}
        for name, value in defaults.params.items():
            if name not in params and rule_type.param(name) is not None:
                params[name] = value
        configured = configure_options(rule_type, params, COMMON_RULE_FIELDS)
        for problem in configured.problems:
            if problem.path and problem.path[0] in raw:
                self.problem(
                    problem.message,
                    at(*problem.path, key_position=problem.message.startswith("unknown field")),
                )
            elif problem.path and problem.path[0] in defaults.params:
                self.problem(
                    problem.message,
                    positions.value(
                        ("defaults", *problem.path),
                        key=f"{label} (from defaults.{problem.path[0]})",
                    ),
                )
            else:
                self.problem(problem.message, at())
        if configured.problems or len(self.problems) != header_problems or rule_id is None:
            return
        header = RuleHeader(
            id=rule_id,
            version=version,
            type=rule_type.name,
            kind=rule_type.kind,
            severity=severity,
            enforcement=enforcement,
            code=code,
            description=description,
        )
        try:
            rule = rule_type(header, configured.options)
        except Exception as exc:  # a plugin's constructor is user code
            self.problem(
                f"rule type {rule_type.name} could not be configured: {type(exc).__name__}: {exc}",
                at(),
            )
            return
        self.entries.append(
            RuleEntry(
                rule=rule,
                location=rule_where,
                resolved=configured.resolved,
                violated_examples=examples.get("violated", ()),
                satisfied_examples=examples.get("satisfied", ()),
            )
        )

    def _rule_type(self, raw: object, at: Any) -> type[RuleType] | None:
        if raw is None:
            self.problem("rule has no 'type'", at())
            return None
        if not isinstance(raw, str):
            self.problem(f"type must be a string, got {type_name(raw)}", at("type"))
            return None
        found = self.registry.get(raw)
        if found is not None:
            return found
        suggestion = self.registry.suggest(raw)
        self.problem(
            f"unknown rule type {raw!r}",
            at("type"),
            f"did you mean {suggestion!r}?"
            if suggestion
            else "run 'textcontract rules' to list the types",
        )
        return None

    def _examples(self, raw: object, at: Any) -> dict[str, tuple[RuleExample, ...]]:
        if raw is None:
            return {}
        if not isinstance(raw, Mapping):
            self.problem(
                f"examples must be a mapping with violated/satisfied lists, got {type_name(raw)}",
                at("examples"),
            )
            return {}
        found: dict[str, tuple[RuleExample, ...]] = {}
        for kind, items in raw.items():
            if kind not in ("violated", "satisfied"):
                self.problem(
                    f"unknown examples field {kind!r} (expected violated, satisfied)",
                    at("examples", kind, key_position=True),
                )
                continue
            if not isinstance(items, list):
                self.problem(
                    f"expected a list of examples, got {type_name(items)}", at("examples", kind)
                )
                continue
            examples = []
            for index, item in enumerate(items):
                example = self._example(item, at, kind, index)
                if example is not None:
                    examples.append(example)
            found[kind] = tuple(examples)
        return found

    def _example(self, item: object, at: Any, kind: str, index: int) -> RuleExample | None:
        where = at("examples", kind, index)
        if isinstance(item, str):
            return RuleExample(item, None, where)
        if not isinstance(item, Mapping) or not isinstance(item.get("text"), str):
            self.problem("an example is a text or {text, context}", where)
            return None
        unknown = [name for name in item if name not in ("text", "context")]
        if unknown:
            self.problem(f"unknown example field {unknown[0]!r} (expected text, context)", where)
            return None
        context = None
        if "context" in item:
            try:
                context = Context.from_json(item["context"], where.file)
            except InputError as error:
                for problem in error.problems:
                    self.problem(
                        f"example context: {problem.location.key or '$'}: {problem.message}", where
                    )
                return None
        return RuleExample(item["text"], context, where)


def load_contract_definition(
    text: str, display: str, base: Path | None, identity: str, registry: Registry | None = None
) -> ContractDefinition:
    """Load contract ``text``; ``base`` is the folder relative includes start from."""
    load = _Load(registry if registry is not None else default_registry())
    header = load.load_file(text, display, identity, base)
    if header is not None and not load.entries and not load.problems:
        load.problem(
            "the contract defines no rules (directly or through include)", Location(display)
        )
    if load.problems or header is None:
        raise ContractError(load.problems)
    entries = tuple(load.entries)
    return ContractDefinition(
        id=header.id,
        version=header.version,
        policy=header.policy,
        entries=entries,
        digest=contract_digest(header.id, header.version, header.policy, entries),
        source=display,
        description=header.description,
        files=tuple(load.files),
    )


def load_contract_file(
    path: Path, display: str | None = None, registry: Registry | None = None
) -> ContractDefinition:
    shown = display if display is not None else str(path)
    try:
        data = read_bytes_capped(path)
    except OSError as exc:
        raise ContractError(
            Problem(f"cannot read contract: {exc.strerror or exc}", Location(shown))
        ) from None
    try:
        text = decode_utf8(data, shown)
    except InputError as error:
        raise ContractError(error.problems) from None
    return load_contract_definition(text, shown, path.parent, str(path.resolve()), registry)


def load_contract_text(
    text: str, display: str = "<contract>", registry: Registry | None = None
) -> ContractDefinition:
    if text.startswith("\ufeff"):
        text = text[1:]
    return load_contract_definition(text, display, None, display, registry)
