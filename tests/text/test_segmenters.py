"""Segmenters (SPEC §19): the default word tokens, and ICU's word segments in every script."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.text.icu_missing import hide_icu4py
from tests.text.icu_sentences import ICU_PINNED, SENTENCES, Sentence
from textcontract.text import (
    WORDS,
    IcuSegmenter,
    Profile,
    SegmenterUnavailable,
    icu_segmenter,
    normalize,
    word_tokens,
)
from textcontract.text._segmenters import line_pieces

ICU = icu_segmenter()


def test_the_pinned_segmentations_are_of_the_icu_installed() -> None:
    assert ICU.version == ICU_PINNED, (
        f"the segmentations in tests/text/icu_sentences.py were recorded under ICU {ICU_PINNED};"
        f" this is ICU {ICU.version}: review how the sentences are cut now, and pin them again"
    )


@pytest.mark.parametrize("sentence", SENTENCES, ids=[s.language for s in SENTENCES])
def test_icu_cuts_each_script_into_words(sentence: Sentence) -> None:
    assert ICU.tokens(normalize(sentence.text, Profile.TEXT)) == sentence.icu


@pytest.mark.parametrize("sentence", SENTENCES, ids=[s.language for s in SENTENCES])
def test_word_tokens_of_the_same_sentences_stay_the_runs_between_spaces(sentence: Sentence) -> None:
    text = normalize(sentence.text, Profile.TEXT)
    assert WORDS.tokens(text) == word_tokens(text) == sentence.words


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        pytest.param("😀 emoji", ("emoji",), id="emoji-before-a-word"),
        pytest.param("😀😀😀😀 hello 😀world", ("hello", "world"), id="emoji-runs"),
        pytest.param("𠀀𠀁 漢字", ("𠀀", "𠀁", "漢字"), id="han-extension-b"),
        pytest.param("a\U00020000b", ("a", "\U00020000", "b"), id="han-between-latin"),
        pytest.param("𐌰𐌹𐌽𐍃 ok", ("𐌰𐌹𐌽𐍃", "ok"), id="gothic-letters"),
        pytest.param("👩‍👩‍👧 family", ("family",), id="zwj-sequence"),
    ],
)
def test_icu_tokens_past_the_basic_plane_are_whole(text: str, tokens: tuple[str, ...]) -> None:
    """ICU counts UTF-16 code units; a segment read as code-point offsets would be cut."""
    assert ICU.tokens(text) == tokens


def test_mixed_scripts_are_cut_by_script() -> None:
    text = normalize("Hello世界, this is 日本語テキスト and ภาษาไทย 2024 年 😀 done.", Profile.TEXT)
    assert ICU.tokens(text) == (
        "hello",
        "世界",
        "this",
        "is",
        "日本語",
        "テキスト",
        "and",
        "ภาษา",
        "ไทย",
        "年",
        "done",
    )
    assert WORDS.tokens(text) == (
        "hello世界",
        "this",
        "is",
        "日本語テキスト",
        "and",
        "ภาษาไทย",
        "年",
        "done",
    )


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        pytest.param("", (), id="empty"),
        pytest.param("123 4.5 !!! 😀", (), id="no-letter"),
        pytest.param("don't 3rd e-mail", ("don't", "3rd", "e", "mail"), id="apostrophe-digits"),
        pytest.param("l’été", ("l’été",), id="typographic-apostrophe"),
        pytest.param("a\r\nb\nc", ("a", "b", "c"), id="line-breaks"),
    ],
)
def test_icu_keeps_segments_holding_a_letter(text: str, tokens: tuple[str, ...]) -> None:
    assert ICU.tokens(text) == tokens


def test_a_lone_surrogate_is_no_letter_and_cuts_nothing_else() -> None:
    assert ICU.tokens("ab\ud800cd ภาษาไทย") == ("ab", "cd", "ภาษา", "ไทย")


def test_equal_segmenters_are_one_key() -> None:
    assert icu_segmenter("root") == ICU
    assert hash(icu_segmenter("root")) == hash(ICU)
    assert icu_segmenter("ja") != ICU
    assert ICU.icu_version == ICU.version
    assert WORDS.icu_version is None


# -- long texts a piece at a time ---------------------------------------------------------

_PIECE_ALPHABET = [
    "a", "Z", "é", "1", ".", "'", " ", "\n", "\r", "\r\n", "\u0301", "\u200d", "\ufe0f",
    "ก", "ข", "ไ", "่", "ั", "ក", "្", "ម", "ລ", "າ", "က", "ေ", "日", "本", "の", "カ",
    "😀", "\U00020000", "𐌰", "\u00ad", "\u2060",
]  # fmt: skip
_TEXTS = st.lists(st.sampled_from(_PIECE_ALPHABET), max_size=80).map("".join)


def _segmenter(piece: int) -> IcuSegmenter:
    return IcuSegmenter(ICU.locale, ICU.version, ICU.breaker, piece=piece)


@settings(max_examples=150, deadline=None)
@given(text=_TEXTS, size=st.integers(min_value=1, max_value=12))
def test_a_text_cut_after_line_feeds_has_the_tokens_of_the_whole(text: str, size: int) -> None:
    """The piecewise path (texts over :data:`PIECE`) against ICU on the whole text."""
    whole = _segmenter(10**9).tokens(text)
    assert _segmenter(size).tokens(text) == whole


@settings(max_examples=100, deadline=None)
@given(text=_TEXTS, size=st.integers(min_value=1, max_value=12))
def test_line_pieces_join_to_the_text(text: str, size: int) -> None:
    pieces = list(line_pieces(text, size))
    assert "".join(pieces) == text
    assert all(piece.endswith("\n") and len(piece) >= size for piece in pieces[:-1])
    assert all(pieces) or text == ""


def test_a_long_text_shares_one_string_per_distinct_token() -> None:
    text = "日本語のテキストです。\n" * 50
    tokens = _segmenter(16).tokens(text)
    assert tokens == ICU.tokens(text)
    assert len({id(token) for token in tokens}) == len(set(tokens))


# -- the optional import -------------------------------------------------------------------


def test_without_icu4py_the_segmenter_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    hide_icu4py(monkeypatch)
    with pytest.raises(SegmenterUnavailable, match=r"textcontract\[icu\]"):
        icu_segmenter()


def test_importing_and_checking_without_icu_never_imports_icu4py() -> None:
    script = (
        "import sys, textcontract\n"
        "words = 'textcontract: 1\\nid: c\\nrules: [{id: m, type: MinimumTokens, minimum: 1}]'\n"
        "textcontract.load_contract_text(words).check(textcontract.Document.from_text('ok'))\n"
        "print(sorted(m for m in sys.modules if m.startswith('icu4py')))\n"
        "icu = words.replace('minimum: 1', 'minimum: 1, segmenter: icu')\n"
        "textcontract.load_contract_text(icu).check(textcontract.Document.from_text('ok'))\n"
        "print('icu4py.breakers' in sys.modules)\n"
    )
    ran = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert ran.stdout.splitlines() == ["[]", "True"]
