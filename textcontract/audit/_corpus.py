"""Loading a mutation corpus: audit.yaml, the contract, every case and every trial input.

Everything is parsed and every trial is built before anything is evaluated, and
every problem of every file is collected: the audit either starts with a fully
valid corpus or stops with one :class:`InputError` listing all that is wrong
(SPEC §6 "Loading").
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textcontract.audit._cases import CaseReader
from textcontract.audit._config import AuditConfig, Thresholds, read_config
from textcontract.audit._model import Case, Variant
from textcontract.audit._variants import Trial, build_trial
from textcontract.canonical import canonical_json, digest
from textcontract.contract import ContractDefinition, load_contract_file
from textcontract.errors import InputError, Problem
from textcontract.rules import Registry
from textcontract.strength import ScoringPolicy

__all__ = ["Corpus", "load_corpus"]


@dataclass(frozen=True)
class Corpus:
    """A fully validated corpus, ready to evaluate. Cases are sorted by id."""

    display: str
    config: AuditConfig
    contract: ContractDefinition
    cases: tuple[Case, ...]
    digest: str
    fixture_digest: str
    identical: frozenset[tuple[str, str]]
    """``(case, variant)`` of every variant whose every trial equals its baseline."""
    allow_missing_rules: bool
    contract_path: Path | None = None
    """The contract's file (``None`` for a corpus built in memory)."""

    @property
    def policy(self) -> ScoringPolicy:
        return self.config.policy

    @property
    def thresholds(self) -> Thresholds:
        return self.config.thresholds

    def trials(self, case: Case, variant: Variant) -> Iterator[Trial]:
        """Build the trials of a variant again (they were validated at load)."""
        for change in variant.trials:
            trial, _ = build_trial(case.document, case.context, change)
            yield trial


class _CorpusDigest:
    """The corpus digest, streamed: canonical JSON of a list is its items joined by commas."""

    def __init__(self) -> None:
        self._hash = hashlib.sha256(b"[")
        self._first = True

    def add(self, item: Any) -> None:
        if not self._first:
            self._hash.update(b",")
        self._first = False
        self._hash.update(canonical_json(item))

    def hexdigest(self) -> str:
        finished = self._hash.copy()
        finished.update(b"]")
        return "sha256:" + finished.hexdigest()


def _check_trials(
    cases: list[Case], problems: list[Problem]
) -> tuple[str, frozenset[tuple[str, str]]]:
    """Build every trial (reporting bad changes); the corpus digest and the identical variants."""
    corpus = _CorpusDigest()
    identical: set[tuple[str, str]] = set()
    for case in cases:
        variants = []
        for variant in case.variants:
            built = []
            same = True
            for change in variant.trials:
                trial, found = build_trial(case.document, case.context, change)
                problems.extend(found)
                same = same and trial.same_as(case.document, case.context)
                built.append(trial.to_json())
            if same:
                identical.add((case.id, variant.id))
            variants.append({**variant.labels_json(), "trials": built})
        corpus.add(
            {
                "id": case.id,
                "group": case.group,
                "baseline": {
                    "document": case.document.to_json(),
                    "context": case.context.to_json(),
                },
                "variants": variants,
            }
        )
    return corpus.hexdigest(), frozenset(identical)


def _load_contract(
    path: Path | None, shown: str, registry: Registry | None, problems: list[Problem]
) -> ContractDefinition | None:
    if path is None:
        return None
    try:
        return load_contract_file(path, shown, registry)
    except InputError as error:
        problems.extend(error.problems)
        return None


def load_corpus(
    directory: Path,
    *,
    display: str | None = None,
    contract: Path | None = None,
    allow_missing_rules: bool = False,
    registry: Registry | None = None,
) -> Corpus:
    """Load and validate a whole corpus; raise one :class:`InputError` listing every problem.

    ``display`` is how DIR is named in messages (default: as given). ``contract``
    overrides audit.yaml's ``contract:``. ``registry`` replaces the default rule
    registry (tests and embedders with their own rule types).
    """
    shown = display if display is not None else str(directory)
    if not directory.is_dir():
        raise InputError.at("the corpus folder does not exist (or is not a folder)", shown)
    problems: list[Problem] = []
    config, contract_path, contract_display = read_config(directory, shown, contract, problems)
    definition = _load_contract(contract_path, contract_display, registry, problems)
    rules = (
        None
        if definition is None
        else {entry.rule.header.id: entry.rule.header.severity for entry in definition.entries}
    )
    reader = CaseReader(directory, shown, rules, allow_missing_rules, problems)
    skip = frozenset({contract_path.resolve()}) if contract_path is not None else frozenset()
    cases: list[Case] = []
    first_file: dict[str, str] = {}
    for path, case_display in reader.case_files(skip):
        case = reader.case(path, case_display)
        if case is None:
            continue
        if case.id and case.id in first_file:
            problems.append(
                Problem(
                    f"duplicate case id {case.id!r} (also in {first_file[case.id]})", case.location
                )
            )
            continue
        first_file[case.id] = case_display
        cases.append(case)
    cases.sort(key=lambda case: case.id)
    corpus_digest, identical = _check_trials(cases, problems)
    if problems:
        raise InputError(problems)
    assert definition is not None  # a contract that failed to load left problems
    return Corpus(
        display=shown,
        config=config,
        contract=definition,
        cases=tuple(cases),
        digest=corpus_digest,
        fixture_digest=digest(sorted(case.baseline_digest for case in cases)),
        identical=identical,
        allow_missing_rules=allow_missing_rules,
        contract_path=contract_path,
    )
