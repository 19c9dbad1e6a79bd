"""``check --format json|jsonl``: one object, an array for several documents, or lines.

Both write report after report as they come: ``json`` streams the array (the same bytes
as ``json.dumps(reports, indent=2)``), ``jsonl`` writes one line per report.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from textcontract.formats.json_text import dumps_compact, dumps_pretty, write_pretty

__all__ = ["write_json", "write_jsonl"]

Write = Callable[[str], object]


def write_json(reports: Iterable[Mapping[str, Any]], several: bool, write: Write) -> None:
    """One report as an object, or (``several``) all of them as an array, streamed."""
    if several:
        write_pretty(iter(reports), write)
        return
    for report in reports:
        write(dumps_pretty(report))


def write_jsonl(reports: Iterable[Mapping[str, Any]], write: Write) -> None:
    """One compact line per report."""
    for report in reports:
        write(dumps_compact(report) + "\n")
