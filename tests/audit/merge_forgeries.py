"""Forged parts of real sharded audits, for the ``merge`` trust tests (not a test module).

:data:`FIELDS` names every field of a part's case record and, for one record, the forged
values of that field; :func:`forgeries` applies them to a representative record of each
kind (violation or preserve, canary, outcome and reason, one trial or several, waived,
excluded for each reason) in the parts of :func:`sharded` audits. :func:`resummarized`
is a forger's second step: the part's report summed up again from its forged records, so
that the part agrees with itself.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from textcontract.audit import (
    AuditResult,
    CorpusFacts,
    Part,
    Shard,
    audit_directory,
    corpus_facts,
    merge_audit,
)
from textcontract.audit.results import (
    ExcludedReason,
    ExpectedStatus,
    Outcome,
    case_record_from_json,
    report_json,
    summarize_records,
)
from textcontract.contract import Lineage
from textcontract.errors import InputError, RefusedArtifactSet
from textcontract.formats.json_text import write_pretty
from textcontract.model import RuleVersion, Severity
from textcontract.strength import (
    Exposure,
    ProbeClass,
    RunEvidence,
    ScoringPolicy,
    Waiver,
    parse_date,
)

Record = dict[str, Any]
Report = dict[str, Any]

LABELS = ("case", "variant", "relation", "class", "family", "severity", "canary",
          "expect.rule", "expect.code", "expect.scope", "expect+", "expect-", "exposure",
          "excluded", "states+", "states-")  # fmt: skip
"""Fields the case files give (the trial count too): only ``--corpus`` can check them."""
SHAPE = ("expect+", "expect-", "states", "states+", "states-", "waivers")
"""Fields whose forgery may break a record's shape (an input error, exit 2): a status or a
trial state more or fewer, a waiver named by a trial that is not not-applicable."""


def rendered(result: AuditResult) -> str:
    """The report as ``--format json`` prints it."""
    chunks: list[str] = []
    write_pretty(result.streamed_report(), chunks.append)
    return "".join(chunks)


@dataclass(frozen=True)
class Sharded:
    """The parts of one sharded audit (as read back from their files), the unsharded
    audit's report text and exit code, and what ``--corpus`` reads of the corpus."""

    corpus: Path
    parts: tuple[Report, ...]
    full: str
    code: int
    facts: CorpusFacts

    def merged(self, at: int, forged: Report, *, corpus: bool = False) -> tuple[str, str]:
        """``(how, message)``: ``refused`` (exit 4), ``malformed`` (exit 2), else
        ``identical`` to the unsharded audit (bytes and exit code) or ``different``."""
        parts = [
            Part(f"part-{index + 1}.json", forged if index == at else report)
            for index, report in enumerate(self.parts)
        ]
        try:
            result = merge_audit(parts, corpus=self.facts if corpus else None)
        except RefusedArtifactSet as refused:
            return "refused", str(refused)
        except InputError as error:
            return "malformed", str(error)
        same = rendered(result) == self.full and int(result.exit_code) == self.code
        return ("identical" if same else "different"), ""


def sharded(corpus: Path, count: int, as_of: date | None = None) -> Sharded:
    parts = tuple(
        json.loads(json.dumps(audit_directory(corpus, shard=Shard(k, count), as_of=as_of).report))
        for k in range(1, count + 1)
    )
    full = audit_directory(corpus, as_of=as_of)
    return Sharded(corpus, parts, rendered(full), int(full.exit_code), corpus_facts(corpus))


@dataclass(frozen=True)
class Target:
    """One record of one part: where it is, and what it holds."""

    part: int
    case: int
    variant: int
    case_id: str
    record: Record

    @property
    def probe(self) -> str:
        return f"{self.case_id}/{self.record['variant']}"

    @property
    def path(self) -> str:
        return f"shard.cases[{self.case}].variants[{self.variant}]"

    @property
    def excluded(self) -> bool:
        return "excluded" in self.record


def _kind(record: Record) -> tuple[Any, ...]:
    if "excluded" in record:
        return ("excluded", record["relation"], record["excluded"])
    return (record["relation"], record["canary"], record["outcome"], record["reason"],
            len(record["states"]) > 1, bool(record["waivers"]), record["exposure"])  # fmt: skip


def targets(run: Sharded) -> Iterator[Target]:
    """The first record of each kind in the run's parts."""
    seen = set()
    for part, report in enumerate(run.parts):
        for case, entry in enumerate(report["shard"]["cases"]):
            for variant, record in enumerate(entry["variants"]):
                if _kind(record) not in seen:
                    seen.add(_kind(record))
                    yield Target(part, case, variant, entry["case"], record)


def _others(values: list[Any], current: Any) -> list[Any]:
    return [value for value in values if value != current]


def _each(record: Record, key: str, values: Callable[[Any], list[Any]]) -> list[Any]:
    """Lists with one entry of ``record[key]`` replaced, for every entry and value."""
    found = []
    for index, current in enumerate(record[key]):
        for value in values(current):
            found.append([*record[key][:index], value, *record[key][index + 1 :]])
    return found


def _expect(target: Target, slot: int, values: tuple[str, str]) -> list[Any]:
    """The record's expectations with one part of the first changed (to the first of
    ``values`` it does not already hold)."""
    expect = target.record["expect"]
    if not expect:
        return []
    first = expect[0]
    value = values[0] if first[slot] != values[0] else values[1]
    return [[[*first[:slot], value, *first[slot + 1 :]], *expect[1:]]]


_STATES = ["caught", "missed", "not-applicable", "unreached", "oracle-error",
           "infrastructure-error", "passed-clean-control", "false-positive",
           "confirmed"]  # fmt: skip
_REASONS = [None, "accepted", "unrelated-rejection", "undetermined", "waived",
            "below-catch-threshold", "rejected", "incomplete"]  # fmt: skip

_WAIVER = "refund-wording-q4"
"""The waiver the production corpus declares."""

Forge = Callable[[Target], list[Any]]
FIELDS: dict[str, Forge] = {
    "case": lambda _: ["order-9999", "bad id"],
    "variant": lambda _: ["forged-id", "bad/id"],
    "relation": lambda t: _others(["violation", "preserve"], t.record["relation"]),
    "class": lambda t: _others([c.value for c in ProbeClass], t.record["class"]),
    "family": lambda t: _others(["forged", "wording"], t.record["family"]),
    "severity": lambda t: _others([s.value for s in Severity], t.record["severity"]),
    "canary": lambda t: [not t.record["canary"]],
    "expect.rule": lambda t: _expect(t, 0, ("tracking-link", "enough-content")),
    "expect.code": lambda t: _expect(t, 1, ("FORGED_CODE", "OTHER_CODE")),
    "expect.scope": lambda t: _expect(t, 2, ("surface:forged", "surface:other")),
    "expect+": lambda t: [[*t.record["expect"], ["not-a-resend", "REUSED_TEXT", "surface:body"]]],
    "expect-": lambda t: [t.record["expect"][:-1]] if t.record["expect"] else [],
    "exposure": lambda t: _others([e.value for e in Exposure], t.record["exposure"]),
    "excluded": lambda t: _others([r.value for r in ExcludedReason], t.record.get("excluded")),
    "outcome": lambda t: _others([o.value for o in Outcome], t.record.get("outcome")),
    "reason": lambda t: _others(_REASONS, t.record["reason"]) if not t.excluded else [],
    "statuses": lambda t: (
        _each(t.record, "statuses", lambda s: _others([e.value for e in ExpectedStatus], s))
        if not t.excluded
        else []
    ),
    "states": lambda t: (
        _each(t.record, "states", lambda s: _others(_STATES, s)) if not t.excluded else []
    ),
    "states+": lambda t: [[*t.record["states"], t.record["states"][-1]]] if not t.excluded else [],
    "states-": lambda t: [t.record["states"][:-1]] if not t.excluded else [],
    "waivers": lambda t: _waivers(t.record) if not t.excluded else [],
}
"""Per field, the forged values of one record's field (lists whole, one entry changed)."""


def _waivers(record: Record) -> list[Any]:
    """No trial naming a waiver, or one trial naming another (or none, or one)."""
    if record["waivers"]:
        named = _each(record, "waivers", lambda w: ["forged-waiver", None] if w else [_WAIVER])
        return [[], *named]
    return [[(_WAIVER if i == 0 else None) for i in range(len(record["states"]))]]


def _key(field: str) -> str:
    return field.split(".")[0].rstrip("+-")


def forged_part(report: Report, target: Target, field: str, value: Any) -> Report:
    """``report`` with one field of the target's record (or its case id) set to ``value``;
    only the objects on the way are copied."""
    cases = list(report["shard"]["cases"])
    entry = dict(cases[target.case])
    if field == "case":
        entry["case"] = value
    else:
        variants = list(entry["variants"])
        variants[target.variant] = {**variants[target.variant], _key(field): value}
        entry["variants"] = variants
    cases[target.case] = entry
    return {**report, "shard": {**report["shard"], "cases": cases}}


def forgeries(
    runs: tuple[Sharded, ...], field: str, *, each: int | None = None
) -> Iterator[tuple[Sharded, Target, Report]]:
    """Every forgery of ``field`` of every representative record, as a whole part (the
    first ``each`` values per record, when given)."""
    for run in runs:
        for target in targets(run):
            if field != "case" and _key(field) not in target.record:
                continue
            for value in FIELDS[field](target)[:each]:
                yield run, target, forged_part(run.parts[target.part], target, field, value)


@dataclass(frozen=True)
class _Contract:
    id: str
    version: RuleVersion
    digest: str
    lineage: Lineage | None


def _evidence(report: Report) -> RunEvidence:
    block = report["waivers"]
    waivers: tuple[Waiver, ...] = ()
    as_of = None
    if block is not None:
        as_of = parse_date(block["as_of"])
        waivers = tuple(
            Waiver(w["id"], tuple(w["scope"]["probes"]), tuple(w["scope"]["rules"]),
                   w["reason"], w["approved_by"], parse_date(w["expires"]) or date.min)
            for w in block["declared"]
        )  # fmt: skip
    return RunEvidence(
        recommendation=report["evaluator_recommendation"],
        waivers=waivers,
        as_of=as_of,
        preflight_digest=report["preflight"]["digest"],
    )


def resummarized(report: Report) -> Report:
    """The part as a shard would have written it, had its records been these (the report
    summed up from them, the run read from the part itself)."""
    records = [case_record_from_json(entry) for entry in report["shard"]["cases"]]
    block = report["contract"]
    lineage = block["lineage"]
    contract = _Contract(
        block["id"],
        block["version"],
        block["digest"],
        None if lineage is None else Lineage(lineage["parent_digest"], lineage["revision_count"]),
    )
    policy = {key: value for key, value in report["policy"].items() if key != "digest"}
    findings = summarize_records(
        contract,
        [(rule["rule"], Severity(rule["severity"])) for rule in report["shard"]["rules"]],
        ScoringPolicy.from_json(policy, "part"),
        tuple(sorted(records, key=lambda record: record.case)),
        report["corpus"]["digest"],
        report["corpus"]["fixture_digest"],
        mode=report["mode"],
        evidence=_evidence(report),
    )
    return {**json.loads(json.dumps(report_json(findings))), "shard": report["shard"]}


TRUSTED_STATUSES = {"missed": {"satisfied", "absent"}}
"""Expected statuses a missed trial may have either of: the checks behind them are not kept."""
TRUSTED_REASONS = ({"accepted", "unrelated-rejection"}, {"rejected", "incomplete"})
"""Reasons that depend on a trial's report (accepted or not), which a record does not keep."""


def trusted(target: Target, field: str, forged: Report) -> bool:
    """Whether a forged derived field is one ``merge`` trusts (docs/scale.md)."""
    record = forged["shard"]["cases"][target.case]["variants"][target.variant]
    if field == "reason":
        pair = {target.record["reason"], record["reason"]}
        return any(pair <= allowed for allowed in TRUSTED_REASONS)
    if field == "statuses":
        states = target.record["states"]
        first = next((i for i, state in enumerate(states) if state != "caught"), 0)
        reference = 0 if target.record["outcome"] == "detected" else first
        waived = bool(target.record["waivers"]) and target.record["waivers"][reference]
        allowed = TRUSTED_STATUSES.get("missed" if waived else states[reference], set())
        return set(record["statuses"]) | set(target.record["statuses"]) <= allowed
    return False
