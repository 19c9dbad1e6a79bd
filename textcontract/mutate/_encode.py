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

__all__ = ["encode_change", "text_edit"]


def text_edit(old: str, new: str) -> tuple[str, str] | None:
    """``(find, with)`` such that ``old.replace(find, with) == new`` and ``find`` occurs in
    ``old`` exactly once; ``None`` when ``old`` is empty (nothing can be found in it).

    ``find`` is the changed part widened to whole words (whole lines when it spans a line
    break, the whole text when it is most of it), then further until it occurs once.
    """
    if not old:
        return None
    prefix = _common_prefix(old, new)
    suffix = _common_suffix(old, new, limit=min(len(old), len(new)) - prefix)
    start, end = _widen(old, prefix, len(old) - suffix)
    if "\n" in old[start:end]:
        start, end = _whole_lines(old, start, end)
    if 2 * (end - start) > len(old):
        start, end = 0, len(old)  # most of the text changes: show it whole
    while True:
        find = old[start:end]
        replacement = new[start : len(new) - (len(old) - end)]
        if old.count(find) == 1 and old.replace(find, replacement) == new:
            return find, replacement
        if start == 0 and end == len(old):
            raise InternalError("a whole-text replace does not rebuild the text")  # unreachable
        start, end = _widen(old, max(start - 1, 0), min(end + 1, len(old)))


def _common_prefix(a: str, b: str) -> int:
    """The length of the longest common prefix (a binary search of slice comparisons)."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _common_suffix(a: str, b: str, limit: int) -> int:
    """The length of the longest common suffix, at most ``limit``."""
    low, high = 0, limit
    while low < high:
        middle = (low + high + 1) // 2
        if a[len(a) - middle :] == b[len(b) - middle :]:
            low = middle
        else:
            high = middle - 1
    return low


def _widen(text: str, start: int, end: int) -> tuple[int, int]:
    """``[start, end)`` grown to whole words, and to one character at least."""
    if start == end:
        if end < len(text):
            end += 1
        else:
            start -= 1
    while start > 0 and not text[start - 1].isspace() and not text[start].isspace():
        start -= 1
    while end < len(text) and not text[end].isspace() and not text[end - 1].isspace():
        end += 1
    return start, end


def _whole_lines(text: str, start: int, end: int) -> tuple[int, int]:
    """``[start, end)`` grown to the start and the end of its lines."""
    start = text.rfind("\n", 0, start) + 1
    newline = text.find("\n", end)
    return start, len(text) if newline < 0 else newline


def _surface_edits(old: Document, new: Document) -> list[dict[str, Any]] | None:
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
            edit = text_edit(before.text, after.text)
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


def _document_changes(old: Document, new: Document) -> dict[str, Any]:
    edits = _surface_edits(old, new)
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
    document: Document, context: Context, new_document: Document, new_context: Context
) -> dict[str, Any]:
    """The §6 change that turns the baseline ``(document, context)`` into the new pair."""
    return {
        **_document_changes(document, new_document),
        **_context_changes(context, new_context),
    }
