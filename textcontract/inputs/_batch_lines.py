"""The lines of a ``check --batch`` file: found, validated, and read again by offset.

The first pass (:meth:`BatchLines.validate`) reads the file once, line by line, to find
where each line's bytes are and to refuse lines that are empty or over the size cap (the
cap applies to each line, not to the file: a batch may hold any number of cases). Every
other line is validated by :func:`validate_line` — parsed as a case, its SHA-256 taken —
in this process or, given a pool, in whichever of the pool's processes is free, each one
reading its lines from the file by offset so that no text goes through a pipe. Results are
taken in line order, and ids are held to be unique here, so the problems and their order
are those of one process reading the lines one after the other. The second pass reads each
line again by offset (:func:`read_line`) and checks it still hashes as validated.

A batch that is not a regular file (standard input, a pipe) is copied to a temporary file
as it is read, so that the second pass can read it again. The copy has no name a worker
could open, so its lines travel to workers with their bytes.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import chain, islice
from typing import IO, TYPE_CHECKING, Any, BinaryIO, NamedTuple

from textcontract._files import MAX_INPUT_ENV, describe_size, input_size_cap, path_problem
from textcontract.errors import InputError, Location, Problem, render_key_path
from textcontract.inputs._batch import parse_case

if TYPE_CHECKING:
    from textcontract._pool import Pool

__all__ = [
    "CHANGED",
    "BadLine",
    "BatchLines",
    "InvalidLine",
    "LineAt",
    "LineSource",
    "ValidLine",
    "read_line",
    "validate_line",
]

CHANGED = "the batch changed since it was validated; run again"
_CHANGED_WHILE_READ = "the batch changed while it was read; run again"
_BOM = b"\xef\xbb\xbf"
_BATCH = 32
"""Lines per batch a process validates: about 2.5 ms of work for W1's lines (16 measured
0.02 s more of this process's time in handing batches out; 64, longer waits at the end)."""


class LineAt(NamedTuple):
    """A line to validate: its number, where its bytes are (after the line break, a ``\\r``
    before it and a BOM are dropped), and the bytes themselves when a worker could not read
    them from the file (a copy of a stream) or no worker will (no pool)."""

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


@dataclass(frozen=True)
class LineSource:
    """Where :func:`validate_line` reads lines that do not carry their bytes: the batch
    file's path (None for a copy of a stream) and its name in messages. It is also a
    worker's setup (calling it gives the state, itself), compared by value."""

    path: str | None
    display: str

    def __call__(self) -> LineSource:
        return self


def read_line(path: str, start: int, length: int, display: str, number: int, changed: str) -> bytes:
    """``length`` bytes at ``start`` of the regular file at ``path``; a file that is gone,
    no longer a regular file, or shorter is an :class:`InputError` (``changed`` at the line
    ``number`` of ``display`` when the bytes are not there)."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise _unreadable(exc, display) from None
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise InputError.at(changed, display, line=number)
        data = os.pread(descriptor, length, start)
    except OSError as exc:
        raise _unreadable(exc, display) from None
    finally:
        os.close(descriptor)
    if len(data) != length:
        raise InputError.at(changed, display, line=number)
    return data


def _unreadable(exc: OSError, display: str) -> InputError:
    return InputError.at(f"cannot read file again: {exc.strerror or exc}", display)


def validate_line(source: LineSource, item: LineAt | BadLine) -> ValidLine | InvalidLine:
    """One line of the first pass, validated where it is run (module-level: pool work)."""
    if isinstance(item, BadLine):
        return InvalidLine(item.number, (item.problem,))
    try:
        data = item.data if item.data is not None else _read_again(source, item)
        case = parse_case(data, source.display, item.number)
    except InputError as error:
        return InvalidLine(item.number, tuple(error.problems))
    fingerprint = hashlib.sha256(data).digest()
    return ValidLine(item.number, item.start, item.length, case.id, fingerprint)


def _read_again(source: LineSource, item: LineAt) -> bytes:
    assert source.path is not None  # a copy's lines carry their bytes
    where = (item.start, item.length, source.display, item.number)
    return read_line(source.path, *where, _CHANGED_WHILE_READ)


def _duplicate(case_id: str, first: int, file: str, line: int) -> Problem:
    return Problem(
        f"duplicate id {case_id!r}: line {first} has it too (ids must be unique in a batch)",
        Location(file, line, key=render_key_path(["id"])),
    )


class BatchLines:
    """The lines of a batch file, read once to validate and again, by offset, to check.

    :meth:`validate` is the first pass; in the second, :attr:`shared` says where workers read
    lines themselves, :meth:`read` reads a line here, and :meth:`check_unchanged` tells
    whether the file still has the size it had. Use as a context manager: it closes the copy.
    """

    def __init__(self, path: str, display: str) -> None:
        self.path = path
        self.display = display
        self.count = 0
        """Lines read by the first pass, valid or not."""
        self.size = 0
        """Bytes read by the first pass."""
        self.shared: str | None = None
        """The path any process opens the batch file by (its real path), or None when
        its lines must travel with their bytes: a copy of a stream, or a path that names a
        different file in each process (``/dev/stdin`` redirected from a file)."""
        self._spool: IO[bytes] | None = None

    def __enter__(self) -> BatchLines:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._spool is not None:
            self._spool.close()
            self._spool = None

    @property
    def source(self) -> LineSource:
        return LineSource(self.shared, self.display)

    def validate(
        self, stdin: BinaryIO | None, problems: list[Problem], pool: Pool[Any] | None = None
    ) -> Iterator[ValidLine]:
        """Read and validate every line (in ``pool``'s processes when given); yield each
        valid line, add every problem to ``problems``, in line order."""
        seen: dict[str, int] = {}
        with self._open_first(stdin, problems) as handle:
            if handle is None:
                return
            for result in self._validated(self._scan(handle, keep=pool is None), pool):
                if isinstance(result, InvalidLine):
                    problems.extend(result.problems)
                elif result.id in seen:
                    first = seen[result.id]
                    problems.append(_duplicate(result.id, first, self.display, result.number))
                else:
                    seen[result.id] = result.number
                    yield result
        if self._spool is not None:
            self._spool.flush()
        if self.count == 0 and not problems:
            problems.append(Problem("the batch holds no cases", Location(self.display)))

    def _validated(
        self, items: Iterator[LineAt | BadLine], pool: Pool[Any] | None
    ) -> Iterator[ValidLine | InvalidLine]:
        source = self.source
        if pool is None:
            return (validate_line(source, item) for item in items)
        from textcontract._pool import MIN_ITEMS_FOR_WORKERS

        head = list(islice(items, MIN_ITEMS_FOR_WORKERS))
        pool.start(len(head))  # the pool's one decision: workers for the run, or none
        return pool.map(validate_line, chain(head, items), _BATCH, source, lambda: source)

    def _open_first(self, stdin: BinaryIO | None, problems: list[Problem]) -> _Source:
        if stdin is not None:
            self._spool = _temporary()
            return _Source(stdin, owned=False)
        problem = path_problem(self.path)
        try:
            if problem is not None:
                raise OSError(None, problem)
            if stat.S_ISDIR(os.stat(self.path).st_mode):
                raise OSError(None, "it is a folder")
            handle = open(self.path, "rb")  # noqa: SIM115 - closed by _Source
        except OSError as exc:
            problems.append(
                Problem(f"cannot read file: {exc.strerror or exc}", Location(self.display))
            )
            return _Source(None, owned=False)
        opened = os.fstat(handle.fileno())
        if stat.S_ISREG(opened.st_mode):
            self.shared = _shared_path(self.path, opened)
        else:
            self._spool = _temporary()
        return _Source(handle, owned=True)

    def _scan(self, handle: BinaryIO, *, keep: bool) -> Iterator[LineAt | BadLine]:
        """Every line of ``handle``, where it is, or why it is refused; copied to the
        spool when there is one. A line keeps its bytes if ``keep`` or no worker could
        read it from the file."""
        keep = keep or self.shared is None
        for number, start, data in _lines(handle, self.display, self._spool):
            self.count = number
            if isinstance(data, Problem):
                yield BadLine(number, data)
            else:
                yield LineAt(number, start, len(data), data if keep else None)
        self.size = handle.tell() if self._spool is None else self._spool.tell()

    def read(self, start: int, length: int, number: int) -> bytes:
        """A line again, read here (from the copy, or from the file by the path as given)."""
        if self._spool is None:
            return read_line(self.path, start, length, self.display, number, CHANGED)
        data = os.pread(self._spool.fileno(), length, start)
        if len(data) != length:
            raise InputError.at(CHANGED, self.display, line=number)
        return data

    def check_unchanged(self) -> None:
        """Raise :class:`InputError` if the batch file no longer has the size it was read
        with (lines added or removed since the first pass), or cannot be read."""
        if self._spool is not None:
            return
        try:
            size = os.stat(self.path).st_size
        except OSError as exc:
            raise _unreadable(exc, self.display) from None
        if size != self.size:
            raise InputError.at(CHANGED, self.display)


def _shared_path(path: str, opened: os.stat_result) -> str | None:
    """``path`` resolved (symbolic links, ``/dev/stdin``, ``/proc/self``), if it names the
    file this process opened: a path that workers open as the same file."""
    real = os.path.realpath(path)
    try:
        found = os.stat(real)
    except (OSError, ValueError):
        return None
    return real if (found.st_dev, found.st_ino) == (opened.st_dev, opened.st_ino) else None


class _Source:
    """The first pass's stream, closed after it when this pass opened it."""

    def __init__(self, handle: BinaryIO | None, *, owned: bool) -> None:
        self.handle = handle
        self.owned = owned

    def __enter__(self) -> BinaryIO | None:
        return self.handle

    def __exit__(self, *exc: object) -> None:
        if self.owned and self.handle is not None:
            self.handle.close()


def _temporary() -> IO[bytes]:
    import tempfile

    return tempfile.TemporaryFile(prefix="textcontract-batch-")


def _lines(
    handle: BinaryIO | IO[bytes], display: str, copy: IO[bytes] | None
) -> Iterator[tuple[int, int, bytes | Problem]]:
    """``(number, offset, line)`` of every line: its bytes without the line break (a ``\\r``
    before it and a BOM dropped) and where they begin, or the :class:`Problem` of a line
    that is empty or larger than the cap. Every byte read is written to ``copy``."""
    cap = input_size_cap()
    number = 0
    position = 0
    while raw := handle.readline(cap + 2):
        number += 1
        start = position
        position += len(raw)
        if copy is not None:
            copy.write(raw)
        if not raw.endswith(b"\n") and len(raw) > cap:
            position += _skip_rest(handle, copy)
            yield number, start, _too_long(display, number, cap)
            continue
        data = raw[:-1] if raw.endswith(b"\n") else raw
        data = data[:-1] if data.endswith(b"\r") else data
        if number == 1 and data.startswith(_BOM):
            data = data[len(_BOM) :]
            start += len(_BOM)
        if not data.strip():
            yield number, start, _empty(display, number)
            continue
        yield number, start, data


def _skip_rest(handle: BinaryIO | IO[bytes], copy: IO[bytes] | None) -> int:
    """Read on to the end of an overlong line (copying it, when the batch is copied);
    returns how many bytes that was."""
    skipped = 0
    while chunk := handle.readline(1 << 20):
        skipped += len(chunk)
        if copy is not None:
            copy.write(chunk)
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
