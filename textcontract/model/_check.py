"""Checks: the outcome of one rule on one scope, and the enums that describe them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

__all__ = ["Check", "Enforcement", "Kind", "Severity", "Status"]


class Status(StrEnum):
    """Whether the configured predicate held (SPEC §3)."""

    SATISFIED = "satisfied"
    VIOLATED = "violated"
    UNDETERMINED = "undetermined"
    ERROR = "error"


class Kind(StrEnum):
    """Invariants check structure; heuristics check wording and may be advisory by policy."""

    INVARIANT = "invariant"
    HEURISTIC = "heuristic"


class Severity(StrEnum):
    """Ordered: ``Severity.LOW < Severity.CRITICAL``."""

    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"
    CRITICAL = "critical"

    @property
    def rank(self) -> int:
        return _SEVERITY_RANK[self]

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Severity):
            return NotImplemented
        return self.rank < other.rank

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Severity):
            return NotImplemented
        return self.rank <= other.rank

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Severity):
            return NotImplemented
        return self.rank > other.rank

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, Severity):
            return NotImplemented
        return self.rank >= other.rank


_SEVERITY_RANK = {Severity.LOW: 0, Severity.MEDIUM: 1, Severity.HIGH: 2, Severity.CRITICAL: 3}


class Enforcement(StrEnum):
    """Advisory rules never reject through ``violated`` or ``undetermined``."""

    BLOCKING = "blocking"
    ADVISORY = "advisory"


RuleVersion = str | int
Number = int | float


@dataclass(frozen=True, slots=True)
class Check:
    """One finding: a rule's verdict on one scope, with its evidence and metrics."""

    rule_id: str
    rule_version: RuleVersion
    type: str
    kind: Kind
    status: Status
    code: str
    scope: str
    severity: Severity
    enforcement: Enforcement
    evidence: tuple[Mapping[str, Any], ...] = ()
    metrics: Mapping[str, Number] = field(default_factory=dict)
    message: str = ""

    def to_json(self) -> dict[str, Any]:
        """The report form, keys in SPEC §3 order."""
        return {
            "rule_id": self.rule_id,
            "rule_version": self.rule_version,
            "type": self.type,
            "kind": self.kind.value,
            "status": self.status.value,
            "code": self.code,
            "scope": self.scope,
            "severity": self.severity.value,
            "enforcement": self.enforcement.value,
            "evidence": [dict(item) for item in self.evidence],
            "metrics": dict(self.metrics),
            "message": self.message,
        }
