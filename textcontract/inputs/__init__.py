"""Inputs: documents and contexts from files, folders, standard input and batch files.

``load_document_file`` / ``load_context_file`` read one file; :func:`read_inputs` is the
first pass of a ``check`` run over everything it names (SPEC §11), and
:func:`load_input` reads each input again in the second.
"""

from typing import TYPE_CHECKING, Any

from textcontract.inputs._batch import BatchCase, parse_case
from textcontract.inputs._discover import (
    CONTEXT_SUFFIX,
    DOCUMENT_SUFFIXES,
    STDIN_ARGUMENT,
    STDIN_NAME,
    display_path,
    is_context_name,
    is_document_name,
    paired_context,
)
from textcontract.inputs._documents import (
    DOCUMENT_KINDS,
    context_from_bytes,
    document_from_bytes,
    document_kind,
    is_json_name,
    load_context_file,
    load_document_file,
    read_text_file,
)
from textcontract.inputs._items import (
    FileInput,
    HeldInput,
    InputItem,
    LineInput,
    LineRef,
    LoadedInput,
    Origin,
    load_input,
    surface_file_lines,
)
from textcontract.inputs._markdown import parse_markdown, split_front_matter
from textcontract.inputs._plan import CheckInputs, read_inputs, request_problems

if TYPE_CHECKING:
    from textcontract.inputs._baseline import read_baseline


def __getattr__(name: str) -> Any:
    # a baseline reader loads only for `check --baseline`, not on every check
    if name == "read_baseline":
        from textcontract.inputs._baseline import read_baseline

        return read_baseline
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "CONTEXT_SUFFIX",
    "DOCUMENT_KINDS",
    "DOCUMENT_SUFFIXES",
    "STDIN_ARGUMENT",
    "STDIN_NAME",
    "BatchCase",
    "CheckInputs",
    "FileInput",
    "HeldInput",
    "InputItem",
    "LineInput",
    "LineRef",
    "LoadedInput",
    "Origin",
    "context_from_bytes",
    "display_path",
    "document_from_bytes",
    "document_kind",
    "is_context_name",
    "is_document_name",
    "is_json_name",
    "load_context_file",
    "load_document_file",
    "load_input",
    "paired_context",
    "parse_case",
    "parse_markdown",
    "read_baseline",
    "read_inputs",
    "read_text_file",
    "request_problems",
    "split_front_matter",
    "surface_file_lines",
]
