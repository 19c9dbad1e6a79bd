"""Output the GitHub Actions runner must not take for workflow commands (SPEC §22).

The runner reads every line a step prints, on stdout and stderr, and acts on two forms of
line: ``::name …::data`` (after leading white space) and ``##[name …]data`` (anywhere in
the line) — an annotation, a masked secret, a stopped log. A document line, a file name or
an evidence excerpt that textcontract prints could be either. So:

- **stdout** under ``GITHUB_ACTIONS=true``, when it is not a regular file (a pipe or a
  terminal: what the runner reads), is fenced with ``::stop-commands::TOKEN`` before the
  first text and ``::TOKEN::`` after the last, a fresh random token each time
  (:func:`fenced_stdout`); the runner acts on no line in between. Output to a regular file
  (``--output``, or ``> FILE``) is left alone, and so are ``--format github``'s commands,
  which are escaped as the runner expects and must be read (:func:`write_commands` steps
  out of the fence for them).
- **stderr** lines are made inert wherever they come from (:func:`inert`): a line starting
  with ``::`` after white space gets a backslash before it, and ``##[`` becomes ``##\\[``.
  Nothing else changes.
"""

from __future__ import annotations

import os
import re
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from functools import cache
from typing import TextIO

__all__ = ["ACTIONS", "CommandFence", "fenced_stdout", "inert", "inert_stderr", "write_commands"]

ACTIONS = "GITHUB_ACTIONS"
"""Set to ``true`` by the runner in every step."""

# what .NET's string.TrimStart removes (char.IsWhiteSpace): the runner trims a line with it
_RUNNER_SPACE = "\t\n\v\f\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"


@cache
def _command_patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A line's leading ``::`` and the line breaks, compiled once a text holds either form
    (the output of a plain check never does)."""
    return re.compile(f"\\A([{_RUNNER_SPACE}]*)::"), re.compile(r"(\r\n|\r|\n)")


def inert(text: str) -> str:
    """``text`` with no line the runner reads as a command: ``\\`` before a line's leading
    ``::``, and ``##\\[`` for ``##[``. (Lines end at CR, LF or CRLF, as the runner's reader
    splits them.)"""
    if "::" not in text and "##[" not in text:
        return text
    command_line, line_break = _command_patterns()
    pieces = line_break.split(text.replace("##[", "##\\["))
    pieces[::2] = [command_line.sub(r"\1\\::", line, count=1) for line in pieces[::2]]
    return "".join(pieces)


def _on_actions() -> bool:
    return os.environ.get(ACTIONS) == "true"


def _regular_file(stream: TextIO) -> bool:
    try:
        return stat.S_ISREG(os.fstat(stream.fileno()).st_mode)
    except (OSError, ValueError, AttributeError):
        return False  # no descriptor (a test runner's capture): not a file either


class _TextStream:
    """A text stream standing in for ``stream``: what callers ask of it besides writing."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def isatty(self) -> bool:
        return self.stream.isatty()

    def fileno(self) -> int:
        return self.stream.fileno()

    def writable(self) -> bool:
        return True

    @property
    def encoding(self) -> str:
        return self.stream.encoding

    @property
    def errors(self) -> str | None:
        return self.stream.errors


class CommandFence(_TextStream):
    """Standard output with workflow commands stopped around what is written to it."""

    def __init__(self, stream: TextIO) -> None:
        super().__init__(stream)
        self.token: str | None = None  # while the runner's commands are stopped
        self.line_open = False  # the last text written did not end its line

    def write(self, text: str) -> int:
        if not text:
            return 0
        if self.token is None:
            import secrets  # (on GitHub Actions only: it costs a cold start a few imports)

            self.token = secrets.token_hex(16)
            self._line(f"::stop-commands::{self.token}\n")
        return self._line(text)

    def write_commands(self, text: str) -> int:
        """Write workflow commands the runner is to act on."""
        self.resume()
        return self._line(text)

    def resume(self) -> None:
        """Let the runner act on commands again, on a line of its own."""
        if self.token is not None:
            token, self.token = self.token, None
            self._line(f"{chr(10) if self.line_open else ''}::{token}::\n")

    def _line(self, text: str) -> int:
        if text:
            self.line_open = not text.endswith(("\n", "\r"))
        return self.stream.write(text)

    def flush(self) -> None:
        self.stream.flush()


def write_commands(text: str) -> None:
    """Write ``--format github`` commands to stdout, outside any fence."""
    stream = sys.stdout
    if isinstance(stream, CommandFence):
        stream.write_commands(text)
    else:
        stream.write(text)


@contextmanager
def fenced_stdout() -> Iterator[None]:
    """Fence standard output for the block when the runner reads it (module docstring)."""
    stream = sys.stdout
    if not _on_actions() or isinstance(stream, CommandFence) or _regular_file(stream):
        yield
        return
    fence = CommandFence(stream)
    sys.stdout = fence
    try:
        yield
    finally:
        sys.stdout = stream
        with suppress(OSError, ValueError):  # a closed pipe: nobody reads the end either
            fence.resume()
            stream.flush()


class _InertLines(_TextStream):
    """Standard error, each line made :func:`inert` as it is completed (or flushed)."""

    def __init__(self, stream: TextIO) -> None:
        super().__init__(stream)
        self.pending = ""

    def write(self, text: str) -> int:
        self.pending += text
        end = max(self.pending.rfind("\n"), self.pending.rfind("\r"))
        if end >= 0:
            done, self.pending = self.pending[: end + 1], self.pending[end + 1 :]
            self.stream.write(inert(done))
        return len(text)

    def flush(self) -> None:
        if self.pending:
            done, self.pending = self.pending, ""
            self.stream.write(inert(done))
        self.stream.flush()


@contextmanager
def inert_stderr() -> Iterator[None]:
    """Make every line written to standard error in the block :func:`inert`."""
    stream = sys.stderr
    lines = _InertLines(stream)
    sys.stderr = lines
    try:
        yield
    finally:
        sys.stderr = stream
        with suppress(OSError, ValueError):
            lines.flush()
