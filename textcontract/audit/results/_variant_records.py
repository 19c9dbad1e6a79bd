"""What the audit keeps of each variant once it is evaluated: a small, shared record.

The report lists every variant, so the audit holds one record per variant until
it writes the report; the documents, trial inputs and check reports are gone by
then. A record is a variant id plus two parts that many variants have in common —
its labels and its result — and :class:`Interner` makes equal parts one object,
so a record costs little more than its tuple and its id.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import NamedTuple, TypeVar, cast

from textcontract.audit.reading import Expectation, Relation
from textcontract.audit.results._figures import ExcludedReason, VariantVerdict
from textcontract.audit.results._matching import CLEAN_CONTROL_ORACLE
from textcontract.model import Severity
from textcontract.strength import Exposure, OutcomeState, ProbeClass

__all__ = ["CaseRecord", "Counted", "Interner", "Labels", "VariantRecord"]

T = TypeVar("T")


class Labels(NamedTuple):
    """A variant's labels as the report shows them (severity resolved against the contract)."""

    relation: Relation
    probe_class: ProbeClass
    family: str
    severity: Severity
    canary: bool
    expect: tuple[Expectation, ...]
    exposure: Exposure = Exposure.KNOWN

    @property
    def oracle(self) -> str:
        """SPEC §7: a violation's expectations ``rule:code:scope`` joined by ``;``."""
        if self.relation is Relation.VIOLATION:
            return ";".join(expectation.oracle for expectation in self.expect)
        return CLEAN_CONTROL_ORACLE


class Counted(NamedTuple):
    """An evaluated variant: its verdict and the outcome state of each trial, in index order.

    ``waivers`` names, per trial, the waiver that made it not-applicable (SPEC §17.4);
    it is empty when no trial was waived.
    """

    verdict: VariantVerdict
    states: tuple[OutcomeState, ...]
    waivers: tuple[str | None, ...] = ()

    def waiver(self, index: int) -> str | None:
        return self.waivers[index] if self.waivers else None


class VariantRecord(NamedTuple):
    variant: str
    labels: Labels
    result: Counted | ExcludedReason


class CaseRecord:
    """One case's variants in file order.

    Held flat — id, labels, result, id, labels, … in one tuple — because the audit
    keeps one per case until the end: a tuple per variant would double the memory.
    """

    __slots__ = ("_flat", "case")

    def __init__(self, case: str, variants: Iterable[VariantRecord]) -> None:
        self.case = case
        self._flat: tuple[object, ...] = tuple(part for variant in variants for part in variant)

    def __len__(self) -> int:
        return len(self._flat) // 3

    @property
    def variants(self) -> Iterator[VariantRecord]:
        flat = self._flat
        for at in range(0, len(flat), 3):
            yield VariantRecord(
                cast(str, flat[at]),
                cast(Labels, flat[at + 1]),
                cast("Counted | ExcludedReason", flat[at + 2]),
            )


class Interner:
    """Returns one shared object for equal ids, labels and results."""

    def __init__(self) -> None:
        self._ids: dict[str, str] = {}
        self._labels: dict[Labels, Labels] = {}
        self._results: dict[Counted | ExcludedReason, Counted | ExcludedReason] = {}

    @staticmethod
    def _one(seen: dict[T, T], value: T) -> T:
        return seen.setdefault(value, value)

    def case(self, case: str, record: CaseRecord) -> CaseRecord:
        """``record`` under the id ``case`` (an equal string this process already holds)."""
        return CaseRecord(
            case,
            (
                VariantRecord(
                    self._one(self._ids, variant.variant),
                    self._one(self._labels, variant.labels),
                    self._one(self._results, variant.result),
                )
                for variant in record.variants
            ),
        )
