"""The shared shape of relation rules: two facts named by ``{state, key}``.

Both facts must be known before the relation can be judged; otherwise the rule
emits one ``FIELD_UNAVAILABLE`` undetermined check naming what is missing.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterator
from typing import Any, ClassVar

from textcontract.model import Check, FactValue, Status
from textcontract.rules._base import Code, Options, RuleHeader, RuleType
from textcontract.rules._params import FactRef
from textcontract.rules._subject import Subject

__all__ = ["FIELD_UNAVAILABLE", "FactPairRule"]

FIELD_UNAVAILABLE = Code.of(
    "FIELD_UNAVAILABLE", "a snapshot or a key is missing", Status.UNDETERMINED
)


class FactPairRule(RuleType):
    """A rule over the facts named by its two ``sides`` parameters (scope ``$``)."""

    sides: ClassVar[tuple[str, str]]
    judging: ClassVar[str]
    """What cannot be judged when a fact is unknown, e.g. "compare"."""

    def __init__(self, header: RuleHeader, options: Options) -> None:
        super().__init__(header, options)
        self.first = options.fact_ref(self.sides[0])
        self.second = options.fact_ref(self.sides[1])

    def evaluate(self, subject: Subject) -> Iterator[Check]:
        refs = (self.first, self.second)
        found = [subject.context.fact(ref.state, ref.key) for ref in refs]
        missing = [
            _missing(side, ref, subject)
            for side, ref, (known, _) in zip(self.sides, refs, found, strict=True)
            if not known
        ]
        if missing:
            yield self.check(
                Status.UNDETERMINED,
                FIELD_UNAVAILABLE.name,
                "$",
                f"cannot {self.judging}: unknown " + " and ".join(_unknown(m) for m in missing),
                evidence=missing,
            )
            return
        (_, first), (_, second) = found
        evidence = [
            {"side": side, "state": ref.state, "key": ref.key, "value": value}
            for side, ref, value in zip(self.sides, refs, (first, second), strict=True)
        ]
        yield from self.judge(first, second, evidence)

    @abstractmethod
    def judge(
        self, first: FactValue, second: FactValue, evidence: list[dict[str, Any]]
    ) -> Iterator[Check]:
        """Checks for two known values; ``evidence`` describes both sides."""


def _missing(side: str, ref: FactRef, subject: Subject) -> dict[str, Any]:
    missing = "snapshot" if ref.state not in subject.context.states else "key"
    return {"side": side, "state": ref.state, "key": ref.key, "missing": missing}


def _unknown(item: dict[str, Any]) -> str:
    where = "no snapshot" if item["missing"] == "snapshot" else "not in snapshot"
    return f"{item['key']} ({where} {item['state']!r})"
