"""The preflight verdict (SPEC §17.3): checks over baselines, and the plan of the run.

The preflight pass (:mod:`textcontract.audit.running._preflight`) leaves one small
:class:`CasePlan` per case; :class:`Preflight` holds them and produces the verdict —
checks, planned probes, exclusions — one entry at a time, for writing and for its
digest, so that it is never held whole for a large corpus.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property
from typing import Any, NamedTuple

from textcontract._engine import engine_identity
from textcontract.audit.reading import Relation
from textcontract.audit.results._figures import ExcludedReason
from textcontract.audit.results._variant_records import Labels
from textcontract.canonical import canonical_json
from textcontract.model import ContractRef
from textcontract.strength import PREFLIGHT_VERSION, Recommendation

__all__ = [
    "CasePlan",
    "CheckKind",
    "CheckOutcome",
    "PlannedVariant",
    "Preflight",
    "canonical_chunks",
]


class CheckKind(StrEnum):
    """The preflight's checks, in the order they are listed."""

    BASELINE_DETERMINISTIC = "baseline-deterministic"
    FAULT_SCOPED = "fault-scoped"


class CheckOutcome(StrEnum):
    SATISFIED = "satisfied"
    FAILED = "failed"
    EXEMPT = "exempt"


VACUOUS_NOTE = (
    "the unmutated baseline already violates this expectation, so the probe would be "
    "caught without its fault and measures nothing"
)
RULE_ABSENT_NOTE = "rule absent"


class PlannedVariant(NamedTuple):
    """A variant as the plan sees it: eligible (``excluded`` is ``None``) or why not.

    ``faults`` holds, for an eligible violation, the fault-scoped outcome of each of
    its expectations, in ``expect`` order.
    """

    variant: str
    labels: Labels
    trials: int
    excluded: ExcludedReason | None
    faults: tuple[CheckOutcome, ...]


class CasePlan(NamedTuple):
    """The preflight of one case: its baseline checked twice, and its variants planned."""

    case: str
    difference: str | None
    """``None`` when the baseline's two check runs agree; else what first differed."""
    accepted: bool
    complete: bool
    variants: tuple[PlannedVariant, ...]


def _check(
    kind: CheckKind, subject: str, outcome: CheckOutcome, note: str | None
) -> dict[str, Any]:
    return {"kind": kind.value, "subject": subject, "outcome": outcome.value, "note": note}


def _fault_checks(plan: CasePlan) -> list[tuple[str, CheckOutcome]]:
    found = []
    for variant in plan.variants:
        for expectation, outcome in zip(variant.labels.expect, variant.faults, strict=False):
            subject = f"{plan.case}/{variant.variant}#{expectation.oracle}"
            found.append((subject, outcome))
    return sorted(found)


_NOTES = {
    CheckOutcome.SATISFIED: None,
    CheckOutcome.FAILED: VACUOUS_NOTE,
    CheckOutcome.EXEMPT: RULE_ABSENT_NOTE,
}


def canonical_chunks(value: Any) -> Iterator[bytes]:
    """The canonical JSON (SPEC §3) of ``value`` in pieces; lists may be iterators.

    Joined, the pieces are ``canonical_json`` of the same value with its iterators as
    lists, so a digest can be taken without holding the value.
    """
    if isinstance(value, dict):
        yield b"{"
        for index, key in enumerate(sorted(value)):
            yield (b"," if index else b"") + canonical_json(key) + b":"
            yield from canonical_chunks(value[key])
        yield b"}"
    elif isinstance(value, list | tuple | Iterator):
        yield b"["
        for index, item in enumerate(value):
            yield b"," if index else b""
            yield canonical_json(item)
        yield b"]"
    else:
        yield canonical_json(value)


@dataclass(frozen=True)
class Preflight:
    """A corpus's preflight: what ``textcontract preflight`` prints and ``audit`` runs first."""

    contract: ContractRef
    corpus_digest: str
    fixture_digest: str
    policy_digest: str
    mode: str
    cases: tuple[CasePlan, ...]
    """Sorted by case id."""

    @cached_property
    def _probe_order(self) -> tuple[CasePlan, ...]:
        # probe ids of two cases compare as ``case + "/"`` do: no id holds a "/"
        return tuple(sorted(self.cases, key=lambda plan: plan.case + "/"))

    @cached_property
    def passed(self) -> bool:
        """No check failed."""
        return all(
            plan.difference is None
            and all(CheckOutcome.FAILED not in variant.faults for variant in plan.variants)
            for plan in self.cases
        )

    @cached_property
    def recommendation(self) -> Recommendation:
        """The audit's own recommendation in production (SPEC §17.2): from the baselines."""
        if any(not plan.accepted for plan in self.cases):
            return Recommendation.FAIL
        if any(not plan.complete for plan in self.cases):
            return Recommendation.CONCERNS
        return Recommendation.PASS

    def checks(self) -> Iterator[dict[str, Any]]:
        """Sorted by kind, then subject."""
        for plan in self.cases:
            outcome = CheckOutcome.SATISFIED if plan.difference is None else CheckOutcome.FAILED
            yield _check(CheckKind.BASELINE_DETERMINISTIC, plan.case, outcome, plan.difference)
        for plan in self._probe_order:
            for subject, outcome in _fault_checks(plan):
                yield _check(CheckKind.FAULT_SCOPED, subject, outcome, _NOTES[outcome])

    def admitted(self) -> Iterator[tuple[str, PlannedVariant]]:
        """``(probe id, variant)`` of every admitted probe, sorted by probe id."""
        for plan in self._probe_order:
            for variant in sorted(plan.variants, key=lambda v: v.variant):
                if variant.excluded is None:
                    yield f"{plan.case}/{variant.variant}", variant

    def planned_probes(self) -> Iterator[dict[str, Any]]:
        for probe_id, variant in self.admitted():
            labels = variant.labels
            yield {
                "probe_id": probe_id,
                "class": labels.probe_class.value,
                "severity": labels.severity.value,
                "canary": labels.canary,
                "clean_control": labels.relation is Relation.PRESERVE,
                "exposure": labels.exposure.value,
                "trials": variant.trials,
            }

    def excluded(self) -> Iterator[dict[str, Any]]:
        """SPEC §6's excluded list: cases by id, variants in file order."""
        for plan in self.cases:
            for variant in plan.variants:
                if variant.excluded is not None:
                    yield {
                        "case": plan.case,
                        "variant": variant.variant,
                        "reason": variant.excluded.value,
                    }

    @cached_property
    def trials_total(self) -> int:
        return sum(variant.trials for _, variant in self.admitted())

    def _json(self, lists: bool) -> dict[str, Any]:
        def given(entries: Iterable[dict[str, Any]]) -> Iterable[dict[str, Any]]:
            return list(entries) if lists else iter(entries)

        return {
            "preflight_version": PREFLIGHT_VERSION,
            "engine": engine_identity(),
            "contract": {
                "id": self.contract.id,
                "version": self.contract.version,
                "digest": self.contract.digest,
            },
            "corpus_digest": self.corpus_digest,
            "fixture_digest": self.fixture_digest,
            "policy_digest": self.policy_digest,
            "mode": self.mode,
            "passed": self.passed,
            "checks": given(self.checks()),
            "plan": {
                "probes": given(self.planned_probes()),
                "excluded": given(self.excluded()),
                "trials_total": self.trials_total,
            },
        }

    def to_json(self) -> dict[str, Any]:
        """The verdict as a JSON-ready dict."""
        return self._json(lists=True)

    def streamed_json(self) -> dict[str, Any]:
        """The verdict with its long lists as one-pass iterators (for ``write_pretty``)."""
        return self._json(lists=False)

    @cached_property
    def digest(self) -> str:
        """The digest of the verdict's canonical JSON, taken without holding it."""
        hashed = hashlib.sha256()
        for chunk in canonical_chunks(self.streamed_json()):
            hashed.update(chunk)
        return "sha256:" + hashed.hexdigest()

    def report_json(self) -> dict[str, Any]:
        """The audit report's ``preflight`` block (a passed preflight)."""
        return {"passed": self.passed, "digest": self.digest}
