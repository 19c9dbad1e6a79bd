"""``check --format json|jsonl``: one object, an array for several documents, or lines.

Both write report after report as they come: ``json`` streams the array (the same bytes
as ``json.dumps(reports, indent=2)``), ``jsonl`` writes one line per report.

Each report's text is rendered on its own — :func:`jsonl_line`, :func:`json_item` (a report
inside the array), :func:`json_document` (the one report of a run) — by whichever process
checked it (``check --jobs``); :func:`write_texts` then puts the texts together in order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from textcontract.formats.json_text import INDENT, dumps_compact, dumps_pretty

if TYPE_CHECKING:
    from textcontract.model import Report

__all__ = ["dict_renderer", "json_document", "json_item", "jsonl_line", "write_texts"]

Write = Callable[[str], object]

_ITEM_BREAK = "\n" + " " * INDENT
"""A line break inside an item of the top-level array: one level deeper than at the top."""


def jsonl_line(report: Report) -> str:
    """A report's line of JSON Lines output, line break included."""
    return _jsonl_text(report.to_dict())


def json_document(report: Report) -> str:
    """A report as the whole ``--format json`` output of a one-document run."""
    return dumps_pretty(report.to_dict())


def json_item(report: Report) -> str:
    """A report as an item of the ``--format json`` array, without the separator before it."""
    return _item_text(report.to_dict())


def _jsonl_text(report: Mapping[str, Any]) -> str:
    return dumps_compact(report) + "\n"


def _item_text(report: Mapping[str, Any]) -> str:
    """The indented text of the report, each line after the first indented one level more:
    JSON text holds no raw line break inside a string, so every line break is the layout's.
    """
    return dumps_pretty(report)[:-1].replace("\n", _ITEM_BREAK)


def dict_renderer(output_format: str, several: bool) -> Callable[[Mapping[str, Any]], str]:
    """What renders a report given as JSON (one marked against a baseline) for
    ``output_format`` (``json`` or ``jsonl``), as the functions above render a report."""
    if output_format == "jsonl":
        return _jsonl_text
    return _item_text if several else dumps_pretty


def write_texts(texts: Iterable[str], array: bool, write: Write) -> None:
    """Reports' texts in order: :func:`json_item` texts as one array (``array``), else
    :func:`jsonl_line` or :func:`json_document` texts one after another.

    The array is the bytes of ``json.dumps(reports, ensure_ascii=False, indent=2)`` and a
    final line break, written one report at a time."""
    if not array:
        for text in texts:
            write(text)
        return
    opening = "[" + _ITEM_BREAK
    for text in texts:
        write(opening + text)
        opening = "," + _ITEM_BREAK
    write("[]\n" if opening.startswith("[") else "\n]\n")
