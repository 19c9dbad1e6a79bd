"""Checking the inputs of a run one at a time, in order, in one or more processes.

The first pass (:func:`textcontract.inputs.read_inputs`) has validated everything; here each
input is read again, checked and handed on before the next is read, so a run holds one
document at a time whatever their number (SPEC §11 "Streaming"). With ``jobs`` above 1 the
generic pool (:mod:`textcontract._pool`) spreads the inputs over worker processes, which
read and check them; results come back in input order, the same reports as with one job.

:func:`check_inputs` hands on each input's :class:`Report`; :func:`render_inputs` hands on
its output text instead, rendered where it was checked by a function the caller gives (an
output format written one document at a time: ``check --format jsonl``). A worker then
sends back a string rather than a pickled report, and this process, which writes the output
and alone does the serial work of the run, only writes text in order.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from textcontract.contract import ParsedContract
from textcontract.engine._evaluate import evaluate
from textcontract.errors import InputError, InternalError, Problem
from textcontract.inputs import CheckInputs, InputItem, Origin, load_input
from textcontract.model import Context, Report

if TYPE_CHECKING:
    from textcontract._pool import Pool

__all__ = ["Checked", "Render", "Rendered", "check_inputs", "check_pool", "render_inputs"]

_BATCH = 16
"""Inputs per batch sent to a worker (a few milliseconds of work for typical outputs)."""

Render = Callable[[Report], str]
"""A report's output text; for :func:`render_inputs` a module-level function, so that it
can be sent to worker processes."""

R = TypeVar("R")


class Checked(NamedTuple):
    """One checked input: where it came from, its report, and its surfaces' file lines."""

    origin: Origin
    report: Report
    surface_lines: Mapping[str, int]

    @property
    def accepted(self) -> bool:
        return self.report.accepted


class Rendered(NamedTuple):
    """One checked input as an output written per document needs it: whether its report
    accepted the document (for the exit code), and the report's text."""

    accepted: bool
    text: str


class _Failed(NamedTuple):
    """An input that could not be read again (it changed since the first pass)."""

    problems: tuple[Problem, ...]


class _State(NamedTuple):
    parsed: ParsedContract
    context: Context
    render: Render | None


@dataclass(frozen=True)
class _Setup:
    """What a worker makes its state from: the pickled contract, the default context and the
    render function (sent by reference)."""

    contract: bytes
    context: Context
    render: Render | None

    def __call__(self) -> _State:
        import pickle

        parsed: ParsedContract = pickle.loads(self.contract)
        return _State(parsed, self.context, self.render)


def _check_one(state: _State, item: InputItem) -> Checked | _Failed:
    try:
        loaded = load_input(item, state.context)
    except InputError as error:
        # returned, not raised: an InputError does not survive pickling back from a worker
        return _Failed(error.problems)
    report = evaluate(state.parsed, loaded.document, loaded.context, source=loaded.origin.source)
    return Checked(loaded.origin, report, loaded.surface_lines)


def _render_one(state: _State, item: InputItem) -> Rendered | _Failed:
    checked = _check_one(state, item)
    if isinstance(checked, _Failed):
        return checked
    assert state.render is not None
    report = checked.report
    return Rendered(report.accepted, state.render(report))


def _shipped(state: _State) -> _Setup:
    import pickle

    try:
        return _Setup(pickle.dumps(state.parsed), state.context, state.render)
    except (pickle.PicklingError, TypeError, AttributeError):
        raise InternalError(
            "the contract cannot be sent to worker processes (a rule type that cannot be "
            "pickled); run with --jobs 1"
        ) from None


def check_pool(jobs: int) -> Pool[Any]:
    """A pool for :func:`check_inputs`, for a caller that launches its workers early (before
    the first pass, so that they boot meanwhile), passes it to ``read_inputs`` too (which
    validates a batch's lines in it) and closes it when the run ends."""
    from textcontract._pool import Pool

    return Pool[_State](jobs, "check", (__name__,))


def check_inputs(
    parsed: ParsedContract, inputs: CheckInputs, jobs: int = 1, pool: Pool[Any] | None = None
) -> Generator[Checked, None, None]:
    """Every input's report, in input order, checked in ``jobs`` processes (this one
    included), with ``pool`` (from :func:`check_pool`) if given, else a pool of its own.
    An input that changed since the first pass raises its :class:`InputError`."""
    local = _State(parsed, inputs.context, None)
    yield from _run(_check_one, local, inputs, jobs, pool)


def render_inputs(
    parsed: ParsedContract,
    inputs: CheckInputs,
    render: Render,
    jobs: int = 1,
    pool: Pool[Any] | None = None,
) -> Generator[Rendered, None, None]:
    """:func:`check_inputs`, each report turned into ``render(report)`` by the process
    that checked it; the texts come in input order, the same whatever ``jobs`` is."""
    local = _State(parsed, inputs.context, render)
    yield from _run(_render_one, local, inputs, jobs, pool)


def _run(
    work: Callable[[_State, InputItem], R | _Failed],
    local: _State,
    inputs: CheckInputs,
    jobs: int,
    pool: Pool[Any] | None,
) -> Iterator[R]:
    if jobs == 1:  # no pool: multiprocessing costs a cold start 10 ms to import
        for item in inputs:
            yield _result(work(local, item))
        return
    if pool is None:
        with check_pool(jobs) as own:
            yield from _pooled(own, work, local, inputs)
        return
    yield from _pooled(pool, work, local, inputs)


def _pooled(
    pool: Pool[Any],
    work: Callable[[_State, InputItem], R | _Failed],
    local: _State,
    inputs: CheckInputs,
) -> Iterator[R]:
    pool.start(len(inputs))
    results = pool.map(
        work, iter(inputs), _BATCH, local, lambda: _shipped(local), total=len(inputs)
    )
    for result in results:
        yield _result(result)
    pool.finish()


def _result(result: R | _Failed) -> R:
    if isinstance(result, _Failed):
        raise InputError(result.problems)
    return result
