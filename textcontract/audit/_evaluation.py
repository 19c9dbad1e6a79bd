"""Evaluating baselines and variants, in this process or in a pool of worker processes.

Work goes out in small batches and comes back in submission order, with a bounded
number of batches in flight, so results are deterministic whatever ``jobs`` is and
memory stays flat however large the corpus. Each worker gets the contract once, when
it starts: the compiled contract itself when it can be pickled (so rule types from a
custom registry travel too), else loaded again from its file — and then checked to
have the parent's digest.
"""

from __future__ import annotations

import multiprocessing
import pickle
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from types import TracebackType
from typing import TypeVar

from textcontract.audit._matching import TrialResult, control_trial, failed_trial, violation_trial
from textcontract.audit._model import Change, Expectation, Relation
from textcontract.audit._variants import build_trial
from textcontract.contract import ContractDefinition, load_contract_file
from textcontract.engine import evaluate
from textcontract.errors import InternalError
from textcontract.model import Context, Document

__all__ = ["BaselineTask", "Evaluator", "VariantTask", "evaluate_baseline", "evaluate_variant"]

T = TypeVar("T")
R = TypeVar("R")

_BATCH = 8
"""Variants per message to a worker: fewer round trips, still fine-grained."""
_IN_FLIGHT_PER_JOB = 4
"""Batches queued per worker: enough to keep workers busy, few enough to bound memory."""


@dataclass(frozen=True)
class BaselineTask:
    document: Document
    context: Context


@dataclass(frozen=True)
class VariantTask:
    """Everything needed to evaluate one variant's trials, away from the corpus."""

    relation: Relation
    expect: tuple[Expectation, ...]
    document: Document
    context: Context
    changes: tuple[Change, ...]


def evaluate_baseline(definition: ContractDefinition, task: BaselineTask) -> bool:
    """Whether a baseline is accepted and complete (an exception here is not caught)."""
    report = evaluate(definition, task.document, task.context)
    return report.accepted and report.complete


def evaluate_variant(definition: ContractDefinition, task: VariantTask) -> tuple[TrialResult, ...]:
    """Every trial of a variant, each reduced at once to what the figures need.

    An exception raised while evaluating a trial outside any rule (rules are
    isolated by the engine) makes that trial ``infrastructure-error``; the others go on.
    """
    results = []
    for index, change in enumerate(task.changes):
        trial, _ = build_trial(task.document, task.context, change)
        try:
            report = evaluate(definition, trial.document, trial.context)
            _ = report.accepted, report.complete
        except Exception:  # the engine isolates rules; anything else spoils only this trial
            results.append(failed_trial(index, task.relation, len(task.expect)))
            continue
        if task.relation is Relation.VIOLATION:
            results.append(violation_trial(index, report, task.expect))
        else:
            results.append(control_trial(index, report))
    return tuple(results)


# -- worker processes ------------------------------------------------------------------------

_WORKER: dict[str, ContractDefinition] = {}
"""The contract of a worker process, set once by the pool initializer (never in the parent)."""


@dataclass(frozen=True)
class _ContractFile:
    """Where a worker loads the contract from when it cannot be pickled, and its digest."""

    path: str
    display: str
    digest: str


def _start_worker(contract: bytes | _ContractFile) -> None:
    if isinstance(contract, bytes):
        _WORKER["definition"] = pickle.loads(contract)
        return
    definition = load_contract_file(Path(contract.path), contract.display)
    if definition.digest != contract.digest:
        raise InternalError(
            f"a worker loaded {contract.display} with another digest ({definition.digest}); "
            "was the file changed, or does the contract need a custom rule registry? "
            "run with --jobs 1"
        )
    _WORKER["definition"] = definition


def _shippable(definition: ContractDefinition, source: Path | None) -> bytes | _ContractFile:
    """The contract as a worker receives it: pickled, else the file to load it from."""
    try:
        return pickle.dumps(definition)
    except (pickle.PicklingError, TypeError, AttributeError):
        if source is None:
            raise InternalError(
                "the contract cannot be sent to worker processes; run with --jobs 1"
            ) from None
        return _ContractFile(str(source.resolve()), definition.source, definition.digest)


def _baselines(batch: Sequence[BaselineTask]) -> list[bool]:
    definition = _WORKER["definition"]
    return [evaluate_baseline(definition, task) for task in batch]


def _variants(batch: Sequence[VariantTask]) -> list[tuple[TrialResult, ...]]:
    definition = _WORKER["definition"]
    return [evaluate_variant(definition, task) for task in batch]


def _batched(items: Iterable[T], size: int) -> Iterator[list[T]]:
    iterator = iter(items)
    while batch := list(islice(iterator, size)):
        yield batch


class Evaluator:
    """Evaluates tasks in order, in-process (``jobs == 1``) or in ``jobs`` worker processes."""

    def __init__(
        self, definition: ContractDefinition, jobs: int = 1, source: Path | None = None
    ) -> None:
        if jobs < 1:
            raise ValueError("jobs must be at least 1")
        self.definition = definition
        self.jobs = jobs
        self.source = source
        self._pool: ProcessPoolExecutor | None = None

    def __enter__(self) -> Evaluator:
        if self.jobs > 1:
            self._pool = ProcessPoolExecutor(
                max_workers=self.jobs,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker,
                initargs=(_shippable(self.definition, self.source),),
            )
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=error is not None)
            self._pool = None

    def baselines(self, tasks: Iterable[BaselineTask]) -> Iterator[bool]:
        if self._pool is None:
            return (evaluate_baseline(self.definition, task) for task in tasks)
        return self._ordered(self._pool, _baselines, tasks)

    def variants(self, tasks: Iterable[VariantTask]) -> Iterator[tuple[TrialResult, ...]]:
        if self._pool is None:
            return (evaluate_variant(self.definition, task) for task in tasks)
        return self._ordered(self._pool, _variants, tasks)

    def _ordered(
        self,
        pool: ProcessPoolExecutor,
        work: Callable[[Sequence[T]], list[R]],
        tasks: Iterable[T],
    ) -> Iterator[R]:
        """Results in task order, with at most ``jobs * 4`` batches queued at a time."""
        pending: deque[Future[list[R]]] = deque()
        limit = self.jobs * _IN_FLIGHT_PER_JOB
        for batch in _batched(tasks, _BATCH):
            pending.append(pool.submit(work, batch))
            if len(pending) >= limit:
                yield from pending.popleft().result()
        while pending:
            yield from pending.popleft().result()
