"""A parsed contract: its identity, policy and configured rules, patterns compiled."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from textcontract.canonical import digest
from textcontract.contract._tokens import Tokens
from textcontract.errors import Location
from textcontract.model import CheckPolicy, Context, ContractRef, RuleVersion
from textcontract.rules import PatternRule, PatternTable, RuleType

if TYPE_CHECKING:
    from textcontract.contract._lineage import Lineage  # read only for a contract that has one

__all__ = ["ParsedContract", "RuleEntry", "RuleExample", "contract_digest"]


@dataclass(frozen=True)
class RuleExample:
    """A text a rule must violate or satisfy (``examples:``), with an optional context."""

    text: str
    context: Context | None
    location: Location


@dataclass(frozen=True)
class RuleEntry:
    """One configured rule with where it was written and its parameters as resolved."""

    rule: RuleType
    location: Location
    resolved: Mapping[str, Any]
    violated_examples: tuple[RuleExample, ...] = ()
    satisfied_examples: tuple[RuleExample, ...] = ()

    def digest_form(self) -> dict[str, Any]:
        header = self.rule.header
        return {
            "id": header.id,
            "type": header.type,
            "version": header.version,
            "code": header.code,
            "severity": header.severity.value,
            "enforcement": header.enforcement.value,
            "params": dict(self.resolved),
        }


def contract_digest(
    contract_id: str,
    version: RuleVersion,
    policy: CheckPolicy,
    entries: tuple[RuleEntry, ...],
    tokens: Tokens | None = None,
) -> str:
    """Covers everything that can change a result; descriptions and examples stay out.

    The header's ``tokens`` enters only when given (SPEC §19), so 0.2 digests stay; each
    rule it applies to carries it in its own parameters too (its part of the digest).
    """
    form: dict[str, Any] = {
        "id": contract_id,
        "version": version,
        "policy": policy.to_json(),
        "rules": [entry.digest_form() for entry in entries],
    }
    if tokens is not None:
        form["tokens"] = tokens.to_json()
    return digest(form)


@dataclass(frozen=True)
class ParsedContract:
    """A contract as parsed and checked, includes expanded and rules configured.

    What ``parse_contract_file``/``parse_contract_text`` return and the engine evaluates;
    :class:`textcontract.Contract` (from ``load_contract``) wraps one to ``check`` text.
    """

    id: str
    version: RuleVersion
    policy: CheckPolicy
    entries: tuple[RuleEntry, ...]
    digest: str
    source: str
    description: str | None = None
    files: tuple[str, ...] = field(default=())
    texts: tuple[str, ...] = field(default=(), repr=False)
    """The text of each of ``files`` as it was read (what a worker elsewhere compiles)."""
    lineage: Lineage | None = None
    """Where this revision comes from (SPEC §17.7); out of the digest."""
    tokens: Tokens | None = None
    """The top file's ``tokens:`` block (SPEC §19), when given."""

    @cached_property
    def rules(self) -> tuple[RuleType, ...]:
        return tuple(entry.rule for entry in self.entries)

    @cached_property
    def icu_version(self) -> str | None:
        """The ICU version its rules' tokens depend on (``engine.icu``), None if none does."""
        for rule in self.rules:
            version = rule.segmenter.icu_version
            if version is not None:
                return version
        return None

    @cached_property
    def pattern_tables(self) -> tuple[PatternTable, ...]:
        """The prefilter tables its pattern rules share (one per profile searched)."""
        tables: dict[int, PatternTable] = {}
        for rule in self.rules:
            table = rule.shared_table if isinstance(rule, PatternRule) else None
            if table is not None:
                tables.setdefault(id(table), table)
        return tuple(tables.values())

    @property
    def ref(self) -> ContractRef:
        return ContractRef(self.id, self.version, self.digest)

    def entry(self, rule_id: str) -> RuleEntry | None:
        for entry in self.entries:
            if entry.rule.header.id == rule_id:
                return entry
        return None
