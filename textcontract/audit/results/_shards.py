"""Sharded audits (SPEC §16): which cases a shard evaluates, and what its part file adds.

A case belongs to shard ``K`` of ``N`` (``K`` from 1) when the first eight bytes of the
SHA-256 of its id (UTF-8), read as a big-endian unsigned integer, are ``K - 1`` modulo
``N``. The hash depends on the id alone: not on the file, the machine, the Python
version or the other cases, so every machine puts every case in the same shard.

A part file is an audit report over the shard's own cases (figures, strength and lists
as an audit of just those cases would show them; corpus, fixture and contract digests
of the whole corpus) plus a ``shard`` block holding what ``merge`` needs to rebuild the
full report: the case records (:mod:`textcontract.audit.results._record_json`), the
contract's rules with their severities (coverage gaps are read from them), the thresholds
in force and how many cases the whole corpus has.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from textcontract.audit.results._record_json import case_record_json
from textcontract.audit.results._variant_records import CaseRecord
from textcontract.model import Severity

__all__ = ["SHARD_HASH", "Shard", "shard_block"]

SHARD_HASH = "sha256-u64be-mod"
"""The name part files give the hash above; a part with another is refused."""

_SPEC = re.compile(r"(0|[1-9][0-9]*)/(0|[1-9][0-9]*)\Z")


@dataclass(frozen=True)
class Shard:
    """Shard ``index`` (1-based) of ``count``."""

    index: int
    count: int

    def __post_init__(self) -> None:
        if not 1 <= self.index <= self.count:
            raise ValueError(
                f"shard {self.index}/{self.count}: K must be between 1 and N "
                f"(1/{self.count} to {self.count}/{self.count})"
            )

    @classmethod
    def parse(cls, text: str) -> Shard:
        """``"K/N"``; :class:`ValueError` with a message for anything else."""
        found = _SPEC.match(text.strip())
        if found is None:
            raise ValueError(f"expected K/N, shard K of N counted from 1 (e.g. 2/4), got {text!r}")
        index, count = int(found.group(1)), int(found.group(2))
        if count == 0:
            raise ValueError(f"N is the number of shards, at least 1, got {text!r}")
        if index == 0:
            raise ValueError(
                f"K counts from 1: the shards of {count} are 1/{count} to {count}/{count}, "
                f"got {text!r}"
            )
        return cls(index, count)

    @staticmethod
    def of(case_id: str, count: int) -> int:
        """The (1-based) shard of ``count`` that case ``case_id`` falls in."""
        value = int.from_bytes(hashlib.sha256(case_id.encode("utf-8")).digest()[:8], "big")
        return value % count + 1

    def holds(self, case_id: str) -> bool:
        return self.of(case_id, self.count) == self.index

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


def shard_block(
    shard: Shard,
    cases_in_corpus: int,
    rules: Sequence[tuple[str, Severity]],
    thresholds: dict[str, float | None],
    records: Iterable[CaseRecord],
) -> dict[str, Any]:
    """The ``shard`` block of a part file; ``cases`` is produced as it is written."""

    def cases() -> Iterator[dict[str, Any]]:
        return (case_record_json(record) for record in records)

    return {
        "index": shard.index,
        "count": shard.count,
        "hash": SHARD_HASH,
        "cases_in_corpus": cases_in_corpus,
        "rules": [{"rule": rule, "severity": severity.value} for rule, severity in rules],
        "thresholds": thresholds,
        "cases": cases(),
    }
