"""``check --batch FILE.jsonl``: one case per line, as LLM outputs are logged (SPEC §11).

Each line is a JSON object ``{"id": "…", "document": <§2.2 JSON form or a plain string>,
"context": <§2.1 form, optional>}``; a plain-string document may say how it is written with
``"format"`` (``plain``, the default, ``markdown`` or ``html``; SPEC §18). Lines end with
``\\n`` (a ``\\r`` before it is dropped, and a BOM at the start of the file); a line that is
empty or blank is an error, as is one that is not an object, has an unknown key, lacks
``id`` or ``document``, or repeats an earlier line's ``id``. Every problem names the file
and the line (``outputs.jsonl:3: document.surfaces.body: …``).

This module reads one case from its line's bytes (:func:`parse_case`); finding the lines
of a file, validating them and reading them again is :mod:`textcontract.inputs._batch_lines`.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any, NamedTuple

from textcontract._json import loads_strict
from textcontract.errors import InputError, Problem
from textcontract.fields import MISSING, FieldReader
from textcontract.model import BODY, PLAIN, Context, Document, surface_format

__all__ = ["BatchCase", "parse_case"]


class BatchCase(NamedTuple):
    """One validated line: its id, document and context (None: the run's default)."""

    id: str
    document: Document
    context: Context | None


def _at_line(problem: Problem, file: str, line: int, *, keep_column: bool) -> Problem:
    where = problem.location
    column = where.column if keep_column and where.line is not None else None
    return replace(problem, location=replace(where, file=file, line=line, column=column))


def _document(value: Any, written: Any, reader: FieldReader, file: str) -> Document | None:
    if value is MISSING:
        return None
    if written is not MISSING and not isinstance(value, str):
        reader.problem(
            ("format",),
            "format applies to a plain-string document; give each surface of a document "
            "object its own format",
        )
    if isinstance(value, str):
        body: Any = value
        if written is not MISSING:
            problems: list[Problem] = []
            found = surface_format(written, ["format"], file, problems)
            for problem in problems:
                reader.problem(("format",), problem.message)
            if found != PLAIN:
                body = {"text": value, "format": found}
        value = {"surfaces": {BODY: body}}
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


def _json_line(data: bytes, file: str, line: int, validated: bool) -> object:
    """The JSON value of one line; its UTF-8 or JSON problems name ``file`` and ``line``."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError.at(
            f"invalid UTF-8 ({exc.reason}) at byte {exc.start} of the line", file, line=line
        ) from None
    if validated:
        # loads_strict refuses what json.loads takes (duplicate keys, NaN, over-long
        # integers, lone surrogates, deep nesting) and otherwise builds the same value
        return json.loads(text)
    try:
        return loads_strict(text, file)
    except InputError as error:
        raise InputError(
            [_at_line(problem, file, line, keep_column=True) for problem in error.problems]
        ) from None


def parse_case(data: bytes, file: str, line: int, *, validated: bool = False) -> BatchCase:
    """The case on one line (without its line break); problems name ``file`` and ``line``.

    ``validated`` says these bytes were parsed by this function before without a problem
    (the second pass, which checks their SHA-256 first): the strict JSON reader's checks
    are not made again.
    """
    value = _json_line(data, file, line, validated)
    reader = FieldReader(file)
    if not isinstance(value, dict):
        kind = "an array" if isinstance(value, list) else "not an object"
        raise InputError.at(
            f"a batch line must be a JSON object with id, document and optionally context "
            f"and format; "
            f"this one is {kind}",
            file,
            line=line,
        )
    fields = reader.mapping(value, required=("id", "document"), optional=("context", "format"))
    case_id = reader.string(fields["id"], ("id",), blank=False)
    document = _document(fields["document"], fields.get("format", MISSING), reader, file)
    context = _context(fields.get("context"), reader, file)
    if reader.problems or document is None:
        raise InputError(
            [_at_line(problem, file, line, keep_column=False) for problem in reader.problems]
        )
    return BatchCase(case_id, document, context)
