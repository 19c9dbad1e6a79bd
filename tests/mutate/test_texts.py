"""Insertion points, sentences, and normalized spans mapped back to the original text."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from textcontract.mutate import Chooser
from textcontract.mutate._texts import TextMap, insert, insertion_points, sentences
from textcontract.text import Profile, normalize

TEXT = "Hello Ada,\n\nFirst part.\nMore.\n\nThanks,\nThe team\n"


def test_insertion_points_are_paragraph_starts_and_the_ends() -> None:
    assert insertion_points(TEXT) == [0, 12, 31, len(TEXT)]


def test_an_insertion_is_a_paragraph_of_its_own() -> None:
    seen = {insert(TEXT, "X", Chooser(seed, "t")) for seed in range(30)}
    assert seen == {
        "X\n\n" + TEXT,
        "Hello Ada,\n\nX\n\nFirst part.\nMore.\n\nThanks,\nThe team\n",
        "Hello Ada,\n\nFirst part.\nMore.\n\nX\n\nThanks,\nThe team\n",
        TEXT.rstrip() + "\n\nX\n",
    }


def test_in_one_line_text_an_insertion_is_a_sentence() -> None:
    seen = {insert("Order shipped", "X", Chooser(seed, "t")) for seed in range(20)}
    assert seen == {"X Order shipped", "Order shipped X"}
    assert insert("", "X", Chooser(0, "t")) == "X"


def test_sentences() -> None:
    assert sentences(" One. Two!  Three? four ") == ["One.", "Two!", "Three?", "four"]
    assert sentences("No end") == ["No end"]


_chars = st.sampled_from(["a", "B", "é", "e\u0301", "ﬁ", "Ⅻ", "ß", " ", "ｶﾞ", "\u0307"])


@settings(max_examples=500, deadline=None)
@given(st.lists(_chars, max_size=12).map("".join), st.sampled_from(list(Profile)))
def test_a_mapped_span_normalizes_to_a_text_holding_the_normalized_span(
    text: str, profile: Profile
) -> None:
    mapped = TextMap.build(text, profile)
    if mapped is None:
        return
    assert mapped.normalized == normalize(text, profile)
    for start in range(len(mapped.normalized)):
        for end in range(start + 1, len(mapped.normalized) + 1):
            first, last = mapped.original_span(start, end)
            assert mapped.normalized[start:end] in normalize(text[first:last], profile)
