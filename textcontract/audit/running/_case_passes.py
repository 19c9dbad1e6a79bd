"""The work done per case file, in any process: validate it, and later audit it.

An audit reads each case file twice. The first pass (:func:`check_case`) parses
and validates it and builds every trial, keeping only the problems and a
fingerprint — the digest of the case's canonical form, trials resolved. Only
when every case of the corpus is valid does the second pass (:func:`audit_case`)
read it again, build the same trials, check that the fingerprint is the same
(else a file changed during the audit), and evaluate. So the audit never holds
more than one case's documents at a time, and both passes can run in workers.
"""

from __future__ import annotations

import hashlib
import pickle
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from textcontract.audit.reading import (
    Case,
    CaseReader,
    Relation,
    Trial,
    Validity,
    Variant,
    build_trial,
    join_display,
)
from textcontract.audit.results import (
    CaseRecord,
    Counted,
    ExcludedReason,
    Labels,
    VariantRecord,
    preserve_verdict,
    probe_trials,
    violation_verdict,
)
from textcontract.audit.running._cache import CacheFolder
from textcontract.audit.running._case_memo import (
    FileHashes,
    Quotes,
    file_sha256,
    id_location,
    recall,
    recall_tree,
    remember,
)
from textcontract.audit.running._evaluation import TextMemo, baseline_clean, evaluate_trials
from textcontract.audit.running._result_cache import CachedCase, read_case, write_case
from textcontract.audit.running._rule_cache import CaseRuleResults, RuleKey, rule_keys
from textcontract.canonical import canonical_json
from textcontract.contract import ParsedContract, parse_contract_file
from textcontract.errors import InternalError, Location, Problem
from textcontract.model import Severity
from textcontract.strength import OutcomeState, reduce_trials

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

    @cached_property
    def folder(self) -> CacheFolder | None:
        return None if self.setup.cache is None else CacheFolder(self.setup.cache)

    @cached_property
    def rule_keys(self) -> tuple[RuleKey, ...]:
        return rule_keys(self.parsed)

    @cached_property
    def resolved_root(self) -> Path:
        return Path(self.setup.root).resolve()

    @cached_property
    def file_hashes(self) -> FileHashes:
        return FileHashes()

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
    ) -> tuple[Case | None, bool]:
        """The case in ``file`` again, from its YAML value in the cache when it is there,
        and whether it is known to be the case with ``fingerprint``.

        The value is found by the file's bytes as they are now; a case read that way has
        no line numbers (nothing is reported from it: it was validated before). It is known
        to be the validated case when the cache entry has this fingerprint and every file
        the case quotes has, before it is read and after the case is built, the bytes the
        entry records — then its fingerprint need not be taken again.
        """
        folder = self.folder
        content = None if folder is None else file_sha256(Path(self.setup.root, file))
        body = None if folder is None or content is None else recall_tree(folder, file, content)
        if body is None:
            return self.read(file, problems), False
        quotes = Quotes(self.resolved_root)
        reader = self.reader(problems)
        reader.on_quote = quotes
        path = Path(self.setup.root, file)
        case = reader.case_tree(body["tree"][0], None, path, self.display(file))
        known = (
            body.get("fingerprint") == fingerprint.hex()
            and quotes.recorded() == body.get("files")
            and quotes.unchanged()
            and file_sha256(path) == content
        )
        return case, known

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


@dataclass(frozen=True, slots=True)
class CaseEntry:
    """A validated case, as the corpus keeps it until the second pass reads it again."""

    id: str
    file: str
    """The case file, relative to the corpus folder."""
    fingerprint: bytes
    variants: int


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
    """First pass: parse and validate a case file and build every trial.

    With a cache, a file validated before (its bytes and every file it quotes unchanged)
    is not read again: its check comes from the cache.
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
    fingerprint = None
    if not problems and not trial_problems:
        fingerprint = _fingerprint(case_item(case, trials))
        if folder is not None and content is not None and quotes is not None:
            _remember(work, folder, file, content, quotes, case, fingerprint)
    return CaseCheck(
        case.id,
        case.location,
        tuple(problems),
        tuple(trial_problems),
        fingerprint,
        len(case.variants),
    )


def _remember(
    work: CaseWork,
    folder: CacheFolder,
    file: str,
    content: str,
    quotes: Quotes,
    case: Case,
    fingerprint: bytes,
) -> None:
    """Record a valid case's first pass, unless a file it read changed meanwhile."""
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
    }
    remember(folder, file, content, quotes, found)


def _recalled(work: CaseWork, folder: CacheFolder, file: str, content: str) -> CaseCheck | None:
    setup = work.setup

    def acceptable(expected: list[Any]) -> bool:
        if not all(isinstance(rule, str) for rule in expected):
            return False
        return (
            setup.rules is None or setup.allow_missing_rules or set(expected) <= setup.rules.keys()
        )

    body = recall(folder, work.resolved_root, file, content, work.file_hashes, acceptable)
    if body is None:
        return None
    try:
        case_id, (line, column) = body["id"], body["at"]
        variants, fingerprint = body["variants"], bytes.fromhex(body["fingerprint"])
    except (KeyError, TypeError, ValueError):
        return None
    if not (
        isinstance(case_id, str)
        and all(type(n) is int for n in (line, column, variants))
        and len(fingerprint) == hashlib.sha256().digest_size
    ):
        return None
    location = id_location(work.display(file), line, column)
    return CaseCheck(case_id, location, (), (), fingerprint, variants)


def _label_exclusion(variant: Variant) -> ExcludedReason | None:
    if variant.validity is Validity.EQUIVALENT:
        return ExcludedReason.EQUIVALENT
    if variant.validity is Validity.UNREVIEWED:
        return ExcludedReason.UNREVIEWED
    return None


def _changed(work: CaseWork, entry: CaseEntry) -> InternalError:
    return InternalError(
        f"{work.display(entry.file)} (or a file it names) changed while it was audited; "
        "run the audit again"
    )


def _rebuild(
    work: CaseWork, entry: CaseEntry, need_item: bool
) -> tuple[Case, list[list[Trial]], bytes | None]:
    """Read a validated case again and build its trials; it must be what the first pass saw.

    Its canonical form (the corpus digest's item) is returned when ``need_item``; it is
    taken anyway, and held to the fingerprint, unless the cache vouches for the case.
    """
    problems: list[Problem] = []
    case, known = work.reread(entry.file, problems, entry.fingerprint)
    if case is None or problems:
        raise _changed(work, entry)
    trials = _build(case, problems)
    if problems:
        raise _changed(work, entry)
    if known and not need_item:
        return case, trials, None
    item = case_item(case, trials)
    if _fingerprint(item) != entry.fingerprint:
        raise _changed(work, entry)
    return case, trials, item


def _cached(work: CaseWork, entry: CaseEntry) -> CachedCase | None:
    if work.folder is None:
        return None
    return read_case(
        work.folder, work.parsed.digest, entry.id, entry.fingerprint, work.setup.catch_threshold
    )


def audit_case(work: CaseWork, task: CaseTask) -> CaseOutcome:
    """Second pass over one case: evaluate it (or find its records in the cache).

    A case outside the shard, or whose records the cache holds, is read again only when
    its part of the corpus digest is needed.
    """
    entry = task.entry
    cached = _cached(work, entry) if task.evaluate else None
    if cached is not None and not task.item:
        return CaseOutcome(cached.record, None, cached.baseline_digest, cached.evaluations)
    case, trials, item = _rebuild(work, entry, task.item)
    if not task.evaluate:
        return CaseOutcome(None, item, case.baseline_digest)
    if cached is not None:
        return CaseOutcome(cached.record, item, cached.baseline_digest, cached.evaluations)
    results = None
    if work.folder is not None:
        results = CaseRuleResults(work.folder, case.id, work.rule_keys)
    record = _evaluate_case(work, case, trials, results)
    if results is None or work.folder is None:
        return CaseOutcome(record, item, case.baseline_digest)
    results.save()
    evaluations = results.hits + results.misses
    if results.complete and not _infrastructure_error(record):
        summary = CachedCase(record, case.baseline_digest, evaluations)
        write_case(
            work.folder, work.parsed.digest, entry.fingerprint, work.setup.catch_threshold, summary
        )
    return CaseOutcome(record, item, case.baseline_digest, results.hits, results.misses)


def _infrastructure_error(record: CaseRecord) -> bool:
    return any(
        isinstance(variant.result, Counted)
        and OutcomeState.INFRASTRUCTURE_ERROR in variant.result.states
        for variant in record.variants
    )


def _labels(work: CaseWork, variant: Variant) -> Labels:
    return Labels(
        variant.relation,
        variant.probe_class,
        variant.family,
        work.severity(variant),
        variant.canary,
        variant.expect,
    )


def _evaluate_case(
    work: CaseWork, case: Case, trials: list[list[Trial]], cached: CaseRuleResults | None
) -> CaseRecord:
    """Evaluate a case's eligible variants.

    Eligibility in SPEC order: label, then invalid baseline (the baseline is
    evaluated only when the case has a ``valid`` variant), then identical trials.
    """
    parsed = work.parsed
    memo = TextMemo()
    clean: bool | None = None
    records = []
    for variant, built in zip(case.variants, trials, strict=True):
        labels = _labels(work, variant)
        reason = _label_exclusion(variant)
        if reason is None:
            if clean is None:
                clean = baseline_clean(parsed, case.document, case.context, memo, cached)
            if not clean:
                reason = ExcludedReason.INVALID_BASELINE
        if reason is None and all(trial.same_as(case.document, case.context) for trial in built):
            reason = ExcludedReason.IDENTICAL
        if reason is not None:
            records.append(VariantRecord(variant.id, labels, reason))
            continue
        results = evaluate_trials(parsed, variant.relation, variant.expect, built, memo, cached)
        states = tuple(result.state for result in results)
        if variant.relation is Relation.VIOLATION:
            reduced = reduce_trials(probe_trials("", labels, states), work.setup.catch_threshold)
            verdict = violation_verdict(results, reduced)
        else:
            verdict = preserve_verdict(results)
        records.append(VariantRecord(variant.id, labels, Counted(verdict, states)))
    return CaseRecord(case.id, tuple(records))
