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
"""

from __future__ import annotations

import hashlib
import pickle
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path

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
    Labels,
    TrialResult,
    VariantRecord,
    preserve_verdict,
    probe_trials,
    violation_verdict,
)
from textcontract.audit.running._evaluation import TextMemo, evaluate_trials
from textcontract.audit.running._planning import exclusion, labels, plan_case
from textcontract.canonical import canonical_json
from textcontract.contract import ParsedContract, parse_contract_file
from textcontract.errors import InternalError, Location, Problem
from textcontract.model import Severity
from textcontract.strength import (
    OutcomeState,
    ProbeRole,
    Waiver,
    covering_waiver,
    reduce_trials,
)

__all__ = [
    "CaseCheck",
    "CaseEntry",
    "CaseOutcome",
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

    def reader(self, problems: list[Problem]) -> CaseReader:
        setup = self.setup
        return CaseReader(
            Path(setup.root), setup.display, setup.rules, setup.allow_missing_rules, problems
        )

    def display(self, file: str) -> str:
        """How a case file (relative to the corpus folder) is named in messages."""
        return join_display(self.setup.display, file)

    def read(self, file: str, problems: list[Problem]) -> Case | None:
        """The case in ``file`` (relative to the corpus folder); problems go to ``problems``."""
        return self.reader(problems).case(Path(self.setup.root, file), self.display(file))

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

    @property
    def baseline_clean(self) -> bool | None:
        return None if self.plan is None else self.plan.accepted and self.plan.complete


@dataclass(frozen=True)
class CaseOutcome:
    """The second pass over one case: its records and its parts of the corpus digests."""

    record: CaseRecord
    item: bytes
    """The case's canonical form, trials resolved: one item of the corpus digest's list."""
    baseline_digest: str


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
    """First pass: parse and validate a case file and build every trial."""
    problems: list[Problem] = []
    case = work.read(file, problems)
    if case is None:
        return CaseCheck(None, None, tuple(problems), (), None, 0)
    trial_problems: list[Problem] = []
    trials = _build(case, trial_problems)
    fingerprint = plan = None
    if not problems and not trial_problems:
        fingerprint = _fingerprint(case_item(case, trials))
        plan = _plan(work, case, trials)
    return CaseCheck(
        case.id,
        case.location,
        tuple(problems),
        tuple(trial_problems),
        fingerprint,
        len(case.variants),
        _roles(case, work.setup.waived_probes),
        plan,
    )


def _plan(work: CaseWork, case: Case, trials: list[list[Trial]]) -> CasePlan | None:
    """The case's plan; an exception is kept back (``None``) until the corpus is known valid."""
    if not work.evaluates:
        return None
    try:
        return plan_case(work.parsed, case, trials, work.setup.rules or {}, work.severity)
    except Exception:  # raised again, with its traceback, once every input is validated
        return None


def raise_baseline(work: CaseWork, entry: CaseEntry) -> None:
    """Check the baseline of a case whose plan could not be made, so that its error surfaces."""
    case, trials, _ = read_checked(work, entry)
    plan_case(work.parsed, case, trials, work.setup.rules or {}, work.severity)
    raise InternalError(f"checking the baseline of {case.id} failed in the first pass only")


def _roles(case: Case, named: frozenset[str]) -> tuple[tuple[str, ProbeRole], ...]:
    if not named:
        return ()
    found = []
    for variant in case.variants:
        probe_id = f"{case.id}/{variant.id}"
        if probe_id in named:
            if variant.relation is Relation.PRESERVE:
                found.append((probe_id, ProbeRole.CLEAN_CONTROL))
            else:
                found.append((probe_id, ProbeRole.CANARY if variant.canary else ProbeRole.ELIGIBLE))
    return tuple(found)


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


def _waive(
    work: CaseWork, probe_id: str, variant: Variant, results: tuple[TrialResult, ...]
) -> tuple[TrialResult, ...]:
    """Missed trials of an eligible probe that an in-force waiver covers become not-applicable."""
    setup = work.setup
    if not setup.waivers or setup.as_of is None or variant.canary:
        return results
    rules = [expectation.rule for expectation in variant.expect]
    waiver = covering_waiver(setup.waivers, probe_id, rules, setup.as_of)
    if waiver is None:
        return results
    return tuple(
        replace(result, state=OutcomeState.NOT_APPLICABLE, waiver=waiver.id)
        if result.state is OutcomeState.MISSED
        else result
        for result in results
    )


def _counted(
    work: CaseWork, case: Case, variant: Variant, labels: Labels, results: tuple[TrialResult, ...]
) -> Counted:
    if variant.relation is not Relation.VIOLATION:
        return Counted(preserve_verdict(results), tuple(result.state for result in results))
    results = _waive(work, f"{case.id}/{variant.id}", variant, results)
    states = tuple(result.state for result in results)
    waivers = tuple(result.waiver for result in results)
    reduced = reduce_trials(probe_trials("", labels, states), work.setup.catch_threshold)
    named = waivers if any(waiver is not None for waiver in waivers) else ()
    return Counted(violation_verdict(results, reduced), states, named)


def audit_case(work: CaseWork, entry: CaseEntry) -> CaseOutcome:
    """Second pass: rebuild a validated case's trials and evaluate its eligible variants.

    Eligibility in SPEC order: label, then invalid baseline (the first pass checked
    it), then identical trials.
    """
    case, trials, item = read_checked(work, entry)
    parsed = work.parsed
    memo = TextMemo()
    clean = entry.baseline_clean
    if clean is None:
        raise InternalError(f"the baseline of {case.id} was not checked before its audit")
    records = []
    for variant, built in zip(case.variants, trials, strict=True):
        found = labels(variant, work.severity(variant))
        reason = exclusion(case, variant, built, clean)
        if reason is not None:
            records.append(VariantRecord(variant.id, found, reason))
            continue
        results = evaluate_trials(parsed, variant.relation, variant.expect, built, memo)
        records.append(
            VariantRecord(variant.id, found, _counted(work, case, variant, found, results))
        )
    return CaseOutcome(CaseRecord(case.id, tuple(records)), item, case.baseline_digest)
