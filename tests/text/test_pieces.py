"""Long texts worked a piece at a time give exactly what working them whole gives.

The pieces are made small here (a few code points) so that generated texts are cut many
times, at every kind of neighbour a space or line feed can have: marks, jamo, compatibility
characters, case folds that grow.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from textcontract.text import (
    Profile,
    _normalize,
    _scripts,
    _tokens,
    fold_text,
    normalize,
    unspaced_share,
    word_tokens,
)
from textcontract.text._pieces import pieces, piecewise

_TRICKY = [
    " ", "\n", "\r\n", "\t", "\u00a0", "\u3000", "e", "E", "\u0301", "\u0327", "\u0308",
    "ß", "ẞ", "ﬁ", "İ", "ı", "Σ", "ς", "㍿", "\ufdfa", "\u1100", "\u1161", "\u11a8", "가",
    "ｶ", "ﾞ", "ガ", "ド", "\u0e01", "\u0e34", "\u0915", "\u093f", "ñ", "Å", "\u212b",
    "'", "’", "a", "z", "1", "_", "-", "漢", "字", "ё", "Ё", "\u0487", "ά", "\u0345",
]  # fmt: skip
TEXTS = st.lists(st.sampled_from(_TRICKY), max_size=40).map("".join) | st.text(max_size=40)


@given(TEXTS, st.integers(min_value=1, max_value=6))
def test_pieces_join_to_the_text_and_start_at_a_space_or_line_feed(text: str, size: int) -> None:
    cut = list(pieces(text, size))
    assert "".join(cut) == text
    assert all(piece[0] in " \n" for piece in cut[1:])
    assert all(len(piece) >= size for piece in cut[:-1])


@settings(max_examples=300)
@given(TEXTS, st.integers(min_value=1, max_value=6))
def test_both_profiles_a_piece_at_a_time_equal_the_whole(text: str, size: int) -> None:
    whole_text = normalize(text, Profile.TEXT)
    whole_folded = normalize(text, Profile.FOLDED)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_normalize, "PIECE", size)
        assert normalize(text, Profile.TEXT) == whole_text
        assert normalize(text, Profile.FOLDED) == whole_folded
        assert fold_text(whole_text) == whole_folded


@settings(max_examples=300)
@given(TEXTS, st.integers(min_value=1, max_value=6))
def test_tokens_and_script_shares_a_piece_at_a_time_equal_the_whole(text: str, size: int) -> None:
    normalized = normalize(text, Profile.TEXT)
    whole_tokens = word_tokens(normalized)
    whole_share = unspaced_share(normalized)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_tokens, "PIECE", size)
        patch.setattr(_scripts, "PIECE", size)
        assert word_tokens(normalized) == whole_tokens
        assert unspaced_share(normalized) == whole_share


def test_equal_tokens_of_a_long_text_share_one_string() -> None:
    text = "alpha beta " * 50
    found = _tokens.tokens_in_pieces(text, 7)
    assert found == tuple(["alpha", "beta"] * 50)
    assert len({id(token) for token in found}) == 2


def test_piecewise_works_whole_when_short() -> None:
    calls: list[str] = []

    def work(piece: str) -> str:
        calls.append(piece)
        return piece.upper()

    assert piecewise(work, "a b c", 10) == "A B C"
    assert calls == ["a b c"]
    assert piecewise(work, "aa bb cc", 2) == "AA BB CC"
    assert calls[1:] == ["aa", " bb", " cc"]
