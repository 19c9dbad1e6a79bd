"""Reading contexts and documents from files and bytes (SPEC §2.1, §2.2, §18).

A document file is JSON when its name ends in ``.json``; anything else is text with
optional YAML front matter whose text after the front matter becomes surface ``body``,
written in Markdown for ``.md``/``.markdown``, in HTML for ``.html``/``.htm``, and plain
otherwise (``.txt``, and any other name, whose digests stay those of 0.2). Every file is
read by the one bounded reader (:mod:`textcontract._files`).
"""

from __future__ import annotations

import os
from pathlib import Path

from textcontract._files import decode_utf8, read_input_text
from textcontract._json import loads_strict
from textcontract._surface_origins import json_origins
from textcontract.inputs._markdown import parse_markdown
from textcontract.model import Context, Document

__all__ = [
    "DOCUMENT_KINDS",
    "context_from_bytes",
    "document_from_bytes",
    "document_kind",
    "is_json_name",
    "load_context_file",
    "load_document_file",
    "read_text_file",
]


DOCUMENT_KINDS = ("json", "markdown", "html", "plain")
"""How a document is read: JSON, or text whose body is written in one of the formats."""

_KIND_OF_SUFFIX = {".json": "json", ".md": "markdown", ".markdown": "markdown"}
_KIND_OF_SUFFIX |= {".html": "html", ".htm": "html"}


def is_json_name(name: str) -> bool:
    """Whether a document file of this name is read as JSON (else as text)."""
    return name.endswith(".json")


def document_kind(name: str) -> str:
    """How a document file of this name is read (one of :data:`DOCUMENT_KINDS`)."""
    return _KIND_OF_SUFFIX.get(os.path.splitext(name)[1], "plain")


def read_text_file(path: str | os.PathLike[str], display: str) -> str:
    """UTF-8 text of a file (BOM dropped); unreadable, refused or invalid input is an error.

    The file is read by the one bounded reader (:mod:`textcontract._files`): regular files
    and pipes only, at most the input size cap.
    """
    return read_input_text(path, display)


def document_from_bytes(data: bytes, display: str, *, kind: str) -> Document:
    """The document held in ``data`` (a file's bytes), read as ``kind`` (JSON, or text
    whose body is written in ``kind``)."""
    text = decode_utf8(data, display)
    if kind == "json":
        return _json_document(text, display)
    return parse_markdown(text, display, kind, decoded=True)


def context_from_bytes(data: bytes, display: str) -> Context:
    """The context held in ``data`` (a file's bytes), in either JSON form."""
    return Context.from_json(loads_strict(decode_utf8(data, display), display), display)


def load_context_file(path: str | os.PathLike[str], display: str | None = None) -> Context:
    name = display if display is not None else os.fspath(path)
    return Context.from_json(loads_strict(read_text_file(path, name), name), name)


def load_document_file(path: str | os.PathLike[str], display: str | None = None) -> Document:
    name = display if display is not None else os.fspath(path)
    text = read_text_file(path, name)
    kind = document_kind(Path(path).name)
    if kind == "json":
        return _json_document(text, name)
    return parse_markdown(text, name, kind, decoded=True)


def _json_document(text: str, display: str) -> Document:
    """A JSON document, with the file line where each surface's text value begins."""
    raw = loads_strict(text, display)
    document = Document.from_json(raw, display)
    return document.with_origins(json_origins(text, raw, document))
