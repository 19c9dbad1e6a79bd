"""``textcontract merge``: the full audit report from the part files of a sharded audit.

Every part must come from the same engine version (this one), the same mode, corpus,
contract (lineage included), preflight, scoring policy, evaluator recommendation, source
revision, waivers and waiver date, thresholds and shard count, and together they must
hold every shard exactly once; otherwise the set is refused (:class:`RefusedArtifactSet`,
exit 4) naming the first offending part. The figures are never read from the parts: the
case records of every shard (waivers applied, as each shard applied them) are put back in
case-id order and summed up again with the run's evidence — recommendation, waivers and
their date, preflight digest, source revision — so the merged report is the report an
unsharded audit writes, byte for byte: a waiver's status (honoured, unused, expired) and
the trials it waived are those of every shard together.

Every shard loads and preflights the whole corpus, so a failed preflight fails every
shard alike: each writes the same preflight verdict in place of its part.
:func:`failed_preflight` recognises a set of such verdicts, which ``merge`` passes on
(exit 5), as the unsharded audit would print it.

A part is not trusted to agree with itself (SPEC §22): every record's derived fields are
derived again (:mod:`~textcontract.audit.results._record_checks`) and the part's own report
is summed up again from its records and compared value by value
(:mod:`~textcontract.audit.results._part_checks`); a part that disagrees with itself is
refused, naming the record where one is at fault. Given the corpus (``merge --corpus DIR``,
:class:`CorpusFacts`), the parts' run and every record's labels are checked against it too
(:mod:`~textcontract.audit.results._corpus_checks`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from textcontract._version import ENGINE_NAME, __version__
from textcontract.audit.results._corpus_checks import (
    CorpusFacts,
    corpus_record_fault,
    run_difference,
)
from textcontract.audit.results._findings import Findings, summarize_records
from textcontract.audit.results._part_checks import report_difference
from textcontract.audit.results._record_checks import RecordFault, RunRules, record_fault
from textcontract.audit.results._record_json import RecordError, case_record_from_json
from textcontract.audit.results._report import AUDIT_VERSION, streamed_report
from textcontract.audit.results._shards import SHARD_HASH, Shard
from textcontract.audit.results._variant_records import CaseRecord
from textcontract.canonical import canonical_json
from textcontract.contract import Lineage
from textcontract.errors import InputError, Location, Problem, RefusedArtifactSet
from textcontract.fields import FieldReader
from textcontract.model import RuleVersion, Severity
from textcontract.strength import (
    MODES,
    PREFLIGHT_VERSION,
    PRODUCTION,
    Recommendation,
    RunEvidence,
    ScoringPolicy,
    Waiver,
    parse_date,
    read_source_revision,
)

__all__ = ["CorpusFacts", "MergedAudit", "Part", "failed_preflight", "merge_parts"]

_SAME = (
    "audit_version",
    "engine",
    "mode",
    "corpus",
    "contract",
    "policy",
    "preflight",
    "evaluator_recommendation",
    "source_revision",
)
"""Report blocks every part must share, in the order they are compared (the preflight's
digest covers the mode, corpus, contract and policy: those are named first)."""
_REQUIRED = (*_SAME, "waivers")
_SHARD_SAME = ("count", "hash", "cases_in_corpus", "rules", "thresholds")
_DECLARED = ("id", "reason", "approved_by", "expires", "scope", "status", "trials")


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
    lineage: Lineage | None


@dataclass(frozen=True)
class MergedAudit:
    findings: Findings
    thresholds: dict[str, float | None]


def _bad(part: Part, key: str, message: str) -> InputError:
    """A problem of a part file at ``key`` (``$``: the file as a whole, named alone)."""
    return InputError(Problem(message, Location(part.name, key=None if key == "$" else key)))


def _refused(part: Part, message: str) -> RefusedArtifactSet:
    return RefusedArtifactSet(f"merge refuses {part.name}: {message}")


def _is_failed_preflight(report: Any) -> bool:
    return (
        isinstance(report, dict)
        and report.get("preflight_version") == PREFLIGHT_VERSION
        and report.get("passed") is False
    )


def failed_preflight(
    parts: Sequence[Part], corpus: CorpusFacts | None = None
) -> dict[str, Any] | None:
    """The preflight verdict every part holds, when every part is the same failed one
    (what each shard of an audit whose preflight failed writes); else ``None``.

    A failed verdict beside a part, two different verdicts, or (given the corpus) a
    verdict that is not the corpus's preflight is refused (exit 4).
    """
    failed = [part for part in parts if _is_failed_preflight(part.report)]
    if not failed:
        return None
    first = failed[0]
    for part in parts:
        if not _is_failed_preflight(part.report):
            raise _refused(part, f"a part file, while {first.name} is a failed preflight verdict")
        if part.report != first.report:
            raise _refused(part, f"its preflight verdict differs from {first.name}'s")
    verdict: dict[str, Any] = first.report
    if corpus is not None:
        expected = replace(corpus.preflight, mode=str(verdict.get("mode"))).to_json()
        if canonical_json(verdict) != canonical_json(expected):
            raise _refused(first, f"its preflight verdict is not {corpus.name}'s")
    return verdict


def _block(part: Part) -> dict[str, Any]:
    """The part's ``shard`` block, with the report keys merge reads present."""
    report = part.report
    if not isinstance(report, dict) or "audit_version" not in report:
        raise _bad(part, "$", "not an audit report (a part file of `audit --shard K/N`)")
    missing = [key for key in (*_REQUIRED, "shard") if key not in report]
    if missing:
        what = "not a part file (no --shard)" if missing == ["shard"] else "missing"
        raise _bad(part, missing[0], what)
    block = report["shard"]
    keys = ("index", "count", "hash", "cases_in_corpus", "rules", "thresholds", "cases")
    if not isinstance(block, dict) or list(block) != list(keys):
        raise _bad(part, "shard", f"expected an object with the keys {', '.join(keys)}")
    return block


def _declarations(part: Part) -> Any:
    """The part's ``waivers`` block without what each shard finds (status, trials)."""
    block = part.report["waivers"]
    if block is None:
        return None
    if not isinstance(block, dict) or list(block) != ["as_of", "declared"]:
        raise _bad(part, "waivers", "expected null or an object with as_of and declared")
    declared = block["declared"]
    if not isinstance(declared, list) or not all(isinstance(item, dict) for item in declared):
        raise _bad(part, "waivers.declared", "expected a list of waivers")
    kept = [{k: v for k, v in item.items() if k not in ("status", "trials")} for item in declared]
    return {"as_of": block["as_of"], "declared": kept}


def _identity(part: Part, first: Part) -> None:
    """Refuse a part that does not come from the run ``first`` comes from."""
    engine = part.report["engine"]
    if not isinstance(engine, dict) or (engine.get("name"), engine.get("version")) != (
        ENGINE_NAME,
        __version__,
    ):
        raise _refused(part, f"written by engine {engine!r}, this is {ENGINE_NAME} {__version__}")
    if engine != first.report["engine"]:  # one report records one Unicode (and ICU) version
        raise _refused(part, f"its engine {engine!r} differs from {first.name}'s")
    if part.report["audit_version"] != AUDIT_VERSION:
        raise _refused(
            part, f"audit_version {part.report['audit_version']!r} is not {AUDIT_VERSION}"
        )
    for key in _SAME:
        if part.report[key] != first.report[key]:
            raise _refused(part, f"its {key} differs from {first.name}'s")
    if _declarations(part) != _declarations(first):
        raise _refused(part, f"its waivers (or their as_of date) differ from {first.name}'s")
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


def _record_refusal(part: Part, at: int, record: CaseRecord, fault: RecordFault) -> Exception:
    if fault.variant is None:
        where = f"shard.cases[{at}] ({record.case})"
    else:
        variant = list(record.variants)[fault.variant]
        where = f"shard.cases[{at}].variants[{fault.variant}] ({record.case}/{variant.variant})"
    return _refused(part, f"record {where}: {fault.message}")


def _records(
    part: Part, shard: Shard, seen: dict[str, str], run: _Run, corpus: CorpusFacts | None
) -> list[CaseRecord]:
    """The part's records, each one checked against itself, the run and the corpus."""
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
        fault = record_fault(record, run.rules)
        if fault is None and corpus is not None:
            fault = corpus_record_fault(record, corpus)
        if fault is not None:
            raise _record_refusal(part, index, record, fault)
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


def _lineage(part: Part, value: Any) -> Lineage | None:
    if value is None:
        return None
    if (
        not isinstance(value, dict)
        or list(value) != ["parent_digest", "revision_count"]
        or not (value["parent_digest"] is None or isinstance(value["parent_digest"], str))
        or type(value["revision_count"]) is not int
    ):
        raise _bad(part, "contract.lineage", "expected null or {parent_digest, revision_count}")
    return Lineage(value["parent_digest"], value["revision_count"])


def _contract(part: Part) -> _Contract:
    block = part.report["contract"]
    if not isinstance(block, dict) or list(block) != ["id", "version", "digest", "lineage"]:
        raise _bad(part, "contract", "expected an object with id, version, digest and lineage")
    lineage = _lineage(part, block["lineage"])
    return _Contract(block["id"], block["version"], block["digest"], lineage)


def _thresholds(part: Part) -> dict[str, float | None]:
    value = part.report["shard"]["thresholds"]
    names = ["detection", "preservation"]
    if not isinstance(value, dict) or list(value) != names:
        raise _bad(part, "shard.thresholds", "expected {detection, preservation}")
    for name in names:
        if value[name] is not None and not isinstance(value[name], int | float):
            raise _bad(part, f"shard.thresholds.{name}", "expected a number or null")
    return {name: value[name] for name in names}


def _mode(part: Part) -> str:
    mode = part.report["mode"]
    if mode not in MODES:
        raise _bad(part, "mode", f"expected one of {', '.join(MODES)}")
    return str(mode)


def _recommendation(part: Part, mode: str) -> str | None:
    value = part.report["evaluator_recommendation"]
    if mode != PRODUCTION:
        if value is not None:
            raise _bad(part, "evaluator_recommendation", "expected null (contract-scoring)")
        return None
    allowed = [item.value for item in Recommendation]
    if value not in allowed:
        raise _bad(part, "evaluator_recommendation", f"expected one of {', '.join(allowed)}")
    return str(value)


def _preflight_digest(part: Part) -> str | None:
    block = part.report["preflight"]
    if block is None:
        return None
    if (
        not isinstance(block, dict)
        or list(block) != ["passed", "digest"]
        or block["passed"] is not True
        or not isinstance(block["digest"], str)
    ):
        raise _bad(part, "preflight", "expected null or {passed: true, digest}")
    return block["digest"]


def _date(part: Part, value: Any, key: str) -> date:
    found = parse_date(value) if isinstance(value, str) else None
    if found is None:
        raise _bad(part, key, "expected a date (YYYY-MM-DD)")
    return found


def _strings(part: Part, value: Any, key: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise _bad(part, key, "expected a list of strings")
    return tuple(value)


def _waiver(part: Part, item: dict[str, Any], at: str) -> Waiver:
    if list(item) != list(_DECLARED):
        raise _bad(part, at, f"expected the keys {', '.join(_DECLARED)}")
    scope = item["scope"]
    if not isinstance(scope, dict) or list(scope) != ["probes", "rules"]:
        raise _bad(part, f"{at}.scope", "expected {probes, rules}")
    texts = [item[key] for key in ("id", "reason", "approved_by")]
    if not all(isinstance(text, str) for text in texts):
        raise _bad(part, at, "expected id, reason and approved_by as strings")
    return Waiver(
        item["id"],
        _strings(part, scope["probes"], f"{at}.scope.probes"),
        _strings(part, scope["rules"], f"{at}.scope.rules"),
        item["reason"],
        item["approved_by"],
        _date(part, item["expires"], f"{at}.expires"),
    )


def _waivers(part: Part) -> tuple[tuple[Waiver, ...], date | None]:
    block = _declarations(part)
    if block is None:
        return (), None
    declared = part.report["waivers"]["declared"]
    waivers = tuple(
        _waiver(part, item, f"waivers.declared[{index}]") for index, item in enumerate(declared)
    )
    return waivers, _date(part, block["as_of"], "waivers.as_of")


def _evidence(part: Part, mode: str) -> RunEvidence:
    """The run's evidence as the part records it (the same in every part)."""
    reader = FieldReader(part.name)
    revision = read_source_revision(reader, part.report["source_revision"], ("source_revision",))
    reader.raise_if_problems()
    waivers, as_of = _waivers(part)
    return RunEvidence(
        recommendation=_recommendation(part, mode),
        waivers=waivers,
        as_of=as_of,
        preflight_digest=_preflight_digest(part),
        source_revision=revision,
        engine=part.report["engine"],
    )


@dataclass(frozen=True)
class _Run:
    """What every part says of the run (the same in each, once :func:`_identity` held)."""

    contract: _Contract
    rules_severities: tuple[tuple[str, Severity], ...]
    policy: ScoringPolicy
    corpus: tuple[str, str]
    mode: str
    evidence: RunEvidence

    @property
    def rules(self) -> RunRules:
        evidence = self.evidence
        return RunRules(self.policy.catch_threshold, evidence.waivers, evidence.as_of)

    def summarize(self, records: Sequence[CaseRecord]) -> Findings:
        return summarize_records(
            self.contract,
            self.rules_severities,
            self.policy,
            tuple(sorted(records, key=lambda record: record.case)),
            *self.corpus,
            mode=self.mode,
            evidence=self.evidence,
        )


def _run(part: Part) -> _Run:
    corpus = part.report["corpus"]
    if not isinstance(corpus, dict) or not all(
        isinstance(corpus.get(key), str) for key in ("digest", "fixture_digest")
    ):
        raise _bad(part, "corpus", "expected an object with digest and fixture_digest")
    mode = _mode(part)
    return _Run(
        _contract(part),
        _rules(part),
        _policy(part),
        (corpus["digest"], corpus["fixture_digest"]),
        mode,
        _evidence(part, mode),
    )


def _gathered(
    parts: Sequence[Part], run: _Run, corpus: CorpusFacts | None
) -> list[tuple[Part, list[CaseRecord]]]:
    """Every part's records, once each shard and each case is known to be there once."""
    first = parts[0]
    by_index: dict[int, Part] = {}
    seen: dict[str, str] = {}
    gathered = []
    for part in parts:
        _identity(part, first)
        shard = _shard(part)
        if shard.index in by_index:
            raise _refused(part, f"shard {shard} is also {by_index[shard.index].name}")
        by_index[shard.index] = part
        if corpus is not None:
            difference = run_difference(part.report, _declarations(part), corpus, run.mode)
            if difference is not None:
                raise _refused(part, difference)
        gathered.append((part, _records(part, shard, seen, run, corpus)))
    count = first.report["shard"]["count"]
    missing = [index for index in range(1, count + 1) if index not in by_index]
    if missing:
        raise RefusedArtifactSet(f"merge refuses the set: shard {missing[0]}/{count} is missing")
    if len(seen) != first.report["shard"]["cases_in_corpus"]:
        raise _refused(first, "the parts do not hold every case of the corpus")
    return gathered


def merge_parts(parts: Sequence[Part], corpus: CorpusFacts | None = None) -> MergedAudit:
    """The findings of a whole sharded audit from its parts (in any order); with
    ``corpus``, every part is checked against it too."""
    if not parts:
        raise InputError.at("merge needs at least one part file", "merge")
    for part in parts:
        _block(part)
    run = _run(parts[0])
    records: list[CaseRecord] = []
    for part, found in _gathered(parts, run, corpus):
        difference = report_difference(part.report, streamed_report(run.summarize(found)))
        if difference is not None:
            raise _refused(part, difference)
        records.extend(found)
    return MergedAudit(run.summarize(records), _thresholds(parts[0]))
