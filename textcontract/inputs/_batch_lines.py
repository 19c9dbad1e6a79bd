"""The lines of a ``check --batch`` file: validated in the first pass, read again by offset.

The first pass (:meth:`BatchLines.validate`) validates every line — parsed as a case, its
SHA-256 taken — in this process or, given a pool, in whichever of the pool's processes is
free. A batch file that any process can open is cut into chunks of its bytes
(:func:`~textcontract.inputs._batch_read.validate_chunk`): the process that takes a chunk
reads the lines that start in it from the file and validates them, so this process neither
reads the whole file first nor sends any text. A copy of a stream (standard input, a pipe)
is read here line by line, as it is copied to a temporary file, and its lines travel with
their bytes (:func:`~textcontract.inputs._batch_read.validate_line`). Either way results are
taken in line order and ids are held to be unique here, so the problems and their order are
those of one process reading the lines one after the other. The second pass reads each
line again by offset and checks it still hashes as validated.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Generator, Iterator
from contextlib import closing
from itertools import chain, islice
from typing import IO, TYPE_CHECKING, Any, BinaryIO

from textcontract._files import path_problem, refused_kind
from textcontract.errors import InputError, Location, Problem, render_key_path
from textcontract.inputs._batch_copy import CopyStopped, StreamCopy, close_copy, temporary_copy
from textcontract.inputs._batch_read import (
    CHANGED,
    CHUNK,
    BadLine,
    ChunkLines,
    InvalidLine,
    LineAt,
    LineReader,
    LineSource,
    ValidLine,
    chunks,
    read_line,
    shifted,
    split_lines,
    unreadable,
    validate_chunk,
    validate_line,
)

if TYPE_CHECKING:
    from textcontract._pool import Pool

__all__ = ["MAX_REFUSED_LINES", "BatchLines"]

_BATCH = 32
"""Lines of a copied stream per batch a process validates (about 2.5 ms of work for W1)."""
_COUNT_BLOCK = 64 * 1024
MAX_REFUSED_LINES = 1000
"""Refused lines after which the first pass reads no further: every problem is kept until
the run stops, and a batch of endless bad lines (``<(yes)``) must not fill the memory."""


def _read_no_further(display: str) -> Problem:
    return Problem(
        f"the batch was read no further after {MAX_REFUSED_LINES} refused lines (fix these "
        "and run again)",
        Location(display),
    )


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

    def __init__(self, path: str, display: str, chunk: int = CHUNK) -> None:
        self.path = path
        self.display = display
        self.chunk = chunk
        """Bytes of the file per chunk validated by one process."""
        self.count = 0
        """Lines read by the first pass, valid or not."""
        self.size = 0
        """Bytes of the batch the first pass read."""
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
            close_copy(self._spool)
            self._spool = None

    @property
    def source(self) -> LineSource:
        return LineSource(self.shared, self.display)

    def validate(
        self, stdin: BinaryIO | None, problems: list[Problem], pool: Pool[Any] | None = None
    ) -> Iterator[ValidLine]:
        """Read and validate every line (in ``pool``'s processes when given); yield each
        valid line, add every problem to ``problems``, in line order — reading no further
        once :data:`MAX_REFUSED_LINES` lines were refused."""
        seen: dict[str, int] = {}
        refused = 0
        with self._open_first(stdin, problems) as handle:
            if handle is None:
                return
            found = self._by_chunks(handle, pool) if self.shared else self._by_lines(handle, pool)
            with closing(found):
                for result in found:
                    if refused == MAX_REFUSED_LINES:
                        problems.append(_read_no_further(self.display))
                        break
                    if isinstance(result, InvalidLine):
                        problems.extend(result.problems)
                        refused += 1
                    elif result.id in seen:
                        first = seen[result.id]
                        problems.append(_duplicate(result.id, first, self.display, result.number))
                        refused += 1
                    else:
                        seen[result.id] = result.number
                        yield result
        if self.count == 0 and not problems:
            problems.append(Problem("the batch holds no cases", Location(self.display)))

    def _by_chunks(
        self, handle: BinaryIO, pool: Pool[Any] | None
    ) -> Generator[ValidLine | InvalidLine]:
        """The file's chunks validated (by any process of ``pool``), numbered in the file."""
        self.size = os.fstat(handle.fileno()).st_size
        source = self.source
        parts = chunks(self.size, self.chunk)
        done: Iterator[ChunkLines]
        if pool is None:
            done = (validate_chunk(source, part) for part in parts)
        else:
            from textcontract._pool import MIN_ITEMS_FOR_WORKERS

            pool.start(_lines_up_to(handle, MIN_ITEMS_FOR_WORKERS))  # workers, or none
            done = pool.map(validate_chunk, parts, 1, source, lambda: source)
        for part in done:
            if part.lines == 0 and part.results:  # the file could not be opened again
                yield part.results[0]
                return
            for result in part.results:
                yield shifted(result, self.count)
            self.count += part.lines

    def _by_lines(
        self, handle: BinaryIO, pool: Pool[Any] | None
    ) -> Generator[ValidLine | InvalidLine]:
        """A stream's lines, read and copied here, validated (by any process of ``pool``)."""
        items = self._scan(handle)
        source = self.source
        if pool is None:
            yield from (validate_line(source, item) for item in items)
            return
        from textcontract._pool import MIN_ITEMS_FOR_WORKERS

        head = list(islice(items, MIN_ITEMS_FOR_WORKERS))
        pool.start(len(head))  # the pool's one decision: workers for the run, or none
        yield from pool.map(validate_line, chain(head, items), _BATCH, source, lambda: source)

    def _open_first(self, stdin: BinaryIO | None, problems: list[Problem]) -> _Source:
        """The stream of the first pass: standard input, or the file at the path, opened
        only once it is known to be a regular file or a pipe (opening a device can have
        effects, and reading one can be endless)."""
        if stdin is not None:
            return self._copied(_Source(stdin, owned=False), problems)
        try:
            problem = path_problem(self.path) or refused_kind(os.stat(self.path).st_mode)
            if problem is not None:
                raise OSError(None, problem)
            handle = open(self.path, "rb")  # noqa: SIM115 - closed by _Source
        except OSError as exc:
            problems.append(_unreadable(exc, self.display))
            return _Source(None, owned=False)
        opened = os.fstat(handle.fileno())
        swapped = refused_kind(opened.st_mode)  # since the stat above
        if swapped is not None:
            handle.close()
            problems.append(_unreadable(OSError(None, swapped), self.display))
            return _Source(None, owned=False)
        if stat.S_ISREG(opened.st_mode):
            self.shared = _shared_path(self.path, opened)
            return _Source(handle, owned=True)
        return self._copied(_Source(handle, owned=True), problems)

    def _copied(self, source: _Source, problems: list[Problem]) -> _Source:
        """``source``, to be copied as it is read: with a temporary file for the copy."""
        try:
            self._spool = temporary_copy()
        except CopyStopped as stopped:
            problems.append(Problem(str(stopped), Location(self.display)))
            source.close()
            return _Source(None, owned=False)
        return source

    def _scan(self, handle: BinaryIO) -> Iterator[LineAt | BadLine]:
        """Every line of ``handle`` with its bytes, or why it is refused; copied to the
        spool when there is one, under the cap on the whole stream (a line that cannot be
        read or copied ends the pass, refused)."""
        if self._spool is None:
            yield from self._lines(handle)
            self.size = handle.tell()
            return
        copy = StreamCopy(handle, self._spool)
        try:
            yield from self._lines(copy)
        except CopyStopped as stopped:
            self.count += 1
            yield BadLine(self.count, Problem(str(stopped), Location(self.display, self.count)))
        else:
            try:
                copy.finish()
            except CopyStopped as stopped:
                yield BadLine(self.count, Problem(str(stopped), Location(self.display)))
        self.size = copy.size

    def _lines(self, reader: LineReader) -> Iterator[LineAt | BadLine]:
        for number, start, data in split_lines(reader, self.display):
            self.count = number
            if isinstance(data, Problem):
                yield BadLine(number, data)
            else:
                yield LineAt(number, start, len(data), data)

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
            raise unreadable(exc, self.display) from None
        if size != self.size:
            raise InputError.at(CHANGED, self.display)


def _lines_up_to(handle: BinaryIO, limit: int) -> int:
    """How many lines the file of ``handle`` holds, counted up to ``limit`` (reading no
    further than that takes)."""
    handle.seek(0)
    count, last = 0, b""
    while count < limit and (block := handle.read(_COUNT_BLOCK)):
        count += block.count(b"\n")
        last = block
    if count < limit and last and not last.endswith(b"\n"):
        count += 1  # the last line, without a line break
    return min(count, limit)


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
        self.close()

    def close(self) -> None:
        if self.owned and self.handle is not None:
            self.handle.close()


def _unreadable(exc: OSError, display: str) -> Problem:
    return Problem(f"cannot read file: {exc.strerror or exc}", Location(display))
