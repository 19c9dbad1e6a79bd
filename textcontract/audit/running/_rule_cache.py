"""Cached rule results (SPEC §13): one rule's checks on one trial, found again by content.

An entry's key is the engine version and Unicode versions (:mod:`._cache`), the rule's own
digest (its part of the contract digest: id, type, version, code, severity, enforcement,
parameters with defaults; for a rule cutting tokens with ICU, the ICU version too) and the
trial's key: the digest of its canonical document and context with each surface's origin
(SPEC §10) added — a surface's origin is in no digest, but located evidence depends on
it. The entries of one rule for the trials of one case are kept together in one file,
named by the rule's digest and the case id, so a case reads each rule's results in one go
and only the process auditing that case writes them. A baseline's results (the
preflight's first check run, SPEC §17.3) are kept, every rule's, in one file per case
(:class:`BaselineResults`), written by the process that validates the case; a result the
first pass computes for a rule that file lacks is handed to the second pass, which files
it with that rule's results on the case (an edited rule then creates a file per case,
rather than replacing one, which costs several times more on some file systems).

A result holding an ``error`` check (a rule that raised, a pattern that ran out of time)
is never stored: it is computed again on every run, because a timeout depends on the
machine and an exception may not happen twice.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from textcontract.audit.running._cache import CacheFolder, is_digest
from textcontract.canonical import canonical_json, digest
from textcontract.contract import ParsedContract, RuleEntry
from textcontract.model import Check, Context, Document, Enforcement, Severity, Status, Surface
from textcontract.rules import BUILTIN_TYPES, RuleType

__all__ = [
    "BaselineResults",
    "CaseRuleResults",
    "PendingBaseline",
    "RuleKey",
    "RuleResults",
    "TrialDigests",
    "TrialLookup",
    "TrialResults",
    "located_surface_json",
    "rule_keys",
]

KIND = "rules"
BASELINE_KIND = "baselines"
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False)
_STATUSES = {status.value: status for status in Status}
_SEVERITIES = {severity.value: severity for severity in Severity}
_ENFORCEMENTS = {enforcement.value: enforcement for enforcement in Enforcement}


@dataclass(frozen=True)
class RuleKey:
    """A rule and what its results are filed under (``None``: its results are not cached)."""

    rule: RuleType
    digest: str | None


def _implementation(rule_type: type[RuleType]) -> str | None:
    """A plugin rule type's code, as far as it can be named: its module and its version."""
    if rule_type in BUILTIN_TYPES:
        return "builtin"
    top = rule_type.__module__.partition(".")[0]
    distributions = importlib.metadata.packages_distributions().get(top, [])
    if len(distributions) != 1:
        return None  # no version to file its results under: never cached
    version = importlib.metadata.version(distributions[0])
    return f"{distributions[0]} {version} {rule_type.__module__}.{rule_type.__qualname__}"


def _rule_key(entry: RuleEntry) -> RuleKey:
    implementation = _implementation(type(entry.rule))
    if implementation is None:
        return RuleKey(entry.rule, None)
    filed: dict[str, Any] = {"rule": entry.digest_form(), "code": implementation}
    icu = entry.rule.segmenter.icu_version
    if icu is not None:  # its tokens come from ICU's dictionaries, which change between versions
        filed["icu"] = icu
    return RuleKey(entry.rule, digest(filed))


def rule_keys(parsed: ParsedContract) -> tuple[RuleKey, ...]:
    """Every rule of the contract, in order, with the digest its results are filed under."""
    return tuple(_rule_key(entry) for entry in parsed.entries)


def _check_row(check: Check) -> list[Any]:
    """What a check holds beyond its rule's header (which every cached check matches)."""
    return [
        check.status.value,
        check.code,
        check.scope,
        check.severity.value,
        check.enforcement.value,
        [dict(item) for item in check.evidence],
        dict(check.metrics),
        check.message,
    ]


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _check(rule: RuleType, row: Any) -> Check:
    """The check a row holds; ``ValueError`` when it is not a row :func:`_check_row` writes."""
    if not isinstance(row, list) or len(row) != 8:
        raise ValueError("not a check row")
    status, code, scope, severity, enforcement, evidence, metrics, message = row
    if not (
        isinstance(code, str)
        and isinstance(scope, str)
        and isinstance(message, str)
        and isinstance(evidence, list)
        and all(isinstance(item, dict) for item in evidence)
        and isinstance(metrics, dict)
        and all(_number(value) for value in metrics.values())
    ):
        raise ValueError("not a check row")
    header = rule.header
    return Check(
        rule_id=header.id,
        rule_version=header.version,
        type=header.type,
        kind=header.kind,
        status=_STATUSES[status],
        code=code,
        scope=scope,
        severity=_SEVERITIES[severity],
        enforcement=_ENFORCEMENTS[enforcement],
        evidence=tuple(evidence),
        metrics=metrics,
        message=message,
    )


class _RulePack:
    """One rule's results on one case's trials: those read from the cache, those added.

    Most trials of a case give a rule the same checks, so the file holds each distinct
    result once (``results``, as check rows) and maps trial digests to them (``trials``).
    """

    __slots__ = ("_decoded", "_results", "_trials", "digest", "kept", "key", "rule", "written")

    def __init__(self, folder: CacheFolder, case_id: str, rule: RuleKey, digest: str) -> None:
        self.rule = rule.rule
        self.digest = digest
        self.key = folder.key(KIND, {"rule": digest, "case": case_id})
        self._results, self._trials = _contents(folder.read(KIND, self.key), digest, case_id)
        self._decoded: dict[int, list[Check] | None] = {}
        self.kept: dict[str, str | int] = {}
        """Trial digest → its result: new ones as JSON text, ones read as their index in
        ``results``. What the file will hold if it is rewritten."""
        self.written = False

    def _decode(self, index: int) -> list[Check] | None:
        if index not in self._decoded:
            try:
                rows = self._results[index]
                checks = [_check(self.rule, row) for row in rows]
            except (ValueError, KeyError, TypeError, IndexError):
                checks = []
            self._decoded[index] = checks or None
        return self._decoded[index]

    def lookup(self, trial: str) -> list[Check] | None:
        index = self._trials.get(trial)
        if type(index) is not int:
            return None
        checks = self._decoded[index] if index in self._decoded else self._decode(index)
        if checks is not None:
            self.kept[trial] = index
        return checks

    def add(self, trial: str, checks: Sequence[Check]) -> bool:
        """Keep a new result; ``False`` when it holds an error and is not kept."""
        if any(check.status is Status.ERROR for check in checks):
            return False
        self.kept[trial] = _ENCODER.encode([_check_row(check) for check in checks])
        self.written = True
        return True

    def keep(self, trial: str, rows: str) -> None:
        """Keep a result given as JSON rows, found or made elsewhere: the file's own
        entry when it holds the trial, else the rows (and the file is to be written)."""
        if trial in self.kept:
            return
        index = self._trials.get(trial)
        if type(index) is int:
            self.kept[trial] = index
        else:
            self.kept[trial] = rows
            self.written = True

    def body(self, case_id: str) -> str:
        """The file's body as JSON text, each distinct result once."""
        read: dict[int, str] = {}
        distinct: dict[str, int] = {}
        trials = {}
        for trial, result in self.kept.items():
            if isinstance(result, int):
                if result not in read:
                    read[result] = _ENCODER.encode(self._results[result])
                text = read[result]
            else:
                text = result
            trials[trial] = distinct.setdefault(text, len(distinct))
        head = _ENCODER.encode({"rule": self.digest, "case": case_id, "trials": trials})
        return head[:-1] + ',"results":[' + ",".join(distinct) + "]}"


def _contents(body: Any, rule: str, case_id: str) -> tuple[list[Any], dict[str, Any]]:
    if (
        isinstance(body, dict)
        and list(body) == ["rule", "case", "trials", "results"]
        and body["rule"] == rule
        and body["case"] == case_id
        and isinstance(body["trials"], dict)
        and isinstance(body["results"], list)
    ):
        return body["results"], body["trials"]
    return [], {}


def located_surface_json(surface: Surface) -> dict[str, Any]:
    """A surface's canonical form with its origin (where located evidence is counted from)."""
    origin = surface.origin
    return {**surface.to_json(), "origin": [origin.line, origin.file_lines]}


class TrialDigests:
    """Trial keys for the trials of one case, each surface and context serialized once.

    The trials of a case share most of their surfaces and contexts (the same objects), so
    the canonical JSON of ``{"document", "context"}`` — each surface with its origin
    (:func:`located_surface_json`) — is put together from pieces kept by object; the
    result is its SHA-256, byte for byte.
    """

    def __init__(self) -> None:
        # the objects are kept with their text, so an id is never reused while it is here
        self._surfaces: dict[int, tuple[Surface, bytes]] = {}
        self._contexts: dict[int, tuple[Context, bytes]] = {}
        self._known: dict[tuple[int, int], tuple[Document, Context, str]] = {}

    def know(self, document: Document, context: Context, key: str) -> None:
        """Take ``key`` as the trial key of (``document``, ``context``) — one an earlier
        pass computed from the very same case (the caller vouches for it)."""
        self._known[id(document), id(context)] = (document, context, key)

    def _surface(self, surface: Surface) -> bytes:
        found = self._surfaces.get(id(surface))
        if found is None:
            located = canonical_json(located_surface_json(surface))
            text = canonical_json(surface.name) + b":" + located
            found = self._surfaces[id(surface)] = (surface, text)
        return found[1]

    def _context(self, context: Context) -> bytes:
        found = self._contexts.get(id(context))
        if found is None:
            found = self._contexts[id(context)] = (context, canonical_json(context.to_json()))
        return found[1]

    def trial(self, document: Document, context: Context) -> str:
        known = self._known.get((id(document), id(context)))
        if known is not None:
            return known[2]
        surfaces = sorted(document.surfaces, key=lambda surface: surface.name)
        parts = [
            b'{"context":',
            self._context(context),
            b',"document":{"surfaces":{',
            b",".join(self._surface(surface) for surface in surfaces),
            b"}}}",
        ]
        return "sha256:" + hashlib.sha256(b"".join(parts)).hexdigest()


class TrialLookup(Protocol):
    """One trial's cached results, rule by rule (index = the rule's place in the contract)."""

    def lookup(self, index: int) -> list[Check] | None: ...

    def add(self, index: int, checks: Sequence[Check]) -> None: ...


class RuleResults(Protocol):
    """Where a case's check runs find cached results: its trials', or its baseline's."""

    def trial(self, document: Document, context: Context) -> TrialLookup: ...


class TrialResults:
    """The cached results of one trial, rule by rule (index = the rule's place in the contract)."""

    __slots__ = ("_case", "_trial")

    def __init__(self, case: CaseRuleResults, trial: str) -> None:
        self._case = case
        self._trial = trial

    def lookup(self, index: int) -> list[Check] | None:
        packs = self._case.packs
        pack = packs[index] if index in packs else self._case.pack(index)
        found = None if pack is None else pack.lookup(self._trial)
        if found is None:
            self._case.misses += 1
        else:
            self._case.hits += 1
        return found

    def add(self, index: int, checks: Sequence[Check]) -> None:
        pack = self._case.pack(index)
        if pack is None or not pack.add(self._trial, checks):
            self._case.complete = False


class CaseRuleResults:
    """Every rule's cached results on the trials of one case; :meth:`save` writes what is new."""

    def __init__(self, folder: CacheFolder, case_id: str, rules: Sequence[RuleKey]) -> None:
        self._folder = folder
        self._case_id = case_id
        self._rules = rules
        self.packs: dict[int, _RulePack | None] = {}
        """Rule index → its results on this case's trials (read on first use)."""
        self._digests = TrialDigests()
        self.hits = self.misses = 0
        self.complete = True
        """False once a result could not be stored (an error, a rule whose results are not
        cached): the case's summary is then not stored either."""

    def pack(self, index: int) -> _RulePack | None:
        if index not in self.packs:
            rule = self._rules[index]
            self.packs[index] = (
                None
                if rule.digest is None
                else _RulePack(self._folder, self._case_id, rule, rule.digest)
            )
        return self.packs[index]

    def trial(self, document: Document, context: Context) -> TrialResults:
        return TrialResults(self, self._digests.trial(document, context))

    def know(self, document: Document, context: Context, key: str) -> None:
        """See :meth:`TrialDigests.know`."""
        self._digests.know(document, context, key)

    def adopt(self, pending: PendingBaseline) -> None:
        """File the first pass's results on the case's baseline with each rule's results."""
        for index, rows in pending.results:
            pack = self.pack(index)
            if pack is not None:
                pack.keep(pending.trial, rows)

    def save(self) -> None:
        """Write the file of every rule that gained a result on this case."""
        for pack in self.packs.values():
            if pack is not None and pack.written:
                self._folder.write_encoded(KIND, pack.key, pack.body(self._case_id))


class PendingBaseline(NamedTuple):
    """Results of a baseline's first check run that the first pass computed and left for
    the second to file with each rule's results on the case (:meth:`CaseRuleResults.adopt`)."""

    trial: str
    """The baseline's trial key."""
    results: tuple[tuple[int, str], ...]
    """(rule index, the rule's checks as JSON rows), in rule order: every result the
    case's file lacks, found in the rule's file or computed."""
    computed: bool
    """Whether any of them was computed (a rule's file is to be written)."""


class BaselineResults:
    """Every rule's cached results on one case's baseline: one file per case, and the
    rules' own files.

    The case's file holds the baseline's key and, per rule digest, its checks as rows; a
    rule it lacks is looked for in that rule's file of results on the case (where the
    second pass files what the first computed). :meth:`save` writes the case's file whole
    when there is none, when it is another baseline's (an edited case), or when it lacks
    most of the contract's rules; otherwise it writes nothing and hands what was computed
    to the second pass (:class:`PendingBaseline`): an edit to one rule then creates one
    file per case, rather than replacing one. Results of rules not in this contract stay
    (going back to an earlier revision of a rule finds them again).
    """

    def __init__(self, folder: CacheFolder, case_id: str, rules: Sequence[RuleKey]) -> None:
        self._folder = folder
        self._case_id = case_id
        self._rules = rules
        self._key = folder.key(BASELINE_KIND, {"case": case_id})
        body = folder.read(BASELINE_KIND, self._key)
        self._stored, self._results = _baseline_contents(body, case_id)
        self._trial: str | None = None
        self._found: dict[int, str] = {}
        """Rule index → a result found in the rule's own file, as JSON text."""
        self._added: dict[int, str] = {}
        """Rule index → a result computed in this run, as JSON text."""
        self._digests = TrialDigests()
        self.hits = self.misses = 0

    def trial(self, document: Document, context: Context) -> _BaselineLookup:
        return _BaselineLookup(self, self._digests.trial(document, context))

    def lookup(self, trial: str, index: int) -> list[Check] | None:
        self._trial = trial
        rule = self._rules[index]
        checks = None
        if rule.digest is not None:
            rows = None if trial != self._stored else self._results.get(rule.digest)
            checks = _checks(rule.rule, rows)
            if checks is None:
                checks = self._in_rule_file(trial, index, rule.digest)
        if checks is None:
            self.misses += 1
        else:
            self.hits += 1
        return checks

    def _in_rule_file(self, trial: str, index: int, digest: str) -> list[Check] | None:
        pack = _RulePack(self._folder, self._case_id, self._rules[index], digest)
        checks = pack.lookup(trial)
        if checks is not None:
            self._found[index] = _ENCODER.encode([_check_row(check) for check in checks])
        return checks

    def add(self, trial: str, index: int, checks: Sequence[Check]) -> None:
        if self._rules[index].digest is None or any(c.status is Status.ERROR for c in checks):
            return
        self._trial = trial
        self._added[index] = _ENCODER.encode([_check_row(check) for check in checks])

    def save(self) -> PendingBaseline | None:
        """Write the case's file when it must be (see the class); else what the second
        pass is to file, when anything was computed."""
        trial = self._trial
        if trial is None or not (self._added or self._found):
            return None
        cached = sum(rule.digest is not None for rule in self._rules)
        elsewhere = len(self._found) + len(self._added)
        if trial == self._stored and 2 * elsewhere <= cached:
            results = sorted({**self._found, **self._added}.items())
            return PendingBaseline(trial, tuple(results), bool(self._added))
        rules: dict[str, str] = {}
        if trial == self._stored:
            rules = {
                digest: _ENCODER.encode(rows)
                for digest, rows in self._results.items()
                if is_digest(digest) and isinstance(rows, list)
            }
        for index, rows in {**self._found, **self._added}.items():
            rules[self._rules[index].digest or ""] = rows
        head = _ENCODER.encode({"case": self._case_id, "baseline": trial})
        joined = ",".join(f"{_ENCODER.encode(d)}:{rows}" for d, rows in sorted(rules.items()))
        self._folder.write_encoded(
            BASELINE_KIND, self._key, head[:-1] + ',"rules":{' + joined + "}}"
        )
        return None


def _checks(rule: RuleType, rows: Any) -> list[Check] | None:
    """The checks a baseline entry's rows hold; ``None`` when they are not rows of checks."""
    if not isinstance(rows, list) or not rows:
        return None
    try:
        return [_check(rule, row) for row in rows]
    except (ValueError, KeyError, TypeError):
        return None


class _BaselineLookup:
    __slots__ = ("_results", "_trial")

    def __init__(self, results: BaselineResults, trial: str) -> None:
        self._results = results
        self._trial = trial

    def lookup(self, index: int) -> list[Check] | None:
        return self._results.lookup(self._trial, index)

    def add(self, index: int, checks: Sequence[Check]) -> None:
        self._results.add(self._trial, index, checks)


def _baseline_contents(body: Any, case_id: str) -> tuple[str | None, dict[str, Any]]:
    if (
        isinstance(body, dict)
        and list(body) == ["case", "baseline", "rules"]
        and body["case"] == case_id
        and is_digest(body["baseline"])
        and isinstance(body["rules"], dict)
    ):
        return body["baseline"], body["rules"]
    return None, {}
