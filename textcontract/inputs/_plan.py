"""The inputs of one ``check`` run, read in two passes (SPEC §11 "Streaming").

:func:`read_inputs` is the first pass: it finds every document (files, folders, standard
input, or the lines of a batch), reads and validates each with its context, collects
every problem, and keeps only what is needed to read each input again — its path, whether
a paired context goes with it, and a SHA-256 of the bytes read — so memory does not grow
with the documents' size. Standard input and pipes cannot be read twice: their bytes are
held (one document each). Iterating the :class:`CheckInputs` is the second pass: each
input comes back as a small picklable item (:mod:`textcontract.inputs._items`), which
:func:`~textcontract.inputs._items.load_input` turns into its document and context.

The lines of a batch are validated in the processes of the run's pool when one is given
(:mod:`textcontract.inputs._batch_lines`); everything else is read by this process.
"""

from __future__ import annotations

import hashlib
import os
from array import array
from collections.abc import Iterator, Mapping, Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any, BinaryIO

from textcontract._files import read_input_bytes, read_stream_bytes
from textcontract.errors import InputError, Location, Problem
from textcontract.inputs._discover import (
    NO_EXCLUSIONS,
    STDIN_ARGUMENT,
    STDIN_NAME,
    Exclusions,
    Found,
    display_path,
    find_documents,
    paired_context,
    search_folder,
    written_here,
)
from textcontract.inputs._documents import context_from_bytes, document_from_bytes, document_kind
from textcontract.inputs._items import (
    PRINT_SIZE,
    FileInput,
    HeldInput,
    InputItem,
    LineInput,
    LineRef,
    fingerprint,
)
from textcontract.model import Context

if TYPE_CHECKING:
    from textcontract._pool import Pool
    from textcontract.inputs._batch_lines import BatchLines  # imported for a batch only

__all__ = ["CheckInputs", "read_inputs", "request_problems"]


class _Folder:
    """A folder named on the command line: searched again in the second pass."""

    __slots__ = ("argument", "count", "path")

    def __init__(self, path: str, argument: int, count: int) -> None:
        self.path = path
        self.argument = argument
        self.count = count


class CheckInputs:
    """The first pass's result: every input validated, in order, ready to be read again.

    Per document it holds 33 bytes (a SHA-256 and whether a paired context goes with it);
    a file named on the command line is kept as its argument, and a folder is searched
    again in the second pass rather than its documents' paths being kept. Per batch line it
    holds 48 bytes (a SHA-256, where the line starts and how long it is). Iterate it for
    the second pass; use it as a context manager, which removes the copy of a batch read
    from a pipe.
    """

    def __init__(self, context: Context, exclusions: Exclusions = NO_EXCLUSIONS) -> None:
        self.context = context
        self.exclusions = exclusions
        """What the folder searches leave out, in both passes."""
        """The context of a document that has none of its own (``--context``, else empty)."""
        self._entries: list[str | HeldInput | _Folder] = []
        self._paired = bytearray()
        self._prints = bytearray()
        self._batch: BatchLines | None = None
        self._starts = array("Q")
        self._lengths = array("Q")

    def __len__(self) -> int:
        return len(self._prints) // PRINT_SIZE

    def __enter__(self) -> CheckInputs:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        if self._batch is not None:
            self._batch.close()

    def _print(self, index: int) -> bytes:
        return bytes(self._prints[index * PRINT_SIZE : (index + 1) * PRINT_SIZE])

    def _add(self, found: Found, held: HeldInput | None, paired: bool, fingerprint: bytes) -> None:
        """Keep a validated document: its place in order, its paired flag, its fingerprint."""
        last = self._entries[-1] if self._entries else None
        if held is not None:
            self._entries.append(held)
        elif found.folder is None:
            self._entries.append(str(found.path))
        elif isinstance(last, _Folder) and last.argument == found.folder[0]:
            last.count += 1
        else:
            self._entries.append(_Folder(found.folder[1], found.folder[0], 1))
        self._paired.append(paired)
        self._prints += fingerprint

    def __iter__(self) -> Iterator[InputItem]:
        if self._batch is not None:
            yield from self._lines(self._batch)
            return
        index = 0
        for entry in self._entries:
            if isinstance(entry, _Folder):
                for path in self._search_again(entry):
                    yield FileInput(path, bool(self._paired[index]), self._print(index))
                    index += 1
                continue
            if isinstance(entry, HeldInput):
                yield entry
            else:
                yield FileInput(entry, bool(self._paired[index]), self._print(index))
            index += 1

    def _search_again(self, folder: _Folder) -> Iterator[str]:
        problems: list[Problem] = []
        found = 0
        for path in search_folder(folder.path, problems, self.exclusions):
            found += 1
            if found > folder.count:
                break
            yield path
        if problems or found != folder.count:
            raise InputError.at(
                "the folder changed since it was searched (documents were added, removed "
                "or made unreadable); run again",
                display_path(folder.path),
            )

    def _lines(self, batch: BatchLines) -> Iterator[LineInput | LineRef]:
        """The second pass over a batch; every line was valid, so line N is entry N - 1.
        A file's lines are read by whoever checks them; lines of a file no worker could
        open by a path (a copy of a stream, ``/dev/stdin``) are read here."""
        batch.check_unchanged()
        for index, (start, length) in enumerate(zip(self._starts, self._lengths, strict=True)):
            number = index + 1
            printed = self._print(index)
            if batch.shared is not None:
                yield LineRef(batch.display, batch.shared, number, start, length, printed)
                continue
            data = batch.read(start, length, number)
            if hashlib.sha256(data).digest() != printed:
                raise InputError.at(
                    "the batch changed since it was validated; run again",
                    batch.display,
                    line=number,
                )
            yield LineInput(batch.display, number, data)
        batch.check_unchanged()


def read_inputs(
    documents: Sequence[str],
    *,
    batch: str | None = None,
    context: str | None = None,
    stdin_format: str = "markdown",
    stdin: BinaryIO | None = None,
    pool: Pool[Any] | None = None,
    exclude: Sequence[str] = (),
    outputs: Mapping[str, str] | None = None,
) -> CheckInputs:
    """The first pass over ``check``'s inputs; raises one :class:`InputError` listing every
    problem of every input.

    ``documents`` are paths as given (``-`` for standard input, read from ``stdin`` as
    ``stdin_format``: ``json``, or text whose body is ``markdown``, ``html`` or ``plain``);
    ``batch`` a batch file (``-`` for standard input); ``context`` the one context for every
    document (else each file's paired ``X.context.json``, else the empty context). A batch's
    lines are validated in the processes of ``pool`` when given (which then decides, once,
    whether the run has workers). Folder searches leave out paths matching the ``exclude``
    patterns and the files of ``outputs`` (each written by this run, keyed to the option
    naming it: :class:`Exclusions`); no input may be one of those files.
    """
    problems = request_problems(documents, batch)
    exclusions = Exclusions(exclude, outputs)
    shared = _shared_context(context, problems)
    inputs = CheckInputs(shared if shared is not None else Context.empty(), exclusions)
    try:
        if batch is not None and not documents:
            option = _written_by(batch, exclusions)
            if option is not None:
                problems.append(Problem(written_here(option), Location(display_path(batch))))
            else:
                _read_batch(inputs, batch, stdin, problems, pool)
        else:
            _Reader(inputs, problems, stdin, stdin_format, paired=context is None).read(documents)
    except BaseException:
        inputs.close()
        raise
    if problems:
        inputs.close()
        raise InputError(problems)
    return inputs


def _written_by(path: str, exclusions: Exclusions) -> str | None:
    if path == STDIN_ARGUMENT:
        return None
    try:
        return exclusions.written_by(os.stat(path))
    except (OSError, ValueError):
        return None  # the batch reader reports what is wrong with it


def request_problems(documents: Sequence[str], batch: str | None) -> list[Problem]:
    """What is wrong with asking for these inputs at all (none, or two kinds at once)."""
    if documents and batch is not None:
        return [Problem("give documents (DOC…) or --batch FILE, not both")]
    if not documents and batch is None:
        return [Problem("nothing to check: give documents (DOC…) or --batch FILE")]
    return []


def _shared_context(context: str | None, problems: list[Problem]) -> Context | None:
    if context is None:
        return None
    display = display_path(context)
    try:
        return context_from_bytes(read_input_bytes(context, display), display)
    except InputError as error:
        problems.extend(error.problems)
        return None


def _read_batch(
    inputs: CheckInputs,
    batch: str,
    stdin: BinaryIO | None,
    problems: list[Problem],
    pool: Pool[Any] | None,
) -> None:
    from_stdin = batch == STDIN_ARGUMENT
    if from_stdin and stdin is None:
        problems.append(Problem("there is no standard input to read the batch from"))
        return
    from textcontract.inputs._batch_lines import BatchLines

    lines = BatchLines(batch, STDIN_NAME if from_stdin else display_path(batch))
    inputs._batch = lines
    for line in lines.validate(stdin if from_stdin else None, problems, pool):
        inputs._prints += line.fingerprint
        inputs._starts.append(line.start)
        inputs._lengths.append(line.length)


class _Reader:
    """The first pass over documents named on the command line."""

    def __init__(
        self,
        inputs: CheckInputs,
        problems: list[Problem],
        stdin: BinaryIO | None,
        stdin_format: str,
        *,
        paired: bool,
    ) -> None:
        self.inputs = inputs
        self.problems = problems
        self.stdin = stdin
        self.stdin_format = stdin_format
        self.paired = paired

    def read(self, arguments: Sequence[str]) -> None:
        for found in find_documents(arguments, self.problems, self.inputs.exclusions):
            self._found(found)

    def _found(self, found: Found) -> None:
        if found.path is None:
            self._stdin()
            return
        display = display_path(found.path)
        try:
            data = read_input_bytes(found.path, display)
        except InputError as error:
            self.problems.extend(error.problems)
            return
        kind = document_kind(os.path.basename(found.path))
        valid = self._valid_document(data, display, kind)
        paired_valid, context_data, context = self._paired_context(found.path)
        if not (valid and paired_valid):
            return
        if found.pipe:
            held = HeldInput(display, data, kind, context)
            self.inputs._add(found, held, False, bytes(PRINT_SIZE))
        else:
            printed = fingerprint(data, context_data)
            self.inputs._add(found, None, context_data is not None, printed)

    def _valid_document(self, data: bytes, display: str, kind: str) -> bool:
        try:
            document_from_bytes(data, display, kind=kind)
        except InputError as error:
            self.problems.extend(error.problems)
            return False
        return True

    def _paired_context(self, path: str) -> tuple[bool, bytes | None, Context | None]:
        """``(valid, bytes, context)`` of ``path``'s paired context; no bytes when there is
        none, or when ``--context`` replaces it."""
        if not self.paired:
            return True, None, None
        context_path = paired_context(path)
        if not os.path.lexists(context_path):
            return True, None, None
        display = display_path(context_path)
        try:
            data = read_input_bytes(context_path, display)
            return True, data, context_from_bytes(data, display)
        except InputError as error:
            self.problems.extend(error.problems)
            return False, None, None

    def _stdin(self) -> None:
        if self.stdin is None:
            self.problems.append(
                Problem("there is no standard input to read", Location(STDIN_NAME))
            )
            return
        try:
            data = read_stream_bytes(self.stdin, STDIN_NAME)
        except InputError as error:
            self.problems.extend(error.problems)
            return
        if self._valid_document(data, STDIN_NAME, self.stdin_format):
            held = HeldInput(STDIN_NAME, data, self.stdin_format)
            self.inputs._add(Found(None), held, False, bytes(PRINT_SIZE))
