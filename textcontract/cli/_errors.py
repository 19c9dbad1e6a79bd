"""The one place where exceptions become exit codes and stderr lines.

:func:`failure_exit_code` is called by both routes a command can take: the typer
commands (through :func:`exits_with_codes`) and the typer-free fast path of ``check``
(:mod:`textcontract.cli._fast`). It imports neither typer nor rich.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from typing import ParamSpec

from textcontract.cli._actions import fenced_stdout, inert
from textcontract.cli._signals import Interrupted, Stopped, received
from textcontract.errors import ExitCode, InputError, TextcontractError

__all__ = [
    "PIPE_CLOSED",
    "exits_with_codes",
    "failure_exit_code",
]

P = ParamSpec("P")

PIPE_CLOSED = 141
"""Exit code when the reader of stdout went away (128 + SIGPIPE), as ``yes | head`` gives."""


def _say(line: str) -> None:
    sys.stderr.write(inert(line) + "\n")  # a file name or quoted text is no workflow command
    sys.stderr.flush()


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so that the flush at exit does not fail a second time."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass  # not a real file (a test runner's capture): nothing will flush to the pipe


def failure_exit_code(error: BaseException) -> int:
    """Say on stderr what ``error`` means for the user and return the exit code.

    Input errors print every problem (file:line:column: key: message) and give 2; a
    refused artifact set 4; a dead worker or another failure of textcontract that it
    recognises, one line and 3; Ctrl-C 130, SIGTERM 143 (:mod:`._signals`), a closed stdout
    pipe 141 (no message: the reader chose to stop). Anything else is a bug: exit 3 with its
    traceback, to be reported. Once a signal came, the run ends as it says, whatever the
    error: it may be the signal's own exception, wrapped where Python does not let it through.
    """
    stopped = received()
    if stopped is not None:
        return stopped.end()
    if isinstance(error, InputError):
        for problem in error.problems:
            _say(f"error: {problem.render()}")
        return int(error.exit_code)
    if isinstance(error, TextcontractError):
        _say(f"error: {error}")
        return int(error.exit_code)
    if isinstance(error, Stopped):
        return error.end()
    if isinstance(error, KeyboardInterrupt):  # raised where no handler of ours was set
        return Interrupted().end()
    if isinstance(error, BrokenPipeError):
        _silence_stdout()
        return PIPE_CLOSED
    import traceback  # only for a bug

    _say("internal error (a bug in textcontract; please report it):")
    traceback.print_exception(error, file=sys.stderr)
    return int(ExitCode.INTERNAL_ERROR)


def exits_with_codes(command: Callable[P, int]) -> Callable[P, None]:
    """Wrap a typer command that returns its exit code; failures go to
    :func:`failure_exit_code`."""
    import typer  # a command is registered on a typer application, so typer is loaded

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> None:
        try:
            with fenced_stdout():
                code = command(*args, **kwargs)
        except (typer.Exit, typer.Abort, SystemExit):
            raise
        except BaseException as error:
            raise typer.Exit(failure_exit_code(error)) from None
        raise typer.Exit(code)

    return wrapper
