"""The inputs of a ``check`` run's second pass: small picklable items, read again.

Each item is what the first pass (:mod:`textcontract.inputs._plan`) kept of one input;
:func:`load_input` reads it again — in this process or in a worker — checks that its bytes
are those validated, and returns its document, context and where it came from.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from typing import NamedTuple

from textcontract._files import read_input_bytes
from textcontract.errors import InputError
from textcontract.inputs._discover import display_path, paired_context
from textcontract.inputs._documents import context_from_bytes, document_from_bytes, document_kind
from textcontract.model import Context, Document

__all__ = [
    "PRINT_SIZE",
    "FileInput",
    "HeldInput",
    "InputItem",
    "LineInput",
    "LineRef",
    "LoadedInput",
    "Origin",
    "fingerprint",
    "load_input",
    "surface_file_lines",
]

PRINT_SIZE = 32
"""Bytes of an input's fingerprint (a SHA-256 digest)."""


class Origin(NamedTuple):
    """Where a checked document came from, as reports and findings name it.

    ``source`` is the report's ``source`` (the path as given, ``<stdin>``, or a batch
    line's id); ``file`` is the file findings point at (the document's file, or the batch
    file with the case on ``line``); ``markdown`` says the body's lines are lines of
    ``file`` (SPEC §10).
    """

    source: str
    file: str
    line: int | None = None
    markdown: bool = False


class LoadedInput(NamedTuple):
    """One input, read: where it came from, its document, its context, its surface lines."""

    origin: Origin
    document: Document
    context: Context
    surface_lines: Mapping[str, int]


class FileInput(NamedTuple):
    """A document file (and its paired ``X.context.json`` when ``paired``) to read again."""

    path: str
    paired: bool
    fingerprint: bytes


class HeldInput(NamedTuple):
    """A document read once (standard input, a pipe): its bytes, and its paired context."""

    name: str
    data: bytes
    kind: str
    context: Context | None = None


class LineInput(NamedTuple):
    """A batch case: the bytes of line ``line`` of batch ``file`` (already checked)."""

    file: str
    line: int
    data: bytes


class LineRef(NamedTuple):
    """A batch case to read again where it is: line ``line`` of batch ``file`` (as
    messages name it), ``length`` bytes from ``start`` of the file at ``path``, which must
    hash to ``fingerprint`` (as validated). Whoever checks it reads it: no text is sent to
    a worker."""

    file: str
    path: str
    line: int
    start: int
    length: int
    fingerprint: bytes


InputItem = FileInput | HeldInput | LineInput | LineRef


def surface_file_lines(document: Document) -> dict[str, int]:
    """The file line where each surface's text value begins (SPEC §10).

    The loaders record it as each surface's origin (a markdown body's first line after the
    front matter, a front-matter scalar's line, a JSON string's line); text output and the
    CI formats take it from this one place.
    """
    return {surface.name: surface.origin.line for surface in document.surfaces}


def fingerprint(document: bytes, context: bytes | None) -> bytes:
    found = hashlib.sha256(document)
    if context is not None:
        found.update(b"\0context\0")
        found.update(context)
    return found.digest()


def _changed(display: str) -> InputError:
    return InputError.at(
        "the file changed since it was validated (its bytes differ); run again", display
    )


def _load_file(item: FileInput, default: Context) -> LoadedInput:
    display = display_path(item.path)
    data = read_input_bytes(item.path, display)
    context_data = None
    if item.paired:
        context_path = paired_context(item.path)
        context_data = read_input_bytes(context_path, display_path(context_path))
    if fingerprint(data, context_data) != item.fingerprint:
        raise _changed(display)
    kind = document_kind(os.path.basename(item.path))
    document = document_from_bytes(data, display, kind=kind)
    del data
    context = default
    if context_data is not None:
        context = context_from_bytes(context_data, display_path(paired_context(item.path)))
    origin = Origin(display, display, markdown=kind != "json")
    return LoadedInput(origin, document, context, surface_file_lines(document))


def load_input(item: InputItem, default: Context) -> LoadedInput:
    """Read one input of the second pass; ``default`` is the context when it has none."""
    if isinstance(item, FileInput):
        return _load_file(item, default)
    if isinstance(item, HeldInput):
        document = document_from_bytes(item.data, item.name, kind=item.kind)
        origin = Origin(item.name, item.name, markdown=item.kind != "json")
        context = item.context if item.context is not None else default
        return LoadedInput(origin, document, context, surface_file_lines(document))
    from textcontract.inputs._batch import parse_case

    if isinstance(item, LineInput):
        case = parse_case(item.data, item.file, item.line)
    else:  # its bytes are those validated, as their SHA-256 says
        case = parse_case(_read_line(item), item.file, item.line, validated=True)
    lines = dict.fromkeys(case.document.names, item.line)
    origin = Origin(case.id, item.file, item.line)
    context = case.context if case.context is not None else default
    return LoadedInput(origin, case.document, context, lines)


def _read_line(item: LineRef) -> bytes:
    from textcontract.inputs._batch_read import CHANGED, read_line

    data = read_line(item.path, item.start, item.length, item.file, item.line, CHANGED)
    if hashlib.sha256(data).digest() != item.fingerprint:
        raise InputError.at(CHANGED, item.file, line=item.line)
    return data
