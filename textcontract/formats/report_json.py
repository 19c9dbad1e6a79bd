"""``check --format json|jsonl``: one object, an array for several documents, or lines."""

from __future__ import annotations

from collections.abc import Sequence

from textcontract.formats.json_text import dumps_compact, dumps_pretty
from textcontract.model import Report

__all__ = ["render_json", "render_jsonl"]


def render_json(reports: Sequence[tuple[str, Report]]) -> str:
    if len(reports) == 1:
        return dumps_pretty(reports[0][1].to_dict())
    return dumps_pretty([report.to_dict() for _, report in reports])


def render_jsonl(reports: Sequence[tuple[str, Report]]) -> str:
    return "".join(dumps_compact(report.to_dict()) + "\n" for _, report in reports)
