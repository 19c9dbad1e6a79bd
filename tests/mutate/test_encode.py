"""Changes written as the audit applies them: ``replace`` that finds once, merges, removals."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from textcontract import Context, Document
from textcontract.errors import InternalError
from textcontract.mutate._encode import encode_change, text_edit

_alphabet = st.sampled_from(list("ab \n.é"))
_texts = st.text(_alphabet, max_size=30)


@settings(max_examples=800, deadline=None)
@given(_texts, _texts)
def test_a_text_edit_finds_once_and_rebuilds_the_new_text(old: str, new: str) -> None:
    edit = text_edit(old, new)
    if not old:
        assert edit is None
        return
    assert edit is not None
    find, replacement = edit
    assert find
    assert old.count(find) == 1
    assert old.replace(find, replacement) == new


def test_an_insertion_is_shown_with_the_word_it_stands_before() -> None:
    old = "Hello Dana,\n\nThank you,\nThe team\n"
    new = "Hello Dana,\n\nfull refund\n\nThank you,\nThe team\n"
    assert text_edit(old, new) == ("Thank", "full refund\n\nThank")


def test_most_of_the_text_changing_shows_the_whole_text() -> None:
    assert text_edit("one two three", "") == ("one two three", "")


def _doc(text: str, claims: dict[str, object] | None = None) -> Document:
    return Document.from_json({"surfaces": {"body": {"text": text, "claims": claims or {}}}})


def test_claims_and_facts_become_merges_and_removals() -> None:
    before = Context.from_json({"states": {"current": {"a": 1, "b": "x"}}})
    after = Context.from_json({"states": {"current": {"a": 1.0}, "next": {"c": True}}})
    change = encode_change(_doc("t", {"k": 1}), before, _doc("t", {"k": "1", "n": 2}), after)
    assert change == {
        "claims": {"body": {"k": "1", "n": 2}},
        "context": {"current": {"a": 1.0}, "next": {"c": True}},
        "remove_context": {"current": ["b"]},
    }


def test_what_a_merge_cannot_say_carries_the_whole_document() -> None:
    context = Context.empty()
    removed_claim = encode_change(_doc("t", {"k": 1}), context, _doc("t"), context)
    assert removed_claim == {"document": _doc("t").to_json()}
    empty_text = encode_change(_doc(""), context, _doc("now"), context)
    assert empty_text == {"document": _doc("now").to_json()}


def test_history_and_premises_cannot_change() -> None:
    with pytest.raises(InternalError):
        encode_change(_doc("t"), Context.empty(), _doc("t"), Context(history=("x",)))
