"""The work done per case file, in any process: validate it, and later audit it.

An audit reads each case file twice. The first pass (:func:`check_case`) parses
and validates it and builds every trial, keeping only the problems and a
fingerprint — the digest of the case's canonical form, trials resolved — and, for
a case file without problems, its plan: the baseline checked twice and every
variant's eligibility (:mod:`~textcontract.audit.running._planning`, the
preflight's per-case work). Nothing of that is used, and no exception of it is
raised, until every case of the corpus is valid. Only then, and only when the
preflight passed, does the second pass (:func:`audit_case`) read each case again,
build the same trials, check that the fingerprint is the same (else a file changed
during the audit), and evaluate its trials. So the audit never holds more than one
case's documents at a time, and both passes can run in workers.

With a cache (``audit --cache``, SPEC §13) a case file validated before is rebuilt from
its cached YAML value instead of being parsed, the baseline's first check run takes its
rules' results from the cache, and the second pass takes a case's records, or its rules'
results on each trial, from the cache. The cache holds evaluation results only: waivers
are applied to a case's records after they are found or computed (SPEC §17.4), so
nothing cached depends on ``--as-of``.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from functools import cached_property
from pathlib import Path
from typing import Any, NamedTuple

from textcontract.audit.reading import (
    Case,
    CaseReader,
    Relation,
    Trial,
    Variant,
    build_trial,
    join_display,
)
from textcontract.audit.results import (
    CasePlan,
    CaseRecord,
    Counted,
    ExcludedReason,
    Labels,
    TrialResult,
    VariantRecord,
    preserve_verdict,
    probe_trials,
    violation_verdict,
    waive_record,
)
from textcontract.audit.running._cache import CacheFolder, is_digest, is_hex_digest
from textcontract.audit.running._case_memo import (
    Quotes,
    file_sha256,
    id_location,
    outline_json,
    recall_outline,
    recall_tree,
    remember,
)
from textcontract.audit.running._check_sharing import SharedChecks
from textcontract.audit.running._evaluation import TextMemo, evaluate_trials
from textcontract.audit.running._planning import (
    Outline,
    label_exclusion,
    labels,
    plan_case,
    plan_outline,
)
from textcontract.audit.running._result_cache import (
    CachedCase,
    RecordMemo,
    read_case,
    write_case,
)
from textcontract.audit.running._rule_cache import (
    BaselineResults,
    CaseRuleResults,
    PendingBaseline,
    RuleKey,
    TrialDigests,
    rule_keys,
)
from textcontract.canonical import canonical_json
from textcontract.contract import ParsedContract, parse_contract_file
from textcontract.errors import InternalError, Location, Problem
from textcontract.fields import FieldReader
from textcontract.model import Context, Document, Severity
from textcontract.strength import OutcomeState, ProbeRole, Waiver, reduce_trials

__all__ = [
    "CaseCheck",
    "CaseEntry",
    "CaseOutcome",
    "CaseTask",
    "CaseWork",
    "ContractFile",
    "WorkSetup",
    "audit_case",
    "case_item",
    "check_case",
    "raise_baseline",
    "read_checked",
]


@dataclass(frozen=True)
class ContractFile:
    """Where a worker loads the contract from when it cannot be pickled, and its digest."""

    path: str
    display: str
    digest: str


@dataclass(frozen=True)
class WorkSetup:
    """What every process needs to read and audit cases.

    It goes along with every batch sent to a worker, which makes its :class:`CaseWork`
    from it once per pass (the contract is unpickled once).
    """

    root: str
    display: str
    rules: dict[str, Severity] | None
    """Rule id → severity (``None`` when the contract did not load: no rule is checked)."""
    allow_missing_rules: bool
    catch_threshold: float
    contract: bytes | ContractFile | None
    """The pickled contract, else its file; ``None`` when it did not load."""
    waived_probes: frozenset[str] = frozenset()
    """Probe ids audit.yaml's waivers name: the first pass says what each one is."""
    waivers: tuple[Waiver, ...] = ()
    """The waivers in force on ``as_of``, applied by the audit pass (SPEC §17.4)."""
    as_of: date | None = None
    cache: str | None = None
    """The cache folder (``audit --cache``), or ``None``."""

    def __call__(self) -> CaseWork:
        return CaseWork(self)


class CaseWork:
    """One process's state: how to read cases, and the contract (loaded on first use)."""

    def __init__(self, setup: WorkSetup, parsed: ParsedContract | None = None) -> None:
        self.setup = setup
        self._parsed = parsed

    @property
    def parsed(self) -> ParsedContract:
        if self._parsed is None:
            self._parsed = _receive(self.setup.contract)
        return self._parsed

    @property
    def evaluates(self) -> bool:
        """Whether this process has a contract to check baselines with."""
        return self._parsed is not None or self.setup.contract is not None

    @cached_property
    def folder(self) -> CacheFolder | None:
        return None if self.setup.cache is None else CacheFolder(self.setup.cache)

    @cached_property
    def record_memo(self) -> RecordMemo:
        return {}

    @cached_property
    def rule_keys(self) -> tuple[RuleKey, ...]:
        return rule_keys(self.parsed)

    @cached_property
    def resolved_root(self) -> Path:
        return Path(self.setup.root).resolve()

    def reader(self, problems: list[Problem]) -> CaseReader:
        setup = self.setup
        return CaseReader(
            Path(setup.root), setup.display, setup.rules, setup.allow_missing_rules, problems
        )

    def display(self, file: str) -> str:
        """How a case file (relative to the corpus folder) is named in messages."""
        return join_display(self.setup.display, file)

    def read(self, file: str, problems: list[Problem], quotes: Quotes | None = None) -> Case | None:
        """The case in ``file`` (relative to the corpus folder); problems go to ``problems``.

        ``quotes`` hears of every file the case quotes and of the file's YAML value (for
        the cache).
        """
        reader = self.reader(problems)
        if quotes is not None:
            reader.on_quote, reader.on_tree = quotes, quotes.tree
        return reader.case(Path(self.setup.root, file), self.display(file))

    def reread(
        self, file: str, problems: list[Problem], fingerprint: bytes
    ) -> tuple[Case | None, bool, Any]:
        """The case in ``file`` again, from its YAML value in the cache when it is there,
        whether it is known to be the case with ``fingerprint`` and, when it is, the trial
        keys the entry holds (unchecked; ``None`` when not known).

        The value is found by the file's bytes as they are now (:meth:`from_entry`).
        """
        folder = self.folder
        content = None if folder is None else file_sha256(Path(self.setup.root, file))
        body = None if folder is None or content is None else recall_tree(folder, file, content)
        if body is None:
            return self.read(file, problems), False, None
        case, known = self.from_entry(file, body, content or "", fingerprint, problems)
        return case, known, body.get("keys") if known else None

    def from_entry(
        self,
        file: str,
        body: dict[str, Any],
        content: str,
        fingerprint: bytes,
        problems: list[Problem],
    ) -> tuple[Case | None, bool]:
        """The case a ``validated`` cache entry holds the YAML value of, and whether it is
        known to be the case with ``fingerprint``.

        A case read that way has no line numbers (nothing is reported from it: it was
        validated before). It is known to be the validated case when the entry has this
        fingerprint and every file the case quotes resolves where, and has, before it is
        read and after the case is built, the bytes the entry records — then its
        fingerprint need not be taken again.

        A known case's variants are the entry's outline (its labels, as the first pass
        planned them) with only their changes read from the YAML value; when that does not
        give a known case without problems, the whole value is read again.
        """
        same = body.get("fingerprint") == fingerprint.hex()
        outline = recall_outline(body, Location(self.display(file))) if same else None
        if outline is not None:
            found: list[Problem] = []
            case, known = self._case_of_entry(file, body, content, found, outline[0])
            if known and not found:
                return case, known
        case, known = self._case_of_entry(file, body, content, problems, None)
        return case, same and known

    def _case_of_entry(
        self,
        file: str,
        body: dict[str, Any],
        content: str,
        problems: list[Problem],
        outline: Sequence[Variant] | None,
    ) -> tuple[Case | None, bool]:
        """:meth:`from_entry` with the variants' labels from ``outline`` when given (only
        their changes read from the YAML value; trusted only when the case is known)."""
        quotes = Quotes(self.resolved_root)
        reader = self.reader(problems)
        reader.on_quote = quotes
        path = Path(self.setup.root, file)
        case = reader.case_tree(body["tree"][0], None, path, self.display(file), outline)
        known = (
            quotes.recorded() == body.get("files")
            and quotes.unchanged()
            and file_sha256(path) == content
        )
        return case, known

    def recall_baseline(
        self, file: str, body: dict[str, Any], content: str
    ) -> tuple[Document, Context] | None:
        """The baseline of a ``validated`` entry's case, when every file the case quotes
        resolves where, and has the bytes, the entry records, and the case file still has
        the bytes ``content``; else ``None``."""
        tree = body["tree"][0]
        if not isinstance(tree, dict) or not isinstance(tree.get("baseline"), dict):
            return None
        quotes = Quotes(self.resolved_root)
        problems: list[Problem] = []
        reader = self.reader(problems)
        reader.on_quote = quotes
        path = Path(self.setup.root, file)
        shown = self.display(file)
        fields = FieldReader(shown)
        document, context = reader.baseline(fields, tree, path.parent, os.path.dirname(shown))
        recorded = body.get("files")
        if (
            document is None
            or context is None
            or problems
            or fields.problems
            or not isinstance(recorded, list)
            or not all(found in recorded for found in quotes.recorded())
            or not quotes.resolve_as_recorded(path.parent, recorded)
            or not quotes.unchanged()
            or file_sha256(path) != content
        ):
            return None
        return document, context

    def severity(self, variant: Variant) -> Severity:
        """Declared, else the highest severity among the expected rules present, else medium."""
        if variant.severity is not None:
            return variant.severity
        rules = self.setup.rules or {}
        present = [rules[e.rule] for e in variant.expect if e.rule in rules]
        return max(present, default=Severity.MEDIUM)


def _receive(contract: bytes | ContractFile | None) -> ParsedContract:
    if contract is None:
        raise InternalError("no contract to evaluate with")
    if isinstance(contract, bytes):
        parsed: ParsedContract = pickle.loads(contract)
        return parsed
    parsed = parse_contract_file(Path(contract.path), contract.display)
    if parsed.digest != contract.digest:
        raise InternalError(
            f"a worker loaded {contract.display} with another digest ({parsed.digest}); "
            "was the file changed, or does the contract need a custom rule registry? "
            "run with --jobs 1"
        )
    return parsed


@dataclass(frozen=True, slots=True)
class CaseCheck:
    """The first pass over one case file: what is wrong with it, else its fingerprint."""

    id: str | None
    """``None`` when the file could not be read as a case at all."""
    location: Location | None
    problems: tuple[Problem, ...]
    trial_problems: tuple[Problem, ...]
    """Problems found building trials (reported after every file's own problems)."""
    fingerprint: bytes | None
    """The SHA-256 of :func:`case_item`; ``None`` when there were problems."""
    variants: int
    roles: tuple[tuple[str, ProbeRole], ...] = ()
    """What each of the case's probes that a waiver names is (canary, control, eligible)."""
    plan: CasePlan | None = None
    """The preflight's plan of a case without problems (``None`` when its baseline raised)."""
    hits: int = 0
    """Rule evaluations of the baseline's first check run found in the cache."""
    misses: int = 0
    pending: PendingBaseline | None = None
    """Results of the baseline's first check run for the second pass to store."""


@dataclass(frozen=True, slots=True)
class CaseEntry:
    """A validated case, as the corpus keeps it until the second pass reads it again."""

    id: str
    file: str
    """The case file, relative to the corpus folder."""
    fingerprint: bytes
    variants: int
    plan: CasePlan | None = None
    """The preflight's plan (``None``: checking the baseline raised, to be raised again)."""
    pending: PendingBaseline | None = None
    """Results of the baseline's first check run for the second pass to store."""

    @property
    def baseline_clean(self) -> bool | None:
        return None if self.plan is None else self.plan.accepted and self.plan.complete


@dataclass(frozen=True, slots=True)
class CaseTask:
    """What the second pass does with one case."""

    entry: CaseEntry
    evaluate: bool = True
    """False for a case outside this run's shard: only its part of the corpus digests."""
    item: bool = True
    """Whether the corpus digest is needed (not known from the cache)."""


@dataclass(frozen=True)
class CaseOutcome:
    """The second pass over one case: its records and its parts of the corpus digests."""

    record: CaseRecord | None
    """``None`` for a case that was not evaluated (outside the shard)."""
    item: bytes | None
    """The case's canonical form, trials resolved: one item of the corpus digest's list
    (``None`` when the task did not ask for it)."""
    baseline_digest: str
    hits: int = 0
    misses: int = 0


def _build(case: Case, problems: list[Problem]) -> list[list[Trial]]:
    """Every trial of every variant, in order; what is wrong with a change goes to ``problems``."""
    built = []
    for variant in case.variants:
        trials = []
        for change in variant.trials:
            trial, found = build_trial(case.document, case.context, change)
            problems.extend(found)
            trials.append(trial)
        built.append(trials)
    return built


def case_item(case: Case, trials: list[list[Trial]]) -> bytes:
    """SPEC §6: a case in the corpus digest, every variant's trials resolved (canonical JSON)."""
    return canonical_json(
        {
            "id": case.id,
            "group": case.group,
            "baseline": {"document": case.document.to_json(), "context": case.context.to_json()},
            "variants": [
                {**variant.labels_json(), "trials": [trial.to_json() for trial in built]}
                for variant, built in zip(case.variants, trials, strict=True)
            ],
        }
    )


def _fingerprint(item: bytes) -> bytes:
    return hashlib.sha256(item).digest()


def check_case(work: CaseWork, file: str) -> CaseCheck:
    """First pass: parse and validate a case file, build every trial and plan the case.

    With a cache, a file validated before (its bytes and every file it quotes unchanged)
    is not parsed again: the case is rebuilt from its cached YAML value.
    """
    folder = work.folder
    content = None
    if folder is not None:
        content = file_sha256(Path(work.setup.root, file))
        recalled = None if content is None else _recalled(work, folder, file, content)
        if recalled is not None:
            return recalled
    problems: list[Problem] = []
    quotes = None if folder is None else Quotes(work.resolved_root)
    case = work.read(file, problems, quotes)
    if case is None:
        return CaseCheck(None, None, tuple(problems), (), None, 0)
    trial_problems: list[Problem] = []
    trials = _build(case, trial_problems)
    if problems or trial_problems:
        return CaseCheck(
            case.id,
            case.location,
            tuple(problems),
            tuple(trial_problems),
            None,
            len(case.variants),
            _roles(case.id, case.variants, work.setup.waived_probes),
        )
    fingerprint = _fingerprint(case_item(case, trials))
    identical = _identical(case, trials)
    if folder is not None and content is not None and quotes is not None:
        _remember(work, folder, file, content, quotes, (case, trials, identical), fingerprint)
    return _checked(work, case, trials, identical, fingerprint)


def _identical(case: Case, trials: list[list[Trial]]) -> Callable[[int], bool]:
    """Whether every trial of the variant at an index equals the baseline, each asked once."""
    found: dict[int, bool] = {}

    def identical(index: int) -> bool:
        if index not in found:
            baseline = (case.document, case.context)
            found[index] = all(trial.same_as(*baseline) for trial in trials[index])
        return found[index]

    return identical


def _checked(
    work: CaseWork,
    case: Case,
    trials: list[list[Trial]],
    identical: Callable[[int], bool],
    fingerprint: bytes,
) -> CaseCheck:
    """The first pass of a valid case: its fingerprint, its probes' roles and its plan."""
    outline = Outline(case.id, case.variants, [len(built) for built in trials], identical)
    return _planned(work, outline, (case.document, case.context), case.location, fingerprint)


def _planned(
    work: CaseWork,
    outline: Outline,
    baseline: tuple[Document, Context],
    location: Location,
    fingerprint: bytes,
) -> CaseCheck:
    """:func:`_checked` of a case given by its :class:`Outline` and baseline."""
    plan, hits, misses, pending = _plan(work, outline, baseline)
    return CaseCheck(
        outline.case,
        location,
        (),
        (),
        fingerprint,
        len(outline.variants),
        _roles(outline.case, outline.variants, work.setup.waived_probes),
        plan,
        hits,
        misses,
        pending,
    )


def _plan(
    work: CaseWork, outline: Outline, baseline: tuple[Document, Context]
) -> tuple[CasePlan | None, int, int, PendingBaseline | None]:
    """The case's plan, the cache hits and misses of its baseline's first check run, and
    what of that run the second pass is to store.

    An exception is kept back (``None``) until the corpus is known valid.
    """
    if not work.evaluates:
        return None, 0, 0, None
    folder = work.folder
    results = None if folder is None else BaselineResults(folder, outline.case, work.rule_keys)
    document, context = baseline
    rules = work.setup.rules or {}
    try:
        plan = plan_outline(work.parsed, outline, document, context, rules, work.severity, results)
    except Exception:  # raised again, with its traceback, once every input is validated
        return None, 0, 0, None
    if results is None:
        return plan, 0, 0, None
    pending = results.save()
    return plan, results.hits, results.misses, pending


def raise_baseline(work: CaseWork, entry: CaseEntry) -> None:
    """Check the baseline of a case whose plan could not be made, so that its error surfaces."""
    case, trials, _ = read_checked(work, entry)
    plan_case(work.parsed, case, trials, work.setup.rules or {}, work.severity)
    raise InternalError(f"checking the baseline of {case.id} failed in the first pass only")


def _roles(
    case_id: str, variants: Sequence[Variant], named: frozenset[str]
) -> tuple[tuple[str, ProbeRole], ...]:
    if not named:
        return ()
    found = []
    for variant in variants:
        probe_id = f"{case_id}/{variant.id}"
        if probe_id in named:
            if variant.relation is Relation.PRESERVE:
                found.append((probe_id, ProbeRole.CLEAN_CONTROL))
            else:
                found.append((probe_id, ProbeRole.CANARY if variant.canary else ProbeRole.ELIGIBLE))
    return tuple(found)


def _remember(
    work: CaseWork,
    folder: CacheFolder,
    file: str,
    content: str,
    quotes: Quotes,
    built: tuple[Case, list[list[Trial]], Callable[[int], bool]],
    fingerprint: bytes,
) -> None:
    """Record a valid case's first pass, unless a file it read changed meanwhile."""
    case, trials, identical = built
    where = case.location
    if where.path != ("id",) or where.line is None or where.column is None:
        return
    if file_sha256(Path(work.setup.root, file)) != content or not quotes.unchanged():
        return
    found = {
        "id": case.id,
        "at": [where.line, where.column],
        "variants": len(case.variants),
        "fingerprint": fingerprint.hex(),
        "rules": sorted({e.rule for variant in case.variants for e in variant.expect}),
        "outline": [
            outline_json(
                variant,
                len(built),
                None if label_exclusion(variant) is not None else identical(index),
            )
            for index, (variant, built) in enumerate(zip(case.variants, trials, strict=True))
        ],
        "keys": _keys_of(trials),
    }
    remember(folder, file, content, quotes, found)


def _keys_of(trials: list[list[Trial]]) -> list[list[str]]:
    """Every trial's key for the rule results (the second pass looks them up by it)."""
    digests = TrialDigests()
    return [[digests.trial(trial.document, trial.context) for trial in built] for built in trials]


def _entry_fields(work: CaseWork, body: dict[str, Any]) -> tuple[str, int, int, bytes] | None:
    """A ``validated`` entry's case id, line and column of the id, and fingerprint, when
    they are well formed and the rules its expectations name suit this contract."""
    setup = work.setup
    try:
        case_id, (line, column) = body["id"], body["at"]
        variants, fingerprint = body["variants"], body["fingerprint"]
        expected = body["rules"]
    except (KeyError, TypeError, ValueError):
        return None
    if not (
        isinstance(case_id, str)
        and all(type(n) is int for n in (line, column, variants))
        and is_hex_digest(fingerprint)
        and isinstance(expected, list)
        and all(isinstance(rule, str) for rule in expected)
    ):
        return None
    if not (
        setup.rules is None or setup.allow_missing_rules or set(expected) <= setup.rules.keys()
    ):
        return None
    return case_id, line, column, bytes.fromhex(fingerprint)


def _recalled(work: CaseWork, folder: CacheFolder, file: str, content: str) -> CaseCheck | None:
    """The first pass of a case file validated before, planned from its cached entry;
    ``None`` when anything it depends on changed (the file is then read as without a cache).

    Only the baseline is built (from the entry's YAML value); the variants come from the
    entry's outline, and the files their changes quote are hashed, not read.
    """
    body = recall_tree(folder, file, content)
    fields = None if body is None else _entry_fields(work, body)
    if body is None or fields is None:
        return None
    case_id, line, column, fingerprint = fields
    location = id_location(work.display(file), line, column)
    outlined = recall_outline(body, location)
    if outlined is None or len(outlined[0]) != body["variants"]:
        return None
    baseline = work.recall_baseline(file, body, content)
    if baseline is None:
        return None
    variants, trials, flags = outlined
    if any(
        (flag is None) != (label_exclusion(variant) is not None)
        for variant, flag in zip(variants, flags, strict=True)
    ):
        return None  # an entry that says nothing of a variant it should: not trusted

    def identical(index: int) -> bool:
        return bool(flags[index])

    outline = Outline(case_id, variants, trials, identical)
    return _planned(work, outline, baseline, location, fingerprint)


def _changed(work: CaseWork, entry: CaseEntry) -> InternalError:
    return InternalError(
        f"{work.display(entry.file)} (or a file it names) changed while it was audited; "
        "run the audit again"
    )


def read_checked(work: CaseWork, entry: CaseEntry) -> tuple[Case, list[list[Trial]], bytes]:
    """A validated case read again, its trials built and its fingerprint checked."""
    problems: list[Problem] = []
    case = work.read(entry.file, problems)
    if case is None or problems:
        raise _changed(work, entry)
    trials = _build(case, problems)
    item = case_item(case, trials)
    if problems or _fingerprint(item) != entry.fingerprint:
        raise _changed(work, entry)
    return case, trials, item


def _rebuild(work: CaseWork, entry: CaseEntry, need_item: bool) -> _Rebuilt:
    """Read a validated case again and build its trials; it must be what the first pass saw.

    Its canonical form (the corpus digest's item) is returned when ``need_item``; it is
    taken anyway, and held to the fingerprint, unless the cache vouches for the case.
    """
    problems: list[Problem] = []
    case, known, keys = work.reread(entry.file, problems, entry.fingerprint)
    if case is None or problems:
        raise _changed(work, entry)
    trials = _build(case, problems)
    if problems:
        raise _changed(work, entry)
    if known and not need_item:
        return _Rebuilt(case, trials, None, _trial_keys(keys, trials))
    item = case_item(case, trials)
    if _fingerprint(item) != entry.fingerprint:
        raise _changed(work, entry)
    return _Rebuilt(case, trials, item, _trial_keys(keys, trials) if known else None)


class _Rebuilt(NamedTuple):
    case: Case
    trials: list[list[Trial]]
    item: bytes | None
    keys: list[list[str]] | None
    """Every trial's key (:class:`TrialDigests`), from the case's validated entry."""


def _trial_keys(keys: Any, trials: list[list[Trial]]) -> list[list[str]] | None:
    """The trial keys a vouched-for entry holds, when they fit the built trials."""
    if not isinstance(keys, list) or len(keys) != len(trials):
        return None
    for found, built in zip(keys, trials, strict=True):
        if not isinstance(found, list) or len(found) != len(built):
            return None
        if not all(is_digest(key) for key in found):
            return None
    return keys


def _agrees(record: CaseRecord, plan: CasePlan) -> bool:
    """Whether cached records have the variants, labels and exclusions the plan has (a
    variant's ``exposure`` is in no fingerprint: an edited one must not be served stale)."""
    variants = list(record.variants)
    if record.case != plan.case or len(variants) != len(plan.variants):
        return False
    for found, planned in zip(variants, plan.variants, strict=True):
        excluded = found.result if isinstance(found.result, ExcludedReason) else None
        if (found.variant, found.labels, excluded) != (
            planned.variant,
            planned.labels,
            planned.excluded,
        ):
            return False
    return True


def _evaluator(parsed: ParsedContract) -> str:
    """What a case's records are filed under: the contract, and ICU's version when its rules
    cut tokens with ICU (the Unicode versions are in every key, :mod:`._cache`)."""
    icu = parsed.icu_version
    return parsed.digest if icu is None else f"{parsed.digest} icu {icu}"


def _cached(work: CaseWork, entry: CaseEntry, plan: CasePlan) -> CachedCase | None:
    if work.folder is None:
        return None
    found = read_case(
        work.folder,
        _evaluator(work.parsed),
        entry.id,
        entry.fingerprint,
        work.setup.catch_threshold,
        work.record_memo,
    )
    return found if found is not None and _agrees(found.record, plan) else None


def _waived(work: CaseWork, record: CaseRecord) -> CaseRecord:
    setup = work.setup
    if not setup.waivers or setup.as_of is None:
        return record
    return waive_record(record, setup.waivers, setup.as_of, setup.catch_threshold)


def audit_case(work: CaseWork, task: CaseTask) -> CaseOutcome:
    """Second pass over one case: evaluate it (or find its records in the cache), then
    apply the waivers in force.

    A case outside the shard, or whose records the cache holds, is read again only when
    its part of the corpus digest is needed.
    """
    entry = task.entry
    plan = entry.plan
    if task.evaluate and plan is None:
        raise InternalError(f"the baseline of {entry.id} was not checked before its audit")
    cached = None if plan is None or not task.evaluate else _cached(work, entry, plan)
    if cached is not None:
        _file_pending(work, entry)
    if cached is not None and not task.item:
        record = _waived(work, cached.record)
        return CaseOutcome(record, None, cached.baseline_digest, cached.evaluations)
    case, trials, item, keys = _rebuild(work, entry, task.item)
    if not task.evaluate or plan is None:
        return CaseOutcome(None, item, case.baseline_digest)
    if cached is not None:
        record = _waived(work, cached.record)
        return CaseOutcome(record, item, cached.baseline_digest, cached.evaluations)
    folder = work.folder
    results = None if folder is None else CaseRuleResults(folder, case.id, work.rule_keys)
    if results is not None and entry.pending is not None:
        results.adopt(entry.pending)
    if results is not None and keys is not None:
        for built, found in zip(trials, keys, strict=True):
            for trial, key in zip(built, found, strict=True):
                results.know(trial.document, trial.context, key)
    record = _evaluate_case(work, case, trials, plan, results)
    if results is None or folder is None:
        return CaseOutcome(_waived(work, record), item, case.baseline_digest)
    results.save()
    evaluations = results.hits + results.misses
    if results.complete and not _infrastructure_error(record):
        summary = CachedCase(record, case.baseline_digest, evaluations)
        write_case(
            folder, _evaluator(work.parsed), entry.fingerprint, work.setup.catch_threshold, summary
        )
    return CaseOutcome(
        _waived(work, record), item, case.baseline_digest, results.hits, results.misses
    )


def _file_pending(work: CaseWork, entry: CaseEntry) -> None:
    """Store the first pass's baseline results of a case whose records the cache holds
    (the rare run whose baseline lookups missed while its records did not)."""
    if work.folder is None or entry.pending is None or not entry.pending.computed:
        return
    results = CaseRuleResults(work.folder, entry.id, work.rule_keys)
    results.adopt(entry.pending)
    results.save()


def _infrastructure_error(record: CaseRecord) -> bool:
    return any(
        isinstance(variant.result, Counted)
        and OutcomeState.INFRASTRUCTURE_ERROR in variant.result.states
        for variant in record.variants
    )


def _counted(labels: Labels, results: tuple[TrialResult, ...], catch_threshold: float) -> Counted:
    """An evaluated variant's verdict and trial states, before any waiver."""
    states = tuple(result.state for result in results)
    if labels.relation is not Relation.VIOLATION:
        return Counted(preserve_verdict(results), states)
    reduced = reduce_trials(probe_trials("", labels, states), catch_threshold)
    return Counted(violation_verdict(results, reduced), states)


def _evaluate_case(
    work: CaseWork,
    case: Case,
    trials: list[list[Trial]],
    plan: CasePlan,
    cached: CaseRuleResults | None,
) -> CaseRecord:
    """Evaluate a case's eligible variants (no waiver applied).

    Eligibility is the plan's (SPEC order: label, then invalid baseline, then identical
    trials), made by the first pass from this very case (its fingerprint is checked).
    """
    if [planned.variant for planned in plan.variants] != [v.id for v in case.variants]:
        raise InternalError(f"the plan of {case.id} does not have the case's variants")
    parsed = work.parsed
    memo = TextMemo()
    shared = SharedChecks(parsed.rules)
    records = []
    for variant, built, planned in zip(case.variants, trials, plan.variants, strict=True):
        found = labels(variant, work.severity(variant))
        if planned.excluded is not None:
            records.append(VariantRecord(variant.id, found, planned.excluded))
            continue
        results = evaluate_trials(
            parsed, variant.relation, variant.expect, built, memo, cached, shared
        )
        records.append(
            VariantRecord(variant.id, found, _counted(found, results, work.setup.catch_threshold))
        )
    return CaseRecord(case.id, tuple(records))
