"""``textcontract merge``: the full audit report from the part files of a sharded audit.

Every part must come from the same engine version (this one), the same corpus, contract,
scoring policy, thresholds and shard count, and together they must hold every shard
exactly once; otherwise the set is refused (:class:`RefusedArtifactSet`, exit 4) naming
the first offending part. The figures are never read from the parts: the case records
of every shard are put back in case-id order and summed up again, so the merged report
is the report an unsharded audit writes, byte for byte.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from textcontract._version import ENGINE_NAME, __version__
from textcontract.audit.results._findings import Findings, summarize_records
from textcontract.audit.results._record_json import RecordError, case_record_from_json
from textcontract.audit.results._report import AUDIT_VERSION
from textcontract.audit.results._shards import SHARD_HASH, Shard
from textcontract.audit.results._variant_records import CaseRecord
from textcontract.errors import InputError, Location, Problem, RefusedArtifactSet
from textcontract.model import RuleVersion, Severity
from textcontract.strength import ScoringPolicy

__all__ = ["MergedAudit", "Part", "merge_parts"]

_SAME = ("audit_version", "engine", "corpus", "contract", "policy")
"""Report blocks every part must share, in the order they are compared."""
_SHARD_SAME = ("count", "hash", "cases_in_corpus", "rules", "thresholds")


@dataclass(frozen=True)
class Part:
    """One part file as read: how it is named in messages, and its JSON value."""

    name: str
    report: Any


@dataclass(frozen=True)
class _Contract:
    id: str
    version: RuleVersion
    digest: str


@dataclass(frozen=True)
class MergedAudit:
    findings: Findings
    thresholds: dict[str, float | None]


def _bad(part: Part, key: str, message: str) -> InputError:
    return InputError(Problem(f"{key}: {message}", Location(part.name, key=key)))


def _refused(part: Part, message: str) -> RefusedArtifactSet:
    return RefusedArtifactSet(f"merge refuses {part.name}: {message}")


def _block(part: Part) -> dict[str, Any]:
    """The part's ``shard`` block, with the report keys merge reads present."""
    report = part.report
    if not isinstance(report, dict) or "audit_version" not in report:
        raise _bad(part, "$", "not an audit report (a part file of `audit --shard K/N`)")
    missing = [key for key in (*_SAME, "shard") if key not in report]
    if missing:
        what = "not a part file (no --shard)" if missing == ["shard"] else "missing"
        raise _bad(part, missing[0], what)
    block = report["shard"]
    keys = ("index", "count", "hash", "cases_in_corpus", "rules", "thresholds", "cases")
    if not isinstance(block, dict) or list(block) != list(keys):
        raise _bad(part, "shard", f"expected an object with the keys {', '.join(keys)}")
    return block


def _identity(part: Part, first: Part) -> None:
    """Refuse a part that does not come from the run ``first`` comes from."""
    engine = part.report["engine"]
    if engine != {"name": ENGINE_NAME, "version": __version__}:
        raise _refused(part, f"written by engine {engine!r}, this is {ENGINE_NAME} {__version__}")
    if part.report["audit_version"] != AUDIT_VERSION:
        raise _refused(
            part, f"audit_version {part.report['audit_version']!r} is not {AUDIT_VERSION}"
        )
    for key in _SAME:
        if part.report[key] != first.report[key]:
            raise _refused(part, f"its {key} differs from {first.name}'s")
    for key in _SHARD_SAME:
        if part.report["shard"][key] != first.report["shard"][key]:
            raise _refused(part, f"its shard.{key} differs from {first.name}'s")
    if part.report["shard"]["hash"] != SHARD_HASH:
        raise _refused(part, f"shard.hash {part.report['shard']['hash']!r} is not {SHARD_HASH}")


def _shard(part: Part) -> Shard:
    block = part.report["shard"]
    index, count = block["index"], block["count"]
    if type(index) is not int or type(count) is not int or not 1 <= index <= count:
        raise _bad(part, "shard.index", "expected an index K with 1 <= K <= count")
    return Shard(index, count)


def _records(part: Part, shard: Shard, seen: dict[str, str]) -> list[CaseRecord]:
    cases = part.report["shard"]["cases"]
    if not isinstance(cases, list):
        raise _bad(part, "shard.cases", "expected a list")
    records = []
    for index, value in enumerate(cases):
        try:
            record = case_record_from_json(value, ("shard", "cases", index))
        except RecordError as error:
            raise _bad(part, str(error).partition(":")[0], str(error).partition(": ")[2]) from None
        if not shard.holds(record.case):
            raise _refused(part, f"case {record.case!r} does not belong to shard {shard}")
        if record.case in seen:
            raise _refused(part, f"case {record.case!r} is also in {seen[record.case]}")
        seen[record.case] = part.name
        records.append(record)
    return records


def _policy(part: Part) -> ScoringPolicy:
    block = part.report["policy"]
    if not isinstance(block, dict):
        raise _bad(part, "policy", "expected an object")
    policy = ScoringPolicy.from_json({k: v for k, v in block.items() if k != "digest"}, part.name)
    if policy.report_json() != block:
        raise _bad(part, "policy", "does not recompute (its digest or a field is wrong)")
    return policy


def _rules(part: Part) -> tuple[tuple[str, Severity], ...]:
    found = []
    for index, item in enumerate(part.report["shard"]["rules"]):
        if not isinstance(item, dict) or list(item) != ["rule", "severity"]:
            raise _bad(part, f"shard.rules[{index}]", "expected {rule, severity}")
        try:
            found.append((str(item["rule"]), Severity(item["severity"])))
        except ValueError:
            raise _bad(part, f"shard.rules[{index}].severity", "not a severity") from None
    return tuple(found)


def _contract(part: Part) -> _Contract:
    block = part.report["contract"]
    if not isinstance(block, dict) or list(block)[:3] != ["id", "version", "digest"]:
        raise _bad(part, "contract", "expected an object with id, version and digest")
    return _Contract(block["id"], block["version"], block["digest"])


def _thresholds(part: Part) -> dict[str, float | None]:
    value = part.report["shard"]["thresholds"]
    names = ["detection", "preservation"]
    if not isinstance(value, dict) or list(value) != names:
        raise _bad(part, "shard.thresholds", "expected {detection, preservation}")
    for name in names:
        if value[name] is not None and not isinstance(value[name], int | float):
            raise _bad(part, f"shard.thresholds.{name}", "expected a number or null")
    return {name: value[name] for name in names}


def merge_parts(parts: Sequence[Part]) -> MergedAudit:
    """The findings of a whole sharded audit from its parts (in any order)."""
    if not parts:
        raise InputError.at("merge needs at least one part file", "merge")
    for part in parts:
        _block(part)
    first = parts[0]
    by_index: dict[int, Part] = {}
    seen: dict[str, str] = {}
    records: list[CaseRecord] = []
    for part in parts:
        _identity(part, first)
        shard = _shard(part)
        if shard.index in by_index:
            raise _refused(part, f"shard {shard} is also {by_index[shard.index].name}")
        by_index[shard.index] = part
        records.extend(_records(part, shard, seen))
    count = first.report["shard"]["count"]
    missing = [index for index in range(1, count + 1) if index not in by_index]
    if missing:
        raise RefusedArtifactSet(f"merge refuses the set: shard {missing[0]}/{count} is missing")
    if len(records) != first.report["shard"]["cases_in_corpus"]:
        raise _refused(first, "the parts do not hold every case of the corpus")
    records.sort(key=lambda record: record.case)
    corpus = first.report["corpus"]
    if not isinstance(corpus, dict) or not all(
        isinstance(corpus.get(key), str) for key in ("digest", "fixture_digest")
    ):
        raise _bad(first, "corpus", "expected an object with digest and fixture_digest")
    findings = summarize_records(
        _contract(first),
        _rules(first),
        _policy(first),
        tuple(records),
        corpus["digest"],
        corpus["fixture_digest"],
    )
    return MergedAudit(findings, _thresholds(first))
