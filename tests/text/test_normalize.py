"""Normalization profiles (SPEC §4): ``text`` = NFKC, casefold, NFC; ``folded`` also drops
accents (Mn on a Latin, Greek or Cyrillic base)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from textcontract.text import Profile, normalize, word_tokens


@pytest.mark.parametrize(
    ("raw", "text", "folded"),
    [
        pytest.param("ＡＢＣ１２", "abc12", "abc12", id="fullwidth"),
        pytest.param("ﬁnd", "find", "find", id="fi-ligature"),
        pytest.param("Straße", "strasse", "strasse", id="sharp-s"),
        pytest.param("STRAẞE", "strasse", "strasse", id="capital-sharp-s"),
        pytest.param("Café", "café", "cafe", id="precomposed-accent"),
        pytest.param("Cafe\u0301", "café", "cafe", id="decomposed-accent"),
        pytest.param("İstanbul", "i\u0307stanbul", "istanbul", id="turkish-dotted-capital-i"),
        pytest.param("ıi", "ıi", "ıi", id="turkish-dotless-i-kept"),
        pytest.param("ΟΔΟΣ", "οδοσ", "οδοσ", id="greek-capital-sigma"),
        pytest.param("οδος", "οδοσ", "οδοσ", id="greek-final-sigma"),
        pytest.param("Ἀθῆναι", "ἀθῆναι", "αθηναι", id="greek-polytonic"),
        pytest.param("ᾼ", "αι", "αι", id="greek-prosgegrammeni"),
        pytest.param("Ωhm Å", "ωhm å", "ωhm a", id="ohm-and-angstrom-signs"),
        pytest.param("①²", "12", "12", id="circled-and-superscript"),
        pytest.param("ñ ü ç ø", "ñ ü ç ø", "n u c ø", id="latin-marks-not-stroke"),
        pytest.param("한국어", "한국어", "한국어", id="hangul-recomposed"),
        pytest.param("ｶﾀｶﾅ", "カタカナ", "カタカナ", id="halfwidth-katakana"),
        pytest.param("Ａ\u3000Ｂ", "a b", "a b", id="ideographic-space"),
    ],
)
def test_profiles(raw: str, text: str, folded: str) -> None:
    assert normalize(raw, Profile.TEXT) == text
    assert normalize(raw, Profile.FOLDED) == folded


# SPEC §4: marks are dropped only where their base is Latin, Greek or Cyrillic.
@pytest.mark.parametrize(
    ("raw", "folded"),
    [
        pytest.param("Ünïcödé", "unicode", id="latin"),
        pytest.param("Tiếng Việt", "tieng viet", id="vietnamese-stacked"),
        pytest.param("Ἀθῆναι", "αθηναι", id="greek"),
        pytest.param("Ёлка й", "елка и", id="cyrillic-breve-and-diaeresis"),
        pytest.param("リファンド", "リファンド", id="katakana-voicing-kept"),
        pytest.param("ガ ぱ", "ガ ぱ", id="kana-voiced-and-semi-voiced-kept"),
        pytest.param("ｶﾞ", "ガ", id="halfwidth-voicing-composes"),
        pytest.param("ที่นี่", "ที่นี่", id="thai-vowels-and-tones-kept"),
        pytest.param("हिन्दी", "हिन्दी", id="devanagari-signs-and-virama-kept"),
        pytest.param("שָׁלוֹם", "שָׁלוֹם", id="hebrew-points-kept"),
        pytest.param("مَرْحَبًا", "مَرْحَبًا", id="arabic-harakat-kept"),
        pytest.param("한국어", "한국어", id="hangul"),
        pytest.param("1́ ́x", "1́ ́x", id="mark-on-digit-space-or-nothing-kept"),
        pytest.param("e⃝́", "e⃝", id="mn-after-enclosing-mark-on-latin"),
        pytest.param("aः́", "aः", id="mn-after-spacing-mark-on-latin"),
        pytest.param("क́", "क́", id="acute-on-devanagari-kept"),
        pytest.param("ド́", "ド́", id="acute-on-katakana-kept"),
        pytest.param("é ド", "e ド", id="mixed"),
    ],
)
def test_folding_by_script(raw: str, folded: str) -> None:
    assert normalize(raw, Profile.FOLDED) == folded
    assert normalize(folded, Profile.FOLDED) == folded


@pytest.mark.parametrize("profile", list(Profile), ids=str)
@pytest.mark.parametrize(
    ("precomposed", "decomposed"),
    [
        pytest.param("é", "e\u0301", id="e-acute"),
        pytest.param("Ǻ", "A\u030a\u0301", id="stacked-marks"),
        pytest.param("ệ", "e\u0323\u0302", id="vietnamese-canonical-order"),
        pytest.param("ệ", "e\u0302\u0323", id="vietnamese-other-order"),
        pytest.param("가", "\u1100\u1161", id="hangul-jamo"),
    ],
)
def test_decomposed_and_precomposed_agree(
    profile: Profile, precomposed: str, decomposed: str
) -> None:
    assert normalize(precomposed, profile) == normalize(decomposed, profile)


def test_text_profile_is_nfc() -> None:
    result = normalize("Cafe\u0301", Profile.TEXT)
    assert result == "caf\u00e9"
    assert unicodedata.is_normalized("NFC", result)


# --- properties -----------------------------------------------------------------------------

# Characters where the steps interact: combining marks (incl. U+0345, which casefolds to a
# letter), compatibility forms, case pairs with special folding, jamo, scripts with Mc marks.
_tricky = st.sampled_from(
    list(
        "\u0301\u0302\u0308\u0323\u0327\u0345\u0313\u0307\u0338\u20d2\u3099\u309a"
        "ßẞİıΣσςſﬁﬀﬅǅǰΐΰᾼᾳῼ①²ＡｶﾞÅΩ"
        "\u1100\u1161\u11a8ᄀ가ㄱㅏ"
        "\u093f\u0940\u094d\u0915\u0dcf\u0d4d\u0903\u20dd\u0e01\u0e31\u05e9\u05bc\u0628\u064e"
        "トドカ\u0363"
        "aeiAEIoOΑΙΟαιο iI'’_1"
    )
)
_any_text = st.text(max_size=30) | st.lists(_tricky, max_size=12).map("".join)


@pytest.mark.parametrize("profile", list(Profile), ids=str)
@settings(max_examples=600, deadline=None)
@given(_any_text)
def test_normalize_is_idempotent(profile: Profile, raw: str) -> None:
    once = normalize(raw, profile)
    assert normalize(once, profile) == once


@settings(max_examples=300, deadline=None)
@given(_any_text)
def test_tokens_of_normalized_text_are_words(raw: str) -> None:
    for token in word_tokens(normalize(raw, Profile.TEXT)):
        assert token
        assert any(char.isalpha() for char in token)
