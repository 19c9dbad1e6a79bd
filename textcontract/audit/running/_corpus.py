"""Loading a mutation corpus: audit.yaml, the contract, and a first pass over every case.

Everything is parsed and every trial is built before anything is evaluated, and
every problem of every file is collected: the audit either starts with a fully
valid corpus or stops with one :class:`InputError` listing all that is wrong
(SPEC §6 "Loading"). What a valid corpus keeps of each case is where it is and
its fingerprint (:mod:`textcontract.audit.running._case_passes`), not its documents.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from dataclasses import dataclass, replace
from datetime import date
from functools import cached_property
from pathlib import Path
from typing import Any, TypeVar

from textcontract._pool import Pool
from textcontract.audit.reading import (
    AuditConfig,
    Case,
    Thresholds,
    Trial,
    Variant,
    build_trial,
    case_files,
    read_config,
    waived_probe_ids,
    waiver_problems,
)
from textcontract.audit.results import PlannedVariant
from textcontract.audit.running._cache import CacheFolder, prepare_cache_folder
from textcontract.audit.running._case_passes import (
    CaseCheck,
    CaseEntry,
    CaseWork,
    ContractFile,
    WorkSetup,
    case_item,
    check_case,
)
from textcontract.canonical import digest
from textcontract.contract import ParsedContract, parse_contract_file
from textcontract.errors import InputError, InternalError, Problem
from textcontract.rules import Registry
from textcontract.strength import ProbeRole, ScoringPolicy

__all__ = ["Corpus", "CorpusDigest", "load_corpus", "load_into"]

T = TypeVar("T")

_CHECK_BATCH = 8
"""Case files per batch sent to a worker in the first pass (about 2 ms each)."""


class CorpusDigest:
    """The corpus digest, streamed: canonical JSON of a list is its items joined by commas."""

    def __init__(self) -> None:
        self._hash = hashlib.sha256(b"[")
        self._first = True

    def add(self, item: bytes) -> None:
        """Add one item's canonical JSON (items in case-id order)."""
        if not self._first:
            self._hash.update(b",")
        self._first = False
        self._hash.update(item)

    def hexdigest(self) -> str:
        finished = self._hash.copy()
        finished.update(b"]")
        return "sha256:" + finished.hexdigest()


@dataclass(frozen=True)
class Corpus:
    """A fully validated corpus, ready to audit: where each case is, sorted by case id.

    The cases themselves are read again when they are audited; :attr:`cases`,
    :attr:`digest`, :attr:`fixture_digest` and :attr:`identical` read them all on
    first use (and then hold them), for callers that want to look at a corpus.
    """

    display: str
    config: AuditConfig
    contract: ParsedContract
    entries: tuple[CaseEntry, ...]
    allow_missing_rules: bool
    root: Path
    contract_path: Path | None = None
    """The contract's file (``None`` for a contract that was not loaded from one)."""
    as_of: date | None = None
    """The date audit.yaml's waivers are judged on (``None``: none applied)."""
    cache: Path | None = None
    """The cache folder (``audit --cache``), or ``None``."""
    baseline_cache: tuple[int, int] = (0, 0)
    """Cache hits and misses of the baselines' first check runs (made in the first pass)."""

    @property
    def policy(self) -> ScoringPolicy:
        return self.config.policy

    @property
    def thresholds(self) -> Thresholds:
        return self.config.thresholds

    @property
    def variants(self) -> int:
        return sum(entry.variants for entry in self.entries)

    def work(self) -> CaseWork:
        """This process's state for reading and auditing the corpus's cases."""
        setup = _setup(
            self.root, self.display, self.contract, self.allow_missing_rules, self.config
        )
        setup = replace(setup, cache=_folder_name(self.cache))
        day = self.as_of
        if day is not None:
            in_force = tuple(waiver for waiver in self.config.waivers if waiver.in_force(day))
            setup = replace(setup, waivers=in_force, as_of=day)
        return CaseWork(setup, self.contract)

    def cache_folder(self) -> CacheFolder | None:
        return None if self.cache is None else CacheFolder(self.cache)

    @cached_property
    def _shipped(self) -> WorkSetup:
        return replace(self.work().setup, contract=_shippable(self.contract, self.contract_path))

    def worker_setup(self) -> WorkSetup:
        """What a worker process needs; the contract goes with it (pickled, else its file)."""
        return self._shipped

    @cached_property
    def cases(self) -> tuple[Case, ...]:
        """Every case, read again from its file (sorted by id)."""
        work = self.work()
        found = []
        for entry in self.entries:
            problems: list[Problem] = []
            case = work.read(entry.file, problems)
            if case is None or problems:
                raise InternalError(f"{work.display(entry.file)} changed since it was loaded")
            found.append(case)
        return tuple(found)

    @cached_property
    def digest(self) -> str:
        """SPEC §6 ``corpus.digest`` (the audit computes the same as it goes)."""
        streamed = CorpusDigest()
        for case in self.cases:
            streamed.add(case_item(case, [self.trials(case, v) for v in case.variants]))
        return streamed.hexdigest()

    @property
    def fixture_digest(self) -> str:
        return digest(sorted(case.baseline_digest for case in self.cases))

    @cached_property
    def identical(self) -> frozenset[tuple[str, str]]:
        """``(case, variant)`` of every variant whose every trial equals its baseline."""
        return frozenset(
            (case.id, variant.id)
            for case in self.cases
            for variant in case.variants
            if all(
                trial.same_as(case.document, case.context) for trial in self.trials(case, variant)
            )
        )

    def trials(self, case: Case, variant: Variant) -> list[Trial]:
        """Build the trials of a variant again (they were validated at load)."""
        return [build_trial(case.document, case.context, change)[0] for change in variant.trials]


def _folder_name(folder: Path | None) -> str | None:
    return None if folder is None else str(folder.resolve())


def _setup(
    root: Path,
    display: str,
    parsed: ParsedContract | None,
    allow_missing_rules: bool,
    config: AuditConfig,
) -> WorkSetup:
    rules = (
        None
        if parsed is None
        else {entry.rule.header.id: entry.rule.header.severity for entry in parsed.entries}
    )
    return WorkSetup(
        str(root),
        display,
        rules,
        allow_missing_rules,
        config.policy.catch_threshold,
        contract=None,
        waived_probes=waived_probe_ids(config.waivers),
    )


def _shippable(parsed: ParsedContract, source: Path | None) -> bytes | ContractFile:
    """The contract as a worker receives it: pickled, else the file to load it from."""
    try:
        return pickle.dumps(parsed)
    except (pickle.PicklingError, TypeError, AttributeError):
        if source is None:
            raise InternalError(
                "the contract cannot be sent to worker processes; run with --jobs 1"
            ) from None
        return ContractFile(str(source.resolve()), parsed.source, parsed.digest)


def _load_contract(
    path: Path | None, shown: str, registry: Registry | None, problems: list[Problem]
) -> ParsedContract | None:
    if path is None:
        return None
    try:
        return parse_contract_file(path, shown, registry)
    except InputError as error:
        problems.extend(error.problems)
        return None


class _SharedPlans:
    """One object for equal ids, labels, fault tuples and variants: a large corpus repeats
    a few of each, and the plans are held until the audit ends."""

    def __init__(self) -> None:
        self._seen: dict[Any, Any] = {}

    def _one(self, value: T) -> T:
        found: T = self._seen.setdefault(value, value)
        return found

    def check(self, check: CaseCheck) -> CaseCheck:
        if check.plan is None:
            return check
        plan = check.plan
        variants = tuple(self._variant(variant) for variant in plan.variants)
        return replace(check, plan=plan._replace(variants=variants))

    def _variant(self, variant: PlannedVariant) -> PlannedVariant:
        return self._one(
            PlannedVariant(
                self._one(variant.variant),
                self._one(variant.labels),
                variant.trials,
                variant.excluded,
                self._one(variant.faults),
            )
        )


def _waiver_problems(
    config: AuditConfig,
    parsed: ParsedContract | None,
    checks: list[tuple[str, CaseCheck]],
    corpus_read: bool,
) -> list[Problem]:
    """audit.yaml's waivers against the corpus's probes (when every case file could be
    read) and the contract's rules."""
    if not config.waivers or parsed is None:
        return []
    roles: dict[str, ProbeRole] = {}
    for _, check in checks:
        roles.update(check.roles)
    rules = {entry.rule.header.id for entry in parsed.entries}
    return waiver_problems(config.waivers, rules, roles if corpus_read else None)


def _first_pass(
    work: CaseWork, checks: list[tuple[str, CaseCheck]], problems: list[Problem]
) -> list[CaseEntry]:
    """Duplicate ids, then trial problems in case-id order (after every file's own problems)."""
    kept: list[tuple[str, CaseCheck]] = []
    first_file: dict[str, str] = {}
    for file, check in checks:
        problems.extend(check.problems)
        if check.id is None or check.location is None:
            continue
        if check.id and check.id in first_file:
            problems.append(
                Problem(
                    f"duplicate case id {check.id!r} (also in {first_file[check.id]})",
                    check.location,
                )
            )
            continue
        first_file[check.id] = work.display(file)
        kept.append((file, check))
    kept.sort(key=lambda item: item[1].id or "")
    entries = []
    for file, check in kept:
        problems.extend(check.trial_problems)
        if check.fingerprint is not None and check.id is not None:
            entries.append(
                CaseEntry(
                    check.id, file, check.fingerprint, check.variants, check.plan, check.pending
                )
            )
    return entries


def load_into(
    pool: Pool[CaseWork],
    directory: Path,
    *,
    display: str | None = None,
    contract: Path | None = None,
    allow_missing_rules: bool = False,
    registry: Registry | None = None,
    cache: Path | None = None,
) -> Corpus:
    """:func:`load_corpus` with the first pass in ``pool`` (started here if it is not yet)."""
    shown = display if display is not None else str(directory)
    if not directory.is_dir():
        raise InputError.at("the corpus folder does not exist (or is not a folder)", shown)
    if cache is not None:
        prepare_cache_folder(cache, str(cache))
    problems: list[Problem] = []
    found = case_files(directory, shown, problems)
    pool.start(len(found))
    config, contract_path, contract_display = read_config(directory, shown, contract, problems)
    parsed = _load_contract(contract_path, contract_display, registry, problems)
    setup = replace(
        _setup(directory, shown, parsed, allow_missing_rules, config), cache=_folder_name(cache)
    )
    # workers check baselines in the first pass too: the contract goes with the setup
    shipped = (
        setup if parsed is None else replace(setup, contract=_shippable(parsed, contract_path))
    )
    skip = os.path.realpath(contract_path) if contract_path is not None else None
    files = [file for file, resolved in found if resolved != skip]
    del found
    work = CaseWork(setup, parsed)
    shared = _SharedPlans()  # plans are shared as they come, so equal parts are held once
    checks = [
        (file, shared.check(check))
        for file, check in zip(
            files, pool.map(check_case, files, _CHECK_BATCH, work, lambda: shipped), strict=True
        )
    ]
    read_cleanly = not any(check.problems or check.trial_problems for _, check in checks)
    entries = _first_pass(work, checks, problems)
    problems.extend(_waiver_problems(config, parsed, checks, read_cleanly))
    if problems:
        raise InputError(problems)
    assert parsed is not None  # a contract that failed to load left problems
    return Corpus(
        display=shown,
        config=config,
        contract=parsed,
        entries=tuple(entries),
        allow_missing_rules=allow_missing_rules,
        root=directory,
        contract_path=contract_path,
        cache=cache,
        baseline_cache=(
            sum(check.hits for _, check in checks),
            sum(check.misses for _, check in checks),
        ),
    )


def load_corpus(
    directory: Path,
    *,
    display: str | None = None,
    contract: Path | None = None,
    allow_missing_rules: bool = False,
    registry: Registry | None = None,
    jobs: int = 1,
) -> Corpus:
    """Load and validate a whole corpus; raise one :class:`InputError` listing every problem.

    ``display`` is how DIR is named in messages (default: as given). ``contract``
    overrides audit.yaml's ``contract:``. ``registry`` replaces the default rule
    registry (tests and embedders with their own rule types). ``jobs`` processes
    read the case files (this one included).
    """
    with Pool[CaseWork](jobs, "audit") as pool:
        return load_into(
            pool,
            directory,
            display=display,
            contract=contract,
            allow_missing_rules=allow_missing_rules,
            registry=registry,
        )
