"""``check --batch FILE.jsonl``: one case per line, as LLM outputs are logged (SPEC §11).

Each line is a JSON object ``{"id": "…", "document": <§2.2 JSON form or a plain
string>, "context": <§2.1 form, optional>}``. Lines end with ``\\n`` (a ``\\r`` before it
is dropped, and a BOM at the start of the file); a line that is empty or blank is an
error, as is one that is not an object, has an unknown key, lacks ``id`` or
``document``, or repeats an earlier line's ``id``. Every problem names the file and the
line (``outputs.jsonl:3: document.surfaces.body: …``).

The input size cap (:func:`textcontract._files.input_size_cap`) applies to each line, not
to the file: a batch may hold any number of cases. A batch that is not a regular file
(standard input, a pipe) is copied to a temporary file as it is read, so that the second
pass can read it again.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from dataclasses import replace
from typing import IO, Any, BinaryIO, NamedTuple

from textcontract._files import MAX_INPUT_ENV, describe_size, input_size_cap, path_problem
from textcontract._json import loads_strict
from textcontract.errors import InputError, Location, Problem, render_key_path
from textcontract.fields import MISSING, FieldReader
from textcontract.model import BODY, Context, Document

__all__ = ["BatchCase", "BatchLines", "parse_case"]

_BOM = b"\xef\xbb\xbf"
_KEYS = ("id", "document", "context")


class BatchCase(NamedTuple):
    """One validated line: its id, document and context (None: the run's default)."""

    id: str
    document: Document
    context: Context | None


def _at_line(problem: Problem, file: str, line: int, *, keep_column: bool) -> Problem:
    where = problem.location
    column = where.column if keep_column and where.line is not None else None
    return replace(problem, location=replace(where, file=file, line=line, column=column))


def _document(value: Any, reader: FieldReader, file: str) -> Document | None:
    if value is MISSING:
        return None
    if isinstance(value, str):
        value = {"surfaces": {BODY: value}}
    elif not isinstance(value, dict):
        reader.problem(("document",), "expected a document (a JSON object) or a plain string")
        return None
    try:
        return Document.from_json(value, file)
    except InputError as error:
        reader.absorb(error, ("document",))
        return None


def _context(value: Any, reader: FieldReader, file: str) -> Context | None:
    if value is None:
        return None
    try:
        return Context.from_json(value, file)
    except InputError as error:
        reader.absorb(error, ("context",))
        return None


def _json_line(data: bytes, file: str, line: int) -> object:
    """The JSON value of one line; its UTF-8 or JSON problems name ``file`` and ``line``."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError.at(
            f"invalid UTF-8 ({exc.reason}) at byte {exc.start} of the line", file, line=line
        ) from None
    try:
        return loads_strict(text, file)
    except InputError as error:
        raise InputError(
            [_at_line(problem, file, line, keep_column=True) for problem in error.problems]
        ) from None


def parse_case(data: bytes, file: str, line: int) -> BatchCase:
    """The case on one line (without its line break); problems name ``file`` and ``line``."""
    value = _json_line(data, file, line)
    reader = FieldReader(file)
    if not isinstance(value, dict):
        kind = "an array" if isinstance(value, list) else "not an object"
        raise InputError.at(
            f"a batch line must be a JSON object with id, document and optionally context; "
            f"this one is {kind}",
            file,
            line=line,
        )
    fields = reader.mapping(value, required=("id", "document"), optional=("context",))
    case_id = reader.string(fields["id"], ("id",), blank=False)
    document = _document(fields["document"], reader, file)
    context = _context(fields.get("context"), reader, file)
    if reader.problems or document is None:
        raise InputError(
            [_at_line(problem, file, line, keep_column=False) for problem in reader.problems]
        )
    return BatchCase(case_id, document, context)


def _duplicate(case_id: str, first: int, file: str, line: int) -> Problem:
    return Problem(
        f"duplicate id {case_id!r}: line {first} has it too (ids must be unique in a batch)",
        Location(file, line, key=render_key_path(["id"])),
    )


class BatchLines:
    """The lines of a batch file, read once to validate and again to check.

    :meth:`validate` is the first pass: every line parsed and checked, ids held to be
    unique, and what is needed to read each line again kept (a SHA-256 of it); a batch that
    is not a regular file is copied to a temporary file on the way. :meth:`lines` is the
    second pass. Use as a context manager: it closes the copy.
    """

    def __init__(self, path: str, display: str) -> None:
        self.path = path
        self.display = display
        self.count = 0
        self._spool: IO[bytes] | None = None

    def __enter__(self) -> BatchLines:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._spool is not None:
            self._spool.close()
            self._spool = None

    def validate(self, stdin: BinaryIO | None, problems: list[Problem]) -> Iterator[bytes]:
        """Parse every line; yield each valid line's bytes (for its fingerprint)."""
        seen: dict[str, int] = {}
        with self._open_first(stdin, problems) as source:
            if source is None:
                return
            for number, data in _lines(source, self.display, problems, self._spool):
                self.count = number
                if data is None:
                    continue
                try:
                    case = parse_case(data, self.display, number)
                except InputError as error:
                    problems.extend(error.problems)
                    continue
                if case.id in seen:
                    problems.append(_duplicate(case.id, seen[case.id], self.display, number))
                    continue
                seen[case.id] = number
                yield data
        if self.count == 0 and not problems:
            problems.append(Problem("the batch holds no cases", Location(self.display)))

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
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            self._spool = _temporary()
        return _Source(handle, owned=True)

    def lines(self) -> Iterator[tuple[int, bytes]]:
        """The second pass: ``(line number, bytes)`` of every line, from the file or its copy."""
        if self._spool is not None:
            self._spool.seek(0)
            yield from _valid_lines(self._spool, self.display)
            return
        try:
            with open(self.path, "rb") as handle:
                yield from _valid_lines(handle, self.display)
        except OSError as exc:
            raise InputError.at(
                f"cannot read file again: {exc.strerror or exc}", self.display
            ) from None


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


def _valid_lines(handle: BinaryIO | IO[bytes], display: str) -> Iterator[tuple[int, bytes]]:
    problems: list[Problem] = []
    for number, data in _lines(handle, display, problems, None):
        if data is None or problems:
            raise InputError.at(
                "the batch changed since it was validated; run again", display, line=number
            )
        yield number, data


def _lines(
    handle: BinaryIO | IO[bytes],
    display: str,
    problems: list[Problem],
    copy: IO[bytes] | None,
) -> Iterator[tuple[int, bytes | None]]:
    """``(number, line without its line break)``, or None for a line that is a problem."""
    cap = input_size_cap()
    number = 0
    while raw := handle.readline(cap + 2):
        number += 1
        if copy is not None:
            copy.write(raw)
        if not raw.endswith(b"\n") and len(raw) > cap:
            _skip_rest(handle, copy)
            problems.append(_too_long(display, number, cap))
            yield number, None
            continue
        data = raw[:-1] if raw.endswith(b"\n") else raw
        data = data[:-1] if data.endswith(b"\r") else data
        if number == 1 and data.startswith(_BOM):
            data = data[len(_BOM) :]
        if not data.strip():
            problems.append(
                Problem(
                    "empty line: each line holds one case, a JSON object with id, document "
                    "and optionally context",
                    Location(display, number),
                )
            )
            yield number, None
            continue
        yield number, data


def _skip_rest(handle: BinaryIO | IO[bytes], copy: IO[bytes] | None) -> None:
    """Read on to the end of an overlong line (copying it, when the batch is copied)."""
    while chunk := handle.readline(1 << 20):
        if copy is not None:
            copy.write(chunk)
        if chunk.endswith(b"\n"):
            return


def _too_long(display: str, number: int, cap: int) -> Problem:
    return Problem(
        f"the line is larger than the input size cap of {describe_size(cap)} "
        f"(set {MAX_INPUT_ENV} to raise it)",
        Location(display, number),
    )
