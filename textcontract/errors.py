"""Exceptions that carry their exit code, and the exit codes themselves.

Library code raises these; the CLI turns them into exit codes in one place
(``textcontract.cli._errors``). Nothing in the library prints or exits.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import ClassVar

__all__ = [
    "ContractError",
    "ExitCode",
    "InputError",
    "InternalError",
    "Location",
    "Problem",
    "RefusedArtifactSet",
    "TextcontractError",
    "render_key_path",
]


def render_key_path(path: Sequence[str | int]) -> str:
    """Render a key path such as ``states.current["order.total"]`` for messages."""
    if not path:
        return "$"
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
            continue
        plain = part != "" and all(c.isalnum() or c in "_-" for c in part)
        if plain:
            out += f".{part}" if out else part
        else:
            quoted = _quote(part)
            out += f"[{quoted}]" if out else quoted
    return out


def _quote(part: str) -> str:
    """A JSON string literal; ASCII-escaped when ``part`` is not valid Unicode.

    A lone surrogate cannot be written to a UTF-8 stream, so a message naming such a key
    (the very thing being reported) would itself fail to print.
    """
    quoted = json.dumps(part, ensure_ascii=False)
    try:
        quoted.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(part)
    return quoted


class ExitCode(IntEnum):
    """Process exit codes, as SPEC §8 defines them."""

    OK = 0
    FAILED = 1
    INPUT_ERROR = 2
    INTERNAL_ERROR = 3
    REFUSED = 4
    INVALID = 5
    """The evidence cannot support a verdict (SPEC §17): a failed preflight, a
    contradictory trial set, an unhonourable waiver, a breached re-execution cap."""


@dataclass(frozen=True)
class Location:
    """Where a problem is: a file and, when known, a line/column, byte offset or key."""

    file: str | None = None
    line: int | None = None
    column: int | None = None
    key: str | None = None
    byte_offset: int | None = None
    path: tuple[str | int, ...] | None = None

    @classmethod
    def of_path(cls, file: str | None, path: Sequence[str | int]) -> Location:
        """A location named by a key path inside a JSON-like value (``a.b[0]``)."""
        return cls(file, key=render_key_path(path), path=tuple(path))

    def __str__(self) -> str:
        parts = [self.file or "<input>"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        text = ":".join(parts)
        if self.byte_offset is not None:
            text += f" (byte {self.byte_offset})"
        return text


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input, with its place and an optional hint."""

    message: str
    location: Location = Location()
    hint: str | None = None

    def render(self) -> str:
        """``file:line:column: key: message (hint)``; a problem of the command line itself
        (a usage error) has no place to name, so it is the message alone."""
        where = self.location
        placed = where.file is not None or where.line is not None or where.byte_offset is not None
        text = f"{where}: " if placed else ""
        if self.location.key is not None:
            text += f"{self.location.key}: "
        text += self.message
        if self.hint:
            text += f" ({self.hint})"
        return text


class TextcontractError(Exception):
    """Base class; ``exit_code`` says how the CLI ends when this escapes."""

    exit_code: ClassVar[ExitCode] = ExitCode.INTERNAL_ERROR


class InputError(TextcontractError):
    """A user's input (context, document, corpus, artifact, option) is invalid.

    Holds every problem found, so a loader can report all of them at once.
    """

    exit_code = ExitCode.INPUT_ERROR

    def __init__(self, problems: Problem | Iterable[Problem]) -> None:
        found = (problems,) if isinstance(problems, Problem) else tuple(problems)
        if not found:
            raise ValueError("an InputError needs at least one problem")
        self.problems: tuple[Problem, ...] = found
        super().__init__("\n".join(p.render() for p in found))

    @classmethod
    def at(
        cls,
        message: str,
        file: str | None = None,
        *,
        line: int | None = None,
        column: int | None = None,
        key: str | None = None,
        byte_offset: int | None = None,
        hint: str | None = None,
    ) -> InputError:
        """Build an error with a single problem."""
        location = Location(file, line, column, key, byte_offset)
        return cls(Problem(message, location, hint))


class ContractError(InputError):
    """A contract (or an included rule pack) is invalid."""


class RefusedArtifactSet(TextcontractError):
    """``aggregate-strength`` refuses an inconsistent set of evidence artifacts."""

    exit_code = ExitCode.REFUSED


class InternalError(TextcontractError):
    """A failure of textcontract itself, not of its input."""

    exit_code = ExitCode.INTERNAL_ERROR
