"""A trial shown against its baseline, as HTML: changed text highlighted, changed values listed.

Texts are compared word by word (:class:`difflib.SequenceMatcher` over words, spaces and
punctuation), so a changed number or a new sentence stands out inside the surrounding text:
removed words are ``<del>``, added ones ``<ins>``. Claims, a surface's state, the facts of
each snapshot, closed premises and history are compared value by value; values are shown as
JSON, so ``1`` and ``1.0`` (different facts, SPEC §2.1) look different too.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from difflib import SequenceMatcher
from html import escape
from typing import Any

__all__ = ["change_html", "document_html", "text_diff_html", "value_text"]

_TOKENS = re.compile(r"\w+|\s+|[^\w\s]")
_ABSENT = object()


def value_text(value: Any) -> str:
    """A fact or claim value as JSON (type visible: ``1``, ``1.0``, ``"1"``, ``true``)."""
    return json.dumps(value, ensure_ascii=False)


def text_diff_html(before: str, after: str) -> str:
    """The after-text with removed words as ``<del>`` and added ones as ``<ins>``."""
    old, new = _TOKENS.findall(before), _TOKENS.findall(after)
    out = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag == "equal":
            out.append(escape("".join(old[i1:i2])))
            continue
        if i2 > i1:
            out.append(f"<del>{escape(''.join(old[i1:i2]))}</del>")
        if j2 > j1:
            out.append(f"<ins>{escape(''.join(new[j1:j2]))}</ins>")
    return f'<pre class="text diff">{"".join(out)}</pre>'


def _value_changes(
    before: Mapping[str, Any], after: Mapping[str, Any]
) -> Iterator[tuple[str, Any, Any]]:
    """``(key, old, new)`` for every key whose value differs (``_ABSENT`` when missing)."""
    for key in [*before, *(key for key in after if key not in before)]:
        old, new = before.get(key, _ABSENT), after.get(key, _ABSENT)
        if old is _ABSENT or new is _ABSENT or value_text(old) != value_text(new):
            yield key, old, new


def _change_item(label: str, old: Any, new: Any) -> str:
    name = f"<code>{escape(label)}</code>"
    if old is _ABSENT:
        return f'<li class="added">{name} added: <ins>{escape(value_text(new))}</ins></li>'
    if new is _ABSENT:
        return f'<li class="removed">{name} removed (was <del>{escape(value_text(old))}</del>)</li>'
    return (
        f'<li class="changed">{name}: <del>{escape(value_text(old))}</del> → '
        f"<ins>{escape(value_text(new))}</ins></li>"
    )


def _changes_list(title: str, items: Sequence[str]) -> str:
    if not items:
        return ""
    return f'<div class="changes"><h6>{escape(title)}</h6><ul>{"".join(items)}</ul></div>'


def _surface_change(name: str, old: Mapping[str, Any] | None, new: Mapping[str, Any] | None) -> str:
    label = f"surface <code>{escape(name)}</code>"
    if new is None:
        return f'<div class="surface"><h5>{label} removed</h5></div>'
    if old is None:
        body = text_diff_html("", new["text"])
        return f'<div class="surface"><h5>{label} added</h5>{body}</div>'
    parts = []
    if old["text"] != new["text"]:
        parts.append(text_diff_html(old["text"], new["text"]))
    if old["state"] != new["state"]:
        parts.append(_changes_list("state", [_change_item("state", old["state"], new["state"])]))
    claims = [_change_item(k, a, b) for k, a, b in _value_changes(old["claims"], new["claims"])]
    parts.append(_changes_list("claims", claims))
    if not any(parts):
        return ""
    return f'<div class="surface"><h5>{label}</h5>{"".join(parts)}</div>'


def _context_changes(old: Mapping[str, Any], new: Mapping[str, Any]) -> str:
    parts = []
    old_states, new_states = old["states"], new["states"]
    for state in [*old_states, *(s for s in new_states if s not in old_states)]:
        items = [
            _change_item(key, a, b)
            for key, a, b in _value_changes(old_states.get(state, {}), new_states.get(state, {}))
        ]
        parts.append(_changes_list(f"facts of snapshot {state}", items))
    for field in ("closed_premises", "history"):
        if value_text(old[field]) != value_text(new[field]):
            parts.append(_changes_list(field, [_change_item(field, old[field], new[field])]))
    return "".join(parts)


def change_html(baseline: Mapping[str, Any], trial: Mapping[str, Any]) -> str:
    """What a trial changes in its baseline (both ``{"document", "context"}``, canonical)."""
    old_surfaces = baseline["document"]["surfaces"]
    new_surfaces = trial["document"]["surfaces"]
    names = [*old_surfaces, *(name for name in new_surfaces if name not in old_surfaces)]
    parts = [
        _surface_change(name, old_surfaces.get(name), new_surfaces.get(name)) for name in names
    ]
    parts.append(_context_changes(baseline["context"], trial["context"]))
    body = "".join(parts)
    return body or '<p class="identical">identical to the baseline</p>'


def document_html(pair: Mapping[str, Any]) -> str:
    """A whole ``{"document", "context"}`` pair: every surface's text and claims, every fact."""
    parts = []
    for name, surface in pair["document"]["surfaces"].items():
        claims = [
            f"<li><code>{escape(key)}</code> = {escape(value_text(value))}</li>"
            for key, value in surface["claims"].items()
        ]
        parts.append(
            f'<div class="surface"><h5>surface <code>{escape(name)}</code> '
            f'<span class="state">(state {escape(surface["state"])})</span></h5>'
            f'<pre class="text">{escape(surface["text"])}</pre>'
            + _changes_list("claims", claims)
            + "</div>"
        )
    for state, facts in pair["context"]["states"].items():
        items = [
            f"<li><code>{escape(key)}</code> = {escape(value_text(value))}</li>"
            for key, value in facts.items()
        ]
        parts.append(_changes_list(f"facts of snapshot {state}", items))
    for field in ("closed_premises", "history"):
        if pair["context"][field]:
            item = f"<li>{escape(value_text(pair['context'][field]))}</li>"
            parts.append(_changes_list(field, [item]))
    return "".join(parts)
