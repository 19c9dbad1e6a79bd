"""The Report of one check run and the check policy that decides acceptance."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from textcontract._engine import engine_json
from textcontract.model._check import Check, Enforcement, Kind, RuleVersion, Status

__all__ = ["CheckPolicy", "ContractRef", "Report", "is_accepted", "is_complete"]


@dataclass(frozen=True)
class CheckPolicy:
    """The contract's ``policy:`` block."""

    block_heuristics: bool = True
    block_undetermined: bool = True

    def to_json(self) -> dict[str, bool]:
        return {
            "block_heuristics": self.block_heuristics,
            "block_undetermined": self.block_undetermined,
        }


@dataclass(frozen=True)
class ContractRef:
    """Which contract produced a report."""

    id: str
    version: RuleVersion
    digest: str

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "version": self.version, "digest": self.digest}


def _rejects(check: Check, policy: CheckPolicy) -> bool:
    if check.status is Status.ERROR:
        return True
    if check.enforcement is Enforcement.ADVISORY:
        return False
    if check.status is Status.VIOLATED:
        return check.kind is Kind.INVARIANT or policy.block_heuristics
    if check.status is Status.UNDETERMINED:
        return policy.block_undetermined
    return False


def is_accepted(checks: tuple[Check, ...], policy: CheckPolicy) -> bool:
    """SPEC §3: false with no checks, on any error, or on a blocking rejection."""
    return bool(checks) and not any(_rejects(check, policy) for check in checks)


def is_complete(checks: tuple[Check, ...]) -> bool:
    """At least one check, and none undetermined or error."""
    return bool(checks) and all(
        check.status is Status.SATISFIED or check.status is Status.VIOLATED for check in checks
    )


@dataclass(frozen=True)
class Report:
    """The result of checking one document against one context."""

    contract: ContractRef
    document_digest: str
    context_digest: str
    policy: CheckPolicy
    checks: tuple[Check, ...]
    source: str | None = None
    """Which input this is (SPEC §11): a path as given, ``<stdin>``, a batch id, or None."""
    icu_version: str | None = None
    """The ICU version the contract's tokens came from (``engine.icu``), None without ICU."""

    @cached_property
    def accepted(self) -> bool:
        return is_accepted(self.checks, self.policy)

    @cached_property
    def complete(self) -> bool:
        return is_complete(self.checks)

    @property
    def counts(self) -> dict[str, int]:
        counts = {status.value: 0 for status in Status}
        for check in self.checks:
            counts[check.status.value] += 1
        return counts

    def to_dict(self) -> dict[str, Any]:
        """The report as a JSON-ready dict, keys in SPEC §3 order."""
        return {
            "report_version": 1,
            "engine": engine_json(self.icu_version),
            "contract": self.contract.to_json(),
            "input": {"document": self.document_digest, "context": self.context_digest},
            "source": self.source,
            "policy": self.policy.to_json(),
            "accepted": self.accepted,
            "complete": self.complete,
            "counts": self.counts,
            "checks": [check.to_json() for check in self.checks],
        }

    def to_json(self, *, indent: int | None = 2) -> str:
        """The report as JSON text (indented by default; ``indent=None`` gives one line)."""
        separators = (",", ":") if indent is None else (",", ": ")
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent, separators=separators)
