"""How a run ends on SIGINT and SIGTERM (SPEC §22): exit status 130 or 143, one line.

:func:`stop_on_signals` is the first thing the console script's entry point does. From then
on SIGINT raises :class:`Interrupted` and SIGTERM :class:`Terminated` in the main thread,
wherever it is — inside an import, while typer parses the command line, in a command —
and the run unwinds: every ``with`` and ``finally`` removes its temporary files and stops
its workers, and an output file is left as it was or replaced whole. Both are
``BaseException`` and not ``KeyboardInterrupt``, so that neither ``except Exception`` nor
click's own Ctrl-C handling (``Aborted!``, or a silent exit 130) stops them; the entry point
prints ``interrupted`` or ``terminated`` and exits with the status (:meth:`Stopped.end`).

Only the first signal raises. Later ones, while the run unwinds, are dropped, so that the
cleanup is not cut short; so are signals after :func:`settle`, once the run is over. A
signal ignored when the process started (SIGINT of a background job, ``nohup``) stays
ignored.

An exception raised by a signal handler can land where Python does not let it through as it
is: inside a class body's ``__set_name__`` it becomes a ``RuntimeError``; inside a callback
(an import lock's, a ``__del__``) it is printed as "Exception ignored" and dropped. So the
first signal is also recorded (:func:`received`): the entry point and
:func:`~textcontract.cli._errors.failure_exit_code` end the run as that signal says whatever
exception, or none, came out of it; and a dropped one is raised again, silently, a
millisecond later (from a SIGALRM).

This module imports nothing but ``signal`` and ``sys``: it must be in place before anything
slow is imported.
"""

from __future__ import annotations

import signal
import sys
from types import FrameType
from typing import ClassVar

__all__ = ["Interrupted", "Stopped", "Terminated", "received", "settle", "stop_on_signals"]


class Stopped(BaseException):
    """A run stopped by a signal: ``code`` is its exit status, ``word`` its line on stderr."""

    code: ClassVar[int] = 128
    word: ClassVar[str] = "stopped"

    def end(self) -> int:
        """Say on stderr how the run ended; the exit status."""
        try:
            sys.stderr.write(self.word + "\n")
            sys.stderr.flush()
        except (OSError, ValueError):
            pass  # no stderr to say it on: the status says it
        return self.code


class Interrupted(Stopped):
    """SIGINT (Ctrl-C): exit status 130, as shells report a process ended by it."""

    code = 128 + signal.SIGINT
    word = "interrupted"


class Terminated(Stopped):
    """SIGTERM: exit status 143."""

    code = 128 + signal.SIGTERM
    word = "terminated"


_RAISED: dict[int, type[Stopped]] = {signal.SIGTERM: Terminated, signal.SIGINT: Interrupted}

_AGAIN_AFTER = 0.001
"""Seconds after a dropped signal exception until it is raised again."""


class _Watch:
    """One run's handlers, and the signal that stopped it once it came. It lives in the
    process's signal dispositions and ``sys.unraisablehook`` (its bound methods), which
    are the process's own, and nowhere else."""

    def __init__(self) -> None:
        self.received: type[Stopped] | None = None

    def stop(self, signum: int, frame: FrameType | None) -> None:
        del frame
        self.drop_signals()
        stopped = _RAISED[signum]
        if self.received is None:
            self.received = stopped
        raise stopped

    def dropped(self, signum: int, frame: FrameType | None) -> None:
        """A signal while the run unwinds, or once it is over: it changes nothing."""
        del signum, frame

    def deliver_again(self, unraisable: sys.UnraisableHookArgs) -> None:
        """Python dropped an exception raised where it cannot propagate: when it is the
        signal's, raise it again a moment later, from a SIGALRM, outside this hook (a signal
        raised here would be dropped again); print anything else as Python would."""
        if self.received is not None and unraisable.exc_type is self.received:
            signal.signal(signal.SIGALRM, self.stop_again)
            signal.setitimer(signal.ITIMER_REAL, _AGAIN_AFTER)
            return
        sys.__unraisablehook__(unraisable)

    def stop_again(self, signum: int, frame: FrameType | None) -> None:
        del signum, frame
        assert self.received is not None  # set before the timer that calls this
        raise self.received

    def drop_signals(self) -> None:
        for number in _RAISED:
            if signal.getsignal(number) == self.stop:
                signal.signal(number, self.dropped)


def _current_watch() -> _Watch | None:
    """The watch :func:`stop_on_signals` put in place, found where it lives."""
    for handler in (*map(signal.getsignal, _RAISED), sys.unraisablehook):
        watch = getattr(handler, "__self__", None)
        if isinstance(watch, _Watch):
            return watch
    return None


def stop_on_signals() -> None:
    """Make SIGINT and SIGTERM stop the run (see the module); call in the main thread."""
    watch = _Watch()  # a new run's (a caller may run several in one process)
    for number in _RAISED:
        if signal.getsignal(number) is not signal.SIG_IGN:
            signal.signal(number, watch.stop)
    sys.unraisablehook = watch.deliver_again


def received() -> Stopped | None:
    """The signal that stopped this run, if one came (see the module)."""
    watch = _current_watch()
    return watch.received() if watch is not None and watch.received is not None else None


def settle() -> None:
    """Drop SIGINT and SIGTERM from now on (where :func:`stop_on_signals` took them): the
    run is over."""
    watch = _current_watch()
    if watch is None:
        return
    watch.drop_signals()
    if signal.getsignal(signal.SIGALRM) == watch.stop_again:  # a dropped exception's retry
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, watch.dropped)
    if sys.unraisablehook == watch.deliver_again:
        sys.unraisablehook = sys.__unraisablehook__
