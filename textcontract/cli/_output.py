"""Where command output goes: stdout, or a file written atomically (:mod:`._atomic`).

A failing write is an :class:`InputError` naming the file (``<stdout>`` for standard
output), except a closed pipe (``textcontract … | head``), which stays a
:class:`BrokenPipeError` for :mod:`textcontract.cli._errors` to end quietly.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from io import StringIO
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from textcontract.cli._actions import write_commands
from textcontract.cli._atomic import atomic_file, write_atomic
from textcontract.errors import InputError

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["STDOUT", "Sink", "emit", "emit_rendered", "output_sink", "terminal_console"]

STDOUT = "<stdout>"
"""How standard output is named in messages."""
_FILE_WIDTH = 120


class Sink(Protocol):
    def write(self, text: str, /) -> None: ...


def _stdout_failure(exc: OSError) -> InputError:
    return InputError.at(f"cannot write output: {exc.strerror or exc}", STDOUT)


class _Stdout:
    """Standard output as a :class:`Sink`."""

    def write(self, text: str) -> None:
        try:
            sys.stdout.write(text)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise _stdout_failure(exc) from None

    def flush(self) -> None:
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise _stdout_failure(exc) from None


class _StdoutCommands(_Stdout):
    """Standard output for workflow commands the GitHub Actions runner is to read: written
    outside the fence that keeps it from reading any other output (:mod:`._actions`)."""

    def write(self, text: str) -> None:
        try:
            write_commands(text)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise _stdout_failure(exc) from None


@contextmanager
def output_sink(output: Path | None, *, commands: bool = False) -> Iterator[Sink]:
    """Write piece by piece to ``output`` (replaced when the block succeeds) or stdout;
    ``commands``: the output is ``--format github``'s workflow commands."""
    if output is not None:
        with atomic_file(output) as sink:
            yield sink
        return
    stdout = _StdoutCommands() if commands else _Stdout()
    yield stdout
    stdout.flush()


def emit(text: str, output: Path | None) -> None:
    """Send finished output to ``output`` (atomically) or stdout."""
    with output_sink(output) as sink:
        sink.write(text)


def _terminal_console() -> Console:
    """A rich console on stdout whose closed pipe ends as every other one (exit 141)."""
    from rich.console import Console

    class Terminal(Console):
        def on_broken_pipe(self) -> None:
            # rich's own exits with 1, the code of a rejected document
            self.quiet = True
            raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))

    return Terminal(highlight=False)


def terminal_console() -> Console | None:
    """A rich console when standard output is a terminal, else None (plain text goes out)."""
    try:
        interactive = sys.stdout.isatty()
    except (AttributeError, ValueError):
        interactive = False
    return _terminal_console() if interactive else None


def emit_rendered(render: Callable[[Console], None], output: Path | None) -> None:
    """Render rich output to the terminal, or without colour codes into ``output``.

    rich is imported here, on use, so a cold ``check --format json`` never loads it.
    """
    from rich.console import Console

    if output is None:
        try:
            render(_terminal_console())
            sys.stdout.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise _stdout_failure(exc) from None
        return
    buffer = StringIO()
    render(
        Console(
            file=buffer,
            width=_FILE_WIDTH,
            color_system=None,
            force_terminal=False,
            soft_wrap=False,
        )
    )
    write_atomic(output, buffer.getvalue())
