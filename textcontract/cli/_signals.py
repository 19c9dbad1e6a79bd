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

This module imports nothing but ``signal`` and ``sys``: it must be in place before anything
slow is imported.
"""

from __future__ import annotations

import signal
import sys
from types import FrameType
from typing import ClassVar

__all__ = ["Interrupted", "Stopped", "Terminated", "settle", "stop_on_signals"]


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


def _dropped(signum: int, frame: FrameType | None) -> None:
    """A signal while the run unwinds, or once it is over: it changes nothing."""
    del signum, frame


def _stop(signum: int, frame: FrameType | None) -> None:
    del frame
    settle()
    raise _RAISED[signum]


def stop_on_signals() -> None:
    """Make SIGINT and SIGTERM stop the run (see the module); call in the main thread."""
    for number in _RAISED:
        if signal.getsignal(number) is not signal.SIG_IGN:
            signal.signal(number, _stop)


def settle() -> None:
    """Drop SIGINT and SIGTERM from now on (where :func:`stop_on_signals` took them): the
    run is unwinding, or over."""
    for number in _RAISED:
        if signal.getsignal(number) is _stop:
            signal.signal(number, _dropped)
