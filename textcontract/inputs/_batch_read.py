"""Reading the lines of a batch file, as any process of a run does (pool work).

:func:`split_lines` cuts a stream into lines — where each line's bytes are, or why the
line is refused (empty, over the size cap: the cap applies to each line, not to the file).
The first pass validates lines with :func:`validate_chunk` (the lines that start in a range
of a file's bytes, read and validated by one process) or :func:`validate_line` (one line,
its bytes at hand or read by offset); the second pass reads a line again with
:func:`read_line`. Work functions are module-level and their arguments small, so that a
worker is sent where lines are, never their text, unless it could not open the file.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import BinaryIO, NamedTuple, Protocol

from textcontract._files import MAX_INPUT_ENV, describe_size, input_size_cap
from textcontract.errors import InputError, Location, Problem
from textcontract.inputs._batch import parse_case

__all__ = [
    "CHANGED",
    "CHUNK",
    "BadLine",
    "Chunk",
    "ChunkLines",
    "InvalidLine",
    "LineAt",
    "LineReader",
    "LineSource",
    "ValidLine",
    "chunks",
    "read_line",
    "shifted",
    "split_lines",
    "unreadable",
    "validate_chunk",
    "validate_line",
]

CHANGED = "the batch changed since it was validated; run again"
CHANGED_WHILE_READ = "the batch changed while it was read; run again"
CHUNK = 256 * 1024
"""Bytes of a batch file per chunk of the first pass: W1's 18 MB make 72 chunks of about
2 ms of work each, few enough to hand out cheaply, small enough to end the pass together."""
_BOM = b"\xef\xbb\xbf"
_SKIP = 1 << 20
"""Bytes read at a time while skipping the rest of an overlong line."""
_SEARCH = 16 * 1024
"""Bytes read at a time while looking for the first line that starts in a chunk."""


class LineReader(Protocol):
    """What lines are read from: a file, or a stream's copy (:mod:`._batch_copy`)."""

    def readline(self, size: int, /) -> bytes: ...


class LineAt(NamedTuple):
    """A line to validate: its number, where its bytes are (after the line break, a ``\\r``
    before it and a BOM are dropped), and the bytes themselves when the process that
    validates it could not read them from the file (a copy of a stream)."""

    number: int
    start: int
    length: int
    data: bytes | None = None


class BadLine(NamedTuple):
    """A line refused as it was read (empty, or over the size cap)."""

    number: int
    problem: Problem


class ValidLine(NamedTuple):
    """A validated line: what the second pass needs to read it again, and its case's id."""

    number: int
    start: int
    length: int
    id: str
    fingerprint: bytes


class InvalidLine(NamedTuple):
    number: int
    problems: tuple[Problem, ...]


class Chunk(NamedTuple):
    """The lines of a batch file that start at a byte offset in ``[start, stop)``."""

    start: int
    stop: int


class ChunkLines(NamedTuple):
    """A chunk validated: how many lines start in it, and each one's result, numbered from
    1 within the chunk (:func:`shifted` numbers them in the file)."""

    lines: int
    results: list[ValidLine | InvalidLine]


@dataclass(frozen=True)
class LineSource:
    """Where lines are read from by offset: the batch file's path (None for a copy of a
    stream, whose lines carry their bytes) and its name in messages. It is also a worker's
    setup (calling it gives the state, itself), compared by value."""

    path: str | None
    display: str

    def __call__(self) -> LineSource:
        return self


def chunks(size: int, chunk: int = CHUNK) -> Iterator[Chunk]:
    """The chunks that cover ``size`` bytes."""
    for start in range(0, size, chunk):
        yield Chunk(start, min(start + chunk, size))


def _open_regular(path: str, display: str, number: int | None, changed: str) -> int:
    """A descriptor of the regular file at ``path`` (opened without waiting, should it have
    become a pipe); anything else is ``changed``."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise unreadable(exc, display) from None
    try:
        regular = stat.S_ISREG(os.fstat(descriptor).st_mode)
    except OSError as exc:
        os.close(descriptor)
        raise unreadable(exc, display) from None
    if not regular:
        os.close(descriptor)
        raise InputError.at(changed, display, line=number)
    return descriptor


def read_line(path: str, start: int, length: int, display: str, number: int, changed: str) -> bytes:
    """``length`` bytes at ``start`` of the regular file at ``path``; a file that is gone,
    no longer a regular file, or shorter is an :class:`InputError` (``changed`` at the line
    ``number`` of ``display`` when the bytes are not there)."""
    descriptor = _open_regular(path, display, number, changed)
    try:
        data = os.pread(descriptor, length, start)
    except OSError as exc:
        raise unreadable(exc, display) from None
    finally:
        os.close(descriptor)
    if len(data) != length:
        raise InputError.at(changed, display, line=number)
    return data


def unreadable(exc: OSError, display: str) -> InputError:
    return InputError.at(f"cannot read file again: {exc.strerror or exc}", display)


def _validated(data: bytes, display: str, number: int, start: int) -> ValidLine | InvalidLine:
    try:
        case = parse_case(data, display, number)
    except InputError as error:
        return InvalidLine(number, tuple(error.problems))
    return ValidLine(number, start, len(data), case.id, hashlib.sha256(data).digest())


def validate_line(source: LineSource, item: LineAt | BadLine) -> ValidLine | InvalidLine:
    """One line of the first pass, validated where it is run (module-level: pool work)."""
    if isinstance(item, BadLine):
        return InvalidLine(item.number, (item.problem,))
    data = item.data
    if data is None:
        assert source.path is not None  # a copy's lines carry their bytes
        try:
            where = (item.start, item.length, source.display, item.number)
            data = read_line(source.path, *where, CHANGED_WHILE_READ)
        except InputError as error:
            return InvalidLine(item.number, tuple(error.problems))
    return _validated(data, source.display, item.number, item.start)


def validate_chunk(source: LineSource, chunk: Chunk) -> ChunkLines:
    """Every line that starts in ``chunk`` of the file, validated where this is run
    (module-level: pool work); the same lines, results and problems as reading the whole
    file from its start would give them, numbered within the chunk."""
    assert source.path is not None  # chunks are of files this process can open
    try:
        descriptor = _open_regular(source.path, source.display, None, CHANGED_WHILE_READ)
    except InputError as error:
        return ChunkLines(0, [InvalidLine(0, tuple(error.problems))])
    with os.fdopen(descriptor, "rb") as handle:
        first = _first_line_start(handle, chunk)
        if first is None:
            return ChunkLines(0, [])
        handle.seek(first)
        results: list[ValidLine | InvalidLine] = []
        for number, start, data in split_lines(
            handle, source.display, position=first, stop=chunk.stop
        ):
            if isinstance(data, Problem):
                results.append(InvalidLine(number, (data,)))
            else:
                results.append(_validated(data, source.display, number, start))
    return ChunkLines(len(results), results)


def _first_line_start(handle: BinaryIO, chunk: Chunk) -> int | None:
    """Where the first line that starts in ``chunk`` starts: the chunk's start if a line
    break ends the byte before it (or it is the file's start), else just after the first
    line break in the chunk; None if no line starts in it."""
    if chunk.start == 0:
        return 0
    position = chunk.start - 1
    handle.seek(position)
    while position < chunk.stop - 1:
        block = handle.read(min(_SEARCH, chunk.stop - 1 - position))
        if not block:
            return None
        found = block.find(b"\n")
        if found >= 0:
            return position + found + 1
        position += len(block)
    return None


def shifted(result: ValidLine | InvalidLine, lines: int) -> ValidLine | InvalidLine:
    """``result`` of a chunk renumbered for the ``lines`` lines of the chunks before it."""
    if isinstance(result, ValidLine):
        return result._replace(number=result.number + lines)
    problems = tuple(
        problem
        if problem.location.line is None
        else replace(
            problem, location=replace(problem.location, line=problem.location.line + lines)
        )
        for problem in result.problems
    )
    return InvalidLine(result.number + lines, problems)


def split_lines(
    handle: LineReader, display: str, *, position: int = 0, stop: int | None = None
) -> Iterator[tuple[int, int, bytes | Problem]]:
    """``(number, offset, line)`` of every line from ``position`` (where ``handle`` is, the
    start of a line) that starts before ``stop``: its bytes without the line break (a ``\\r``
    before it dropped, and a BOM at the file's start) and where they begin, or the
    :class:`Problem` of a line that is empty or larger than the cap. Lines are numbered from
    1; the rest of an overlong line is read a block at a time, never held."""
    cap = input_size_cap()
    number = 0
    while (stop is None or position < stop) and (raw := handle.readline(cap + 2)):
        number += 1
        start = position
        position += len(raw)
        if not raw.endswith(b"\n") and len(raw) > cap:
            position += _skip_rest(handle)
            yield number, start, _too_long(display, number, cap)
            continue
        data = raw[:-1] if raw.endswith(b"\n") else raw
        data = data[:-1] if data.endswith(b"\r") else data
        if start == 0 and data.startswith(_BOM):
            data = data[len(_BOM) :]
            start += len(_BOM)
        if not data.strip():
            yield number, start, _empty(display, number)
            continue
        yield number, start, data


def _skip_rest(handle: LineReader) -> int:
    """Read on to the end of an overlong line; returns how many bytes that was."""
    skipped = 0
    while chunk := handle.readline(_SKIP):
        skipped += len(chunk)
        if chunk.endswith(b"\n"):
            break
    return skipped


def _empty(display: str, number: int) -> Problem:
    return Problem(
        "empty line: each line holds one case, a JSON object with id, document and "
        "optionally context",
        Location(display, number),
    )


def _too_long(display: str, number: int, cap: int) -> Problem:
    return Problem(
        f"the line is larger than the input size cap of {describe_size(cap)} "
        f"(set {MAX_INPUT_ENV} to raise it)",
        Location(display, number),
    )
