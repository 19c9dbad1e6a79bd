"""The operator contract: a declaration plus a ``generate`` that proposes mutations.

An operator is a class with a stable ``name``, a ``version``, a ``probe_class`` (``defect``,
``gameability``, ``zero-action`` or ``preserve``), the rule types it ``targets`` and a one-line
``summary`` of what its variants assert and why they are valid by construction. ``generate``
reads the baseline and the contract's rules — never a check result — and yields either a
:class:`Mutation` (the document and context one variant's trial must be, and the check of the
targeted rule that must be violated) or a :class:`Skip` saying what it could not do and why.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import ClassVar

from textcontract.contract import ParsedContract, RuleEntry
from textcontract.model import Context, Document, FactValue, Surface
from textcontract.mutate._choice import Chooser
from textcontract.rules import RuleType

__all__ = [
    "Baseline",
    "Expected",
    "Mutation",
    "Operator",
    "OperatorClass",
    "Proposal",
    "Skip",
    "expected",
    "with_claim",
    "with_fact",
    "with_texts",
]


class OperatorClass(StrEnum):
    """What an operator's variants are: a probe of one class, or a clean control."""

    DEFECT = "defect"
    GAMEABILITY = "gameability"
    ZERO_ACTION = "zero-action"
    PRESERVE = "preserve"


@dataclass(frozen=True)
class Expected:
    """A check the targeted rule must violate: ``(rule, code, scope)`` of SPEC §6."""

    rule: str
    code: str
    scope: str

    def to_json(self) -> dict[str, str]:
        return {"rule": self.rule, "code": self.code, "scope": self.scope}


def expected(rule: RuleType, code: str, scope: str) -> Expected:
    """The triple a rule's check carries: its main code under the contract's ``code:`` name."""
    header = rule.header
    if code == rule.main_code and header.code is not None:
        code = header.code
    return Expected(header.id, code, scope)


@dataclass(frozen=True)
class Mutation:
    """One proposed variant: the trial it must produce and what must be violated there.

    ``expect`` is empty for preserve operators and holds the targeted rule's check otherwise;
    ``description`` says in one sentence what changed. ``preserve`` makes one variant of a
    probe operator a preserve variant (``code-wrap`` for a rule that reads prose only).
    """

    document: Document
    context: Context
    description: str
    expect: tuple[Expected, ...] = ()
    preserve: bool = False


@dataclass(frozen=True)
class Skip:
    """Something an operator could not build, and why (a sentence naming the rule or surface)."""

    reason: str


Proposal = Mutation | Skip


@dataclass(frozen=True)
class Baseline:
    """What an operator reads: the baseline document and context, and the parsed contract."""

    document: Document
    context: Context
    contract: ParsedContract

    def entries(self, types: tuple[str, ...]) -> tuple[RuleEntry, ...]:
        """The contract's rules of the given types, in contract order (includes first)."""
        return tuple(entry for entry in self.contract.entries if entry.rule.header.type in types)

    def surfaces_read(self, rule: RuleType) -> tuple[Surface, ...]:
        """The surfaces a surface rule reads that the document has, in the rule's order."""
        names = rule.options.strings("surfaces")
        if names is None:
            return self.document.surfaces
        present = (self.document.surface(name) for name in names)
        return tuple(surface for surface in present if surface is not None)


def with_texts(document: Document, texts: Mapping[str, str]) -> Document:
    """``document`` with the texts of some surfaces replaced (surface name → new text)."""
    return Document(
        tuple(
            replace(surface, text=texts[surface.name]) if surface.name in texts else surface
            for surface in document.surfaces
        )
    )


def with_claim(document: Document, surface: str, key: str, value: FactValue) -> Document:
    """``document`` with one claim of one surface set (kept in its place when present)."""
    return Document(
        tuple(
            replace(item, claims={**item.claims, key: value}) if item.name == surface else item
            for item in document.surfaces
        )
    )


def with_fact(context: Context, state: str, key: str, value: FactValue) -> Context:
    """``context`` with one fact of one snapshot set (the snapshot is created if missing)."""
    states = {name: dict(facts) for name, facts in context.states.items()}
    states.setdefault(state, {})[key] = value
    return Context(states=states, closed_premises=context.closed_premises, history=context.history)


class Operator(ABC):
    """Base class of every mutation operator, built-in or plugin.

    Subclasses declare ``name`` (``[a-z0-9][a-z0-9-]*``), ``probe_class``, ``targets``
    (rule type names; empty for preserve operators, which target no rule), ``summary`` and,
    when their construction changes, a higher ``version`` (it is written into every
    variant's provenance). ``generate`` must be deterministic given the baseline and the
    chooser, and must not evaluate the contract.
    """

    name: ClassVar[str]
    version: ClassVar[int] = 1
    probe_class: ClassVar[OperatorClass]
    targets: ClassVar[tuple[str, ...]] = ()
    summary: ClassVar[str]

    @abstractmethod
    def generate(self, baseline: Baseline, chooser: Chooser) -> Iterator[Proposal]:
        """Every mutation this operator makes of ``baseline``, and every skip, in order."""

    @property
    def provenance(self) -> str:
        return f"generated: {self.name} v{self.version}"
