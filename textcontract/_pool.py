"""Per-item work done in order, in this process and in worker processes.

Used by ``audit`` (cases) and ``check`` (the lines of a batch, then documents).

``--jobs N`` means N processes work: this one and N - 1 workers. This
process does not just wait for results: whenever the oldest batch sent to a
worker is still running, it works through the next batch itself. So a worker's
start-up (an interpreter, the imports, the contract) overlaps useful work, and
two jobs keep two cores busy even while this process merges results.

Workers are spawned (a fresh interpreter) unless the pool is asked to fork them and
:func:`start_method` finds that safe; either way, the first thing a worker does is import
the modules its work needs (``preload``), while this process still reads its inputs.

Work goes out in batches (fewer round trips), at most a few per worker in
flight; results come back in submission order whoever computed them, so the
outcome is the same whatever ``jobs`` is. Below :data:`MIN_ITEMS_FOR_WORKERS`
items no worker is used: starting one costs more than it would save, and workers
launched early are stopped unused.

Workers die with this process, however it ends (SIGKILL included), so that none is left
running with parent 1 and the caller's pipes open: see :func:`_start_worker`. A
worker that dies makes the run an :class:`~textcontract.errors.InternalError` (exit 3,
one line), not a traceback.
"""

from __future__ import annotations

import mmap
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, InvalidStateError, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager, suppress
from itertools import count, islice
from types import TracebackType
from typing import Any, Generic, TypeVar

from textcontract.errors import InternalError

__all__ = ["MIN_ITEMS_FOR_WORKERS", "Pool", "start_method"]

S = TypeVar("S")
T = TypeVar("T")
R = TypeVar("R")

MIN_ITEMS_FOR_WORKERS = 32
"""Fewer cases than this are audited in this process alone, whatever ``jobs`` is."""
_IN_FLIGHT_PER_WORKER = 4
"""Batches queued per worker, so that it never waits for this process to send the next."""
_BACKLOG = 32
"""Finished batches of this process held behind a running one, at most (bounds memory)."""

_STATE: dict[str, Any] = {}
"""A worker's state (``"state"``), the setup it was made from (``"setup"``) and the pool's
claims (``"claims"``); never set in this process. A batch brings its setup along; a worker
makes its state again only when the setup differs from the last one (once per pass)."""
_TICKETS = 1024
"""Slots of a pool's claims: far more than the batches ever in flight at once."""


_STOPPING = (signal.SIGINT, signal.SIGTERM)
"""The signals that stop a run: held off while workers start, ignored or fatal in them."""
_PR_SET_PDEATHSIG = 1
_PARENT_POLL_SECONDS = 0.5
_LIVENESS_SECONDS = 0.5
_ABANDON_SECONDS = 10.0
"""How often a wait for a worker's result checks that every worker still lives."""


def _parent_death_signal() -> bool:
    """Ask Linux to SIGKILL this process when its parent dies (``prctl(PR_SET_PDEATHSIG)``).

    The signal comes when the *thread* that started the worker ends; the pool is started
    and used by one thread for its whole life, so that is the parent's end too.
    """
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (AttributeError, OSError):
        return False
    return bool(prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0)


def watch_parent(parent: int, interval: float = _PARENT_POLL_SECONDS) -> threading.Thread:
    """Exit this process soon after ``parent`` is gone (a daemon thread polling
    ``os.getppid()``): the portable fallback where there is no parent-death signal."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(interval)
        os._exit(1)

    watcher = threading.Thread(target=watch, name="textcontract-parent-watch", daemon=True)
    watcher.start()
    return watcher


class _Claims:
    """Who does each batch handed to forked workers: a worker claims a batch when it starts
    it, this process when it takes it back to do it itself, whichever comes first (tickets
    in memory shared with the workers, under one lock). So this process can take back, at
    the end, every batch no worker has started — queued in a worker's pipe or not — and
    a worker skips such a batch when it comes to it. (A spawned pool's lock would be a named
    semaphore that a run ending by ``os._exit`` leaves behind: spawned pools take back only
    the batches the executor has not queued yet, by cancelling them.)"""

    def __init__(self, context: Any) -> None:
        # an anonymous shared mapping: inherited by forked workers, no file behind it
        self.tickets = memoryview(mmap.mmap(-1, 8 * _TICKETS)).cast("q")
        self.lock = context.Lock()

    def start(self, ticket: int) -> bool:
        """In a worker: claim batch ``ticket``; False if this process took it back."""
        with self.lock:
            if self.tickets[ticket % _TICKETS] == -ticket:
                return False
            self.tickets[ticket % _TICKETS] = ticket
            return True

    def take_back(self, ticket: int) -> bool:
        """In this process: claim batch ``ticket``; False if a worker has started it."""
        with self.lock:
            if self.tickets[ticket % _TICKETS] == ticket:
                return False
            self.tickets[ticket % _TICKETS] = -ticket
            return True


def _start_worker(parent: int, claims: _Claims | None) -> None:
    """Worker initializer: end when ``parent`` (the process that started the pool) ends;
    keep the pool's claims.

    A worker ignores SIGINT — Ctrl-C at a terminal reaches every process of the group, and
    the process that started the pool stops it — and SIGTERM ends it (a forked worker
    inherits that process's handlers, and is given these). It was started with both
    blocked (:func:`_signals_held`): they are let through now."""
    _STATE["claims"] = claims
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPPING)
    if not _parent_death_signal():
        watch_parent(parent)
    if os.getppid() != parent:  # the parent died before the signal was asked for
        os._exit(1)


@contextmanager
def _signals_held() -> Iterator[None]:
    """SIGINT and SIGTERM held off (blocked in this thread) while workers start, so that a
    signal stops the run once the executor is whole, which ``__exit__`` then shuts down,
    never while a worker is half started (it would fail to read what it is sent, with a
    traceback). The workers inherit the block until :func:`_start_worker`; so does the
    executor's thread, for good (signals are for the main thread)."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPPING)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


_QUIET_TRACKER = "ignore::UserWarning:multiprocessing.resource_tracker"


def _start_resource_tracker() -> None:
    """Start multiprocessing's resource tracker (where it is not running yet), which keeps
    the named semaphores of spawned workers' queues: now, since started on demand while
    :func:`_signals_held` it would let the signals through; and quiet. It outlives a run
    killed with SIGKILL and unlinks those semaphores then — the cleanup it is for — but
    says so with a warning ("leaked semaphore objects") on the run's stderr after the
    run's end: not a leak to report."""
    from multiprocessing import resource_tracker

    sys.warnoptions.append(_QUIET_TRACKER)  # the tracker's interpreter is given these
    try:
        resource_tracker.ensure_running()
    finally:
        sys.warnoptions.remove(_QUIET_TRACKER)


def start_method(fork: bool) -> str:
    """How workers start: ``fork`` when asked for, on Linux, while this process runs no
    other thread (a child would inherit the locks other threads hold, held for ever), else
    ``spawn``. A forked worker is running in about a millisecond, with every module this
    process has imported; a spawned one starts an interpreter and imports them again
    (0.1-0.2 s). Ask for it only where the process is in a known, simple state: a
    command-line run, before it has opened its inputs or written anything."""
    if fork and sys.platform.startswith("linux") and threading.active_count() == 1:
        return "fork"
    return "spawn"


def _worker_died(error: BrokenProcessPool, task: str) -> InternalError:
    return InternalError(
        f"a worker process ended unexpectedly (killed, or out of memory); the {task} stopped "
        f"({error}); run again, or with --jobs 1"
    )


def _warm_up(preload: tuple[str, ...]) -> None:
    """Sent once per worker as soon as the pool starts, so that it boots while this
    process still reads the configuration and the contract: it imports the modules the
    work will need (``preload``), which a worker would otherwise import only when the
    first batch arrives, with this process waiting for the result."""
    import importlib

    for name in preload:
        importlib.import_module(name)


def _run_batch(
    setup: Callable[[], Any], work: Callable[[Any, T], R], batch: list[T], ticket: int
) -> list[R] | None:
    """A batch's results in a worker, or None when this process took it back."""
    claims = _STATE.get("claims")
    if claims is not None and not claims.start(ticket):
        return None
    if _STATE.get("setup") != setup:
        _STATE["setup"] = setup
        _STATE["state"] = setup()
    state = _STATE["state"]
    return [work(state, item) for item in batch]


def _batched(
    items: Iterable[T], size: int, total: int | None = None, processes: int = 1
) -> Iterator[list[T]]:
    """Batches of ``size`` items; when the number of items (``total``) is known, smaller ones
    towards the end — at most half of each process's share of what is left — so that the
    last batches are short and the processes finish together."""
    iterator = iter(items)
    left = total
    while True:
        take = size if left is None else max(1, min(size, left // (2 * processes)))
        batch = list(islice(iterator, take))
        if not batch:
            return
        yield batch
        if left is not None:
            left -= len(batch)


class Pool(Generic[S]):
    """Maps per-item work over items, in order, with ``jobs`` processes (this one included).

    Each process has a state of type ``S`` for the work of one :meth:`map`. Work
    functions are called as ``work(state, item)`` and must be module-level
    (picklable) functions.
    """

    def __init__(
        self, jobs: int = 1, task: str = "run", preload: Iterable[str] = (), *, fork: bool = False
    ) -> None:
        if jobs < 1:
            raise ValueError("jobs must be at least 1")
        self.jobs = jobs
        self.task = task
        """What the work is called when a dead worker stops it (``the audit stopped``)."""
        self.preload = tuple(preload)
        """Modules a worker imports as soon as it starts (those of the work functions)."""
        self.fork = fork
        """Fork the workers where that is safe (:func:`start_method`), else spawn them."""
        self.started = False
        self._executor: ProcessPoolExecutor | None = None
        self._broken = False
        self._manager: threading.Thread | None = None
        """The executor's manager thread, kept by :meth:`finish` for ``__exit__`` to join."""
        self._unused: ProcessPoolExecutor | None = None
        """Workers :meth:`launch` started and :meth:`start` found unneeded; stopped on exit."""
        self._claims: _Claims | None = None
        self._tickets = count(1)

    @property
    def forks(self) -> bool:
        """Whether workers launched now would be forked (:func:`start_method`)."""
        return start_method(self.fork) == "fork"

    @property
    def workers(self) -> int:
        """Worker processes running (0 when everything is done in this process)."""
        return 0 if self._executor is None else self.jobs - 1

    def launch(self) -> None:
        """Start the workers before the number of items is known, so that they boot while
        this process still reads its inputs; :meth:`start` lets them go unused if the items
        turn out too few."""
        if not self.started and self._executor is None and self.jobs > 1:
            self._start_executor()

    def start(self, items: int) -> None:
        """Start the workers if ``items`` are enough to need them (only the first call counts)."""
        if self.started:
            return
        self.started = True
        if self.jobs > 1 and items >= MIN_ITEMS_FOR_WORKERS:
            if self._executor is None:
                self._start_executor()
        elif self._executor is not None:  # launched, but not needed: stopped on exit
            self._unused = self._executor
            self._executor = None

    def _start_executor(self) -> None:
        """Start the workers; they are the pool's (for ``__exit__`` to stop) before a
        signal can stop the run."""
        # (multiprocessing flushes standard output and error before it forks or spawns, so
        # that no child writes again what is buffered here)
        method = start_method(self.fork)
        context = multiprocessing.get_context(method)
        self._claims = _Claims(context) if method == "fork" else None
        if method != "fork":
            _start_resource_tracker()
        with _signals_held():
            executor = self._executor = ProcessPoolExecutor(
                max_workers=self.jobs - 1,
                mp_context=context,
                initializer=_start_worker,
                initargs=(os.getpid(), self._claims),
            )
            for _ in range(self.jobs - 1):
                executor.submit(_warm_up, self.preload)

    def __enter__(self) -> Pool[S]:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._unused is not None:
            # no work was sent: stop the workers rather than wait for them to boot
            # (a worker importing its preload would keep the run waiting 0.1-0.2 s)
            _abandon(self._unused)
            self._unused = None
        if self._executor is not None:
            if self._broken:
                _abandon(self._executor)
            else:
                self._executor.shutdown(wait=True, cancel_futures=error is not None)
                # after finish(), shutdown() no longer knows the manager thread: join it here
                if self._manager is not None:
                    self._manager.join()
            self._executor = None
        # the last references to the claims' lock: a spawned pool's is a named semaphore,
        # released now rather than at an exit that may not run the interpreter's handlers
        self._claims = None

    def map(
        self,
        work: Callable[[S, T], R],
        items: Iterable[T],
        batch: int,
        local: S,
        setup: Callable[[], Callable[[], S]],
        total: int | None = None,
    ) -> Iterator[R]:
        """``work(state, item)`` for every item, results in item order.

        This process works with the state ``local``; ``setup()`` — called only when
        there are workers — gives the picklable callable that makes a worker's. ``batch``
        items go out together; given the number of items (``total``), fewer at the end.
        """
        if not self.started:
            raise RuntimeError("start the pool first")
        if self._executor is None:
            for item in items:
                yield work(local, item)
            return
        chunks = _batched(items, batch, total, self.jobs)
        try:
            yield from self._spread(self._executor, setup(), work, chunks, local)
        except BrokenProcessPool as error:
            self._broken = True
            raise _worker_died(error, self.task) from None

    def _spread(
        self,
        executor: ProcessPoolExecutor,
        shipped: Callable[[], S],
        work: Callable[[S, T], R],
        chunks: Iterator[list[T]],
        local: S,
    ) -> Iterator[R]:
        """:meth:`map` with workers: batches to them while they keep up, else done here."""
        limit = self.workers * _IN_FLIGHT_PER_WORKER
        pending: deque[_Sent[T, R] | list[R]] = deque()
        for chunk in chunks:
            running = sum(1 for entry in pending if isinstance(entry, _Sent) and entry.in_flight)
            if running < limit:
                ticket = next(self._tickets)
                future = executor.submit(_run_batch, shipped, work, chunk, ticket)
                pending.append(_Sent(future, chunk, ticket))
            else:
                pending.append([work(local, item) for item in chunk])
            while pending and (len(pending) > _BACKLOG or _ready(pending[0])):
                yield from _results(pending.popleft(), executor)
        # Nothing left to hand out: take back, newest first, each batch no worker has started
        # (while a worker works on from the oldest), unless a worker died: the wait reports it.
        for index in range(len(pending) - 1, -1, -1):
            entry = pending[index]
            if isinstance(entry, _Sent) and _all_alive(executor) and self._take_back(entry):
                pending[index] = [work(local, item) for item in entry.chunk]
        while pending:
            yield from _results(pending.popleft(), executor)

    def _take_back(self, entry: _Sent[T, R]) -> bool:
        """Claim ``entry`` for this process, if no worker has started it."""
        if self._claims is not None:
            return self._claims.take_back(entry.ticket)
        return _cancel(entry.future)

    def finish(self) -> None:
        """No more work: let the workers exit while this process goes on (``__exit__`` waits)."""
        if self._executor is not None:
            manager = getattr(self._executor, "_executor_manager_thread", None)
            if isinstance(manager, threading.Thread):
                self._manager = manager
            self._executor.shutdown(wait=False)


class _Sent(Generic[T, R]):
    """A batch handed to the workers: its result to come, its items (to do here if it is
    taken back) and its ticket in the claims."""

    __slots__ = ("chunk", "future", "ticket")

    def __init__(self, future: Future[list[R] | None], chunk: list[T], ticket: int) -> None:
        self.future = future
        self.chunk = chunk
        self.ticket = ticket

    @property
    def in_flight(self) -> bool:
        return not self.future.done()


def _cancel(future: Future[Any]) -> bool:
    """Cancel ``future`` if the executor has not queued it for a worker yet. Should a worker
    die later, the executor marks every batch it still holds failed, this one included:
    Python 3.11's raises InvalidStateError in its thread for a cancelled one, with a
    traceback on stderr, so this one ignores that."""
    mark_failed = future.set_exception

    def set_exception(exception: BaseException | None) -> None:
        with suppress(InvalidStateError):  # cancelled: taken back, done by this process
            mark_failed(exception)

    future.set_exception = set_exception  # type: ignore[method-assign]
    return future.cancel()


def _ready(entry: _Sent[T, R] | list[R]) -> bool:
    return not isinstance(entry, _Sent) or entry.future.done()


def _results(entry: _Sent[T, R] | list[R], executor: ProcessPoolExecutor) -> list[R]:
    """A batch's results; waiting for a worker's, check now and then that none died.

    The executor notices a dead worker itself, unless the worker died holding one of the
    queues' locks: then nothing would ever wake this process, so it looks for itself.
    """
    if not isinstance(entry, _Sent):
        return entry
    while True:
        try:
            result = entry.future.result(timeout=_LIVENESS_SECONDS)
        except TimeoutError:
            if not _all_alive(executor):
                raise BrokenProcessPool("a worker process died") from None
            continue
        assert result is not None  # a batch waited for was claimed by a worker, not taken back
        return result


def _all_alive(executor: ProcessPoolExecutor) -> bool:
    return all(process.exitcode is None for process in _processes(executor))


def _processes(executor: ProcessPoolExecutor) -> list[multiprocessing.process.BaseProcess]:
    """The executor's worker processes (it keeps them in a private attribute)."""
    return list((getattr(executor, "_processes", None) or {}).values())


def _abandon(executor: ProcessPoolExecutor) -> None:
    """End a pool whose worker died, or whose workers were never given work: stop the
    workers, and give the executor's manager thread a few seconds to clean up rather than
    waiting for ever — its queues' locks may be held by a dead process for good (the
    console script then exits without joining it)."""
    manager = getattr(executor, "_executor_manager_thread", None)
    for process in _processes(executor):
        if process.exitcode is None:
            process.kill()
    executor.shutdown(wait=False, cancel_futures=True)
    if isinstance(manager, threading.Thread):
        manager.join(timeout=_ABANDON_SECONDS)
