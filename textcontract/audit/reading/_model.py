"""The corpus as loaded: cases, their variants, the changes that build each trial."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from textcontract.canonical import digest
from textcontract.errors import Location
from textcontract.model import Context, Document, FactValue, Severity
from textcontract.strength import Exposure, ProbeClass

__all__ = [
    "DEFAULT_FAMILY",
    "ID_PATTERN",
    "Case",
    "Change",
    "Expectation",
    "Relation",
    "Removal",
    "Replacement",
    "Validity",
    "Variant",
    "baseline_digest",
]

DEFAULT_FAMILY = "unlabelled"

ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*\Z")
"""Case and variant ids (SPEC §6)."""


class Relation(StrEnum):
    """What a variant is: a fault the contract must catch, or a variation it must accept."""

    VIOLATION = "violation"
    PRESERVE = "preserve"


class Validity(StrEnum):
    """The reviewer's label; only ``valid`` variants are counted."""

    VALID = "valid"
    EQUIVALENT = "equivalent"
    UNREVIEWED = "unreviewed"


@dataclass(frozen=True)
class Expectation:
    """A check the contract must violate for a fault to count as detected."""

    rule: str
    code: str
    scope: str

    @property
    def oracle(self) -> str:
        """The oracle id of SPEC §7: ``rule:code:scope``."""
        return f"{self.rule}:{self.code}:{self.scope}"

    def to_json(self) -> dict[str, str]:
        return {"rule": self.rule, "code": self.code, "scope": self.scope}


@dataclass(frozen=True)
class Replacement:
    """``replace``: every occurrence of ``find`` on a surface becomes ``replacement``."""

    surface: str
    find: str
    replacement: str
    location: Location


@dataclass(frozen=True)
class Removal:
    """``remove_context``: one key leaves one snapshot."""

    state: str
    key: str
    location: Location


@dataclass(frozen=True)
class Change:
    """One trial's edits to a copy of the baseline, applied in the order of the fields.

    ``document`` replaces the whole document first; then ``replace`` edits texts,
    ``claims`` sets claim values per surface, ``context`` merges facts into
    snapshots and ``remove_context`` removes keys.
    """

    location: Location
    document: Document | None = None
    replace: tuple[Replacement, ...] = ()
    claims: Mapping[str, Mapping[str, FactValue]] = field(default_factory=dict)
    claims_locations: Mapping[str, Location] = field(default_factory=dict)
    context: Mapping[str, Mapping[str, FactValue]] = field(default_factory=dict)
    remove_context: tuple[Removal, ...] = ()


@dataclass(frozen=True)
class Variant:
    """A labelled change of a baseline; ``severity`` is ``None`` when not declared."""

    id: str
    relation: Relation
    validity: Validity
    provenance: str | None
    family: str
    probe_class: ProbeClass
    severity: Severity | None
    canary: bool
    expect: tuple[Expectation, ...]
    trials: tuple[Change, ...]
    location: Location
    exposure: Exposure = Exposure.KNOWN
    """Could the contract's authors see it (SPEC §17.6)? A declaration; in no digest."""

    @property
    def oracle(self) -> str:
        """A violation's oracle id: its expectations joined by ``;`` (SPEC §7)."""
        return ";".join(expectation.oracle for expectation in self.expect)

    def labels_json(self) -> dict[str, Any]:
        """Labels and expectations as written (defaults that need no contract filled in).

        ``exposure`` stays out: it moves no digest (SPEC §17.6).
        """
        return {
            "id": self.id,
            "relation": self.relation.value,
            "validity": self.validity.value,
            "provenance": self.provenance,
            "family": self.family,
            "class": self.probe_class.value,
            "severity": None if self.severity is None else self.severity.value,
            "canary": self.canary,
            "expect": [expectation.to_json() for expectation in self.expect],
        }


def baseline_digest(document: Document, context: Context) -> str:
    """SPEC §6: the digest of ``{"document": canonical document, "context": canonical context}``."""
    return digest({"document": document.to_json(), "context": context.to_json()})


@dataclass(frozen=True)
class Case:
    """One baseline and its variants, from one case file (``file`` is its display name)."""

    id: str
    group: str | None
    file: str
    document: Document
    context: Context
    variants: tuple[Variant, ...]
    location: Location
    """Where the case's id is written."""

    @property
    def baseline_digest(self) -> str:
        return baseline_digest(self.document, self.context)
