"""A mutation written as a §6 ``change``: the smallest edits that rebuild its trial exactly.

Text edits become ``replace`` entries whose ``find`` occurs exactly once in the baseline
surface (so "every occurrence" is that one) and is widened to whole words; claims and facts
become ``claims`` / ``context`` merges and ``remove_context`` removals. When an edit cannot
be said that way (a surface added, removed, renamed or re-stated, a claim removed, an empty
baseline text), the change carries the whole ``document``. Each text edit is checked by
applying it as the audit does (``str.replace``) before it is used.
"""

from __future__ import annotations

from typing import Any

from textcontract.errors import InternalError
from textcontract.model import Context, Document, FactValue, Surface, same_value
from textcontract.mutate._edit_window import (
    Stops,
    common_prefix,
    common_suffix,
    first_rebuilding_window,
    widen,
)

__all__ = ["Stops", "encode_change", "text_edit"]


def text_edit(old: str, new: str, stops: Stops | None = None) -> tuple[str, str] | None:
    """``(find, with)`` such that ``old.replace(find, with) == new`` and ``find`` occurs in
    ``old`` exactly once; ``None`` when ``old`` is empty (nothing can be found in it).

    ``find`` is the changed part widened to whole words (whole lines when it spans a line
    break, the whole text when it is most of it), then further until it occurs once
    (``_edit_window``, which keeps what it found about ``old`` in ``stops`` for the next
    edit of the same text).
    """
    if not old:
        return None
    prefix = common_prefix(old, new)
    suffix = common_suffix(old, new, limit=min(len(old), len(new)) - prefix)
    start, end = widen(old, prefix, len(old) - suffix)
    if "\n" in old[start:end]:
        start, end = _whole_lines(old, start, end)
    if 2 * (end - start) > len(old):
        start, end = 0, len(old)  # most of the text changes: show it whole
    # the first of the windows grown from there (a character each side, then to whole
    # words) that occurs once and rebuilds the new text, found in linear time
    start, end = first_rebuilding_window(
        old, new, (start, end), (prefix, suffix), Stops() if stops is None else stops
    )
    return old[start:end], new[start : len(new) - (len(old) - end)]


def _whole_lines(text: str, start: int, end: int) -> tuple[int, int]:
    """``[start, end)`` grown to the start and the end of its lines."""
    start = text.rfind("\n", 0, start) + 1
    newline = text.find("\n", end)
    return start, len(text) if newline < 0 else newline


def _surface_edits(old: Document, new: Document, stops: Stops) -> list[dict[str, Any]] | None:
    """One ``replace`` entry per changed text, or ``None`` when ``new`` differs from ``old`` in
    more than texts and claims set or added (then only the whole document can say it)."""
    if old.names != new.names:
        return None
    edits = []
    for before, after in zip(old.surfaces, new.surfaces, strict=True):
        if before.state != after.state or before.anchors != after.anchors:
            return None
        if list(after.claims)[: len(before.claims)] != list(before.claims):
            return None  # a claim removed or moved: a merge cannot do that
        if before.text != after.text:
            edit = text_edit(before.text, after.text, stops)
            if edit is None:
                return None
            edits.append({"surface": before.name, "find": edit[0], "with": edit[1]})
    return edits


def _claim_changes(before: Surface, after: Surface) -> dict[str, FactValue]:
    return {
        key: value
        for key, value in after.claims.items()
        if key not in before.claims or not same_value(before.claims[key], value)
    }


def _document_changes(old: Document, new: Document, stops: Stops) -> dict[str, Any]:
    edits = _surface_edits(old, new, stops)
    if edits is None:
        return {"document": new.to_json()}
    change: dict[str, Any] = {}
    claims: dict[str, dict[str, FactValue]] = {}
    for before, after in zip(old.surfaces, new.surfaces, strict=True):
        changed = _claim_changes(before, after)
        if changed:
            claims[before.name] = changed
    if edits:
        change["replace"] = edits
    if claims:
        change["claims"] = claims
    return change


def _context_changes(old: Context, new: Context) -> dict[str, Any]:
    if old.closed_premises != new.closed_premises or old.history != new.history:
        raise InternalError("a change cannot edit closed premises or history")
    missing = [name for name in old.states if name not in new.states]
    if missing:
        raise InternalError(f"a change cannot remove snapshot {missing[0]!r}")
    merged: dict[str, dict[str, FactValue]] = {}
    removed: dict[str, list[str]] = {}
    for name, facts in new.states.items():
        before = old.states.get(name)
        if before is None:
            merged[name] = dict(facts)
            continue
        changed = {
            key: value
            for key, value in facts.items()
            if key not in before or not same_value(before[key], value)
        }
        if changed:
            merged[name] = changed
        gone = [key for key in before if key not in facts]
        if gone:
            removed[name] = gone
    change: dict[str, Any] = {}
    if merged:
        change["context"] = merged
    if removed:
        change["remove_context"] = removed
    return change


def encode_change(
    document: Document,
    context: Context,
    new_document: Document,
    new_context: Context,
    stops: Stops | None = None,
) -> dict[str, Any]:
    """The §6 change that turns the baseline ``(document, context)`` into the new pair;
    pass the same ``stops`` for every change of one baseline (its texts are read once)."""
    return {
        **_document_changes(document, new_document, Stops() if stops is None else stops),
        **_context_changes(context, new_context),
    }
