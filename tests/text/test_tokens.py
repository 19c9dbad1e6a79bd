"""Word tokens and the unspaced-script share (SPEC §4)."""

from __future__ import annotations

import pytest

from textcontract.text import (
    UNSPACED_SCRIPTS,
    UNSPACED_THRESHOLD,
    Profile,
    normalize,
    unspaced_share,
    word_tokens,
)


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        pytest.param("", (), id="empty"),
        pytest.param("the cat the", ("the", "cat", "the"), id="repeats-counted"),
        pytest.param("don't stop", ("don't", "stop"), id="ascii-apostrophe"),
        pytest.param("l’été o’clock", ("l’été", "o’clock"), id="typographic-apostrophe"),
        pytest.param("rock'n'roll", ("rock'n'roll",), id="several-apostrophes"),
        pytest.param("'quoted' end'", ("quoted", "end"), id="edge-apostrophes-dropped"),
        pytest.param("x''y", ("x", "y"), id="double-apostrophe-splits"),
        pytest.param("it`s", ("it", "s"), id="backtick-is-not-an-apostrophe"),
        pytest.param("1234 56.78 2024", (), id="digit-runs-dropped"),
        pytest.param("3rd 1st 4x4", ("3rd", "1st", "4x4"), id="digits-with-letters-kept"),
        pytest.param("'90s 90's 1'2", ("90s", "90's"), id="apostrophe-digits-and-letter"),
        pytest.param("snake_case __ _x", ("snake_case", "_x"), id="underscores"),
        pytest.param("١٢٣ ٤", (), id="arabic-indic-digits-dropped"),
        pytest.param("e-mail re-use", ("e", "mail", "re", "use"), id="hyphen-splits"),
        pytest.param("naïve café", ("naïve", "café"), id="accented-letters"),
        pytest.param("日本語です", ("日本語です",), id="unspaced-script-one-run"),
        pytest.param("a.b,c;d", ("a", "b", "c", "d"), id="punctuation-splits"),
    ],
)
def test_word_tokens(text: str, tokens: tuple[str, ...]) -> None:
    assert word_tokens(text) == tokens


def test_tokens_read_the_text_profile() -> None:
    raw = "ＤＯＮ’Ｔ Straße ﬁne"
    assert word_tokens(normalize(raw, Profile.TEXT)) == ("don’t", "strasse", "fine")


def test_unspaced_scripts_are_the_documented_seven() -> None:
    assert UNSPACED_SCRIPTS == ("Han", "Hiragana", "Katakana", "Thai", "Lao", "Khmer", "Myanmar")
    assert UNSPACED_THRESHOLD == 0.05


@pytest.mark.parametrize(
    ("text", "letters", "scripts", "unsupported"),
    [
        pytest.param("", 0, {}, False, id="empty"),
        pytest.param("123 !!! ...", 0, {}, False, id="no-letters"),
        pytest.param("hello", 5, {}, False, id="latin-only"),
        pytest.param("漢" + "a" * 19, 20, {"Han": 1}, False, id="exactly-5-percent-supported"),
        pytest.param("漢" + "a" * 18, 19, {"Han": 1}, True, id="just-over-5-percent"),
        pytest.param("漢字" + "a" * 18, 20, {"Han": 2}, True, id="10-percent"),
        pytest.param("ひらがな", 4, {"Hiragana": 4}, True, id="hiragana"),
        pytest.param("カタカナ", 4, {"Katakana": 4}, True, id="katakana"),
        pytest.param("สวัสดี", 4, {"Thai": 4}, True, id="thai-marks-are-not-letters"),
        pytest.param("ລາວ", 3, {"Lao": 3}, True, id="lao"),
        pytest.param("ខ្មែរ", 3, {"Khmer": 3}, True, id="khmer"),
        pytest.param("မြန်မာ", 3, {"Myanmar": 3}, True, id="myanmar"),
        pytest.param(
            "東京タワー" + "x" * 5,
            10,
            {"Han": 2, "Katakana": 2},
            True,
            id="mixed-scripts-named-separately",
        ),
        pytest.param("〇〇 ab", 2, {}, False, id="han-number-is-not-a-letter"),
        pytest.param("한국어", 3, {}, False, id="hangul-is-spaced"),
    ],
)
def test_unspaced_share(
    text: str, letters: int, scripts: dict[str, int], unsupported: bool
) -> None:
    share = unspaced_share(normalize(text, Profile.TEXT))
    assert share.letters == letters
    assert dict(share.scripts) == scripts
    assert share.unspaced == sum(scripts.values())
    assert share.share == (share.unspaced / letters if letters else 0.0)
    assert share.unsupported is unsupported


def test_unspaced_share_evidence() -> None:
    share = unspaced_share("漢字" + "a" * 18)
    assert share.to_evidence() == {"scripts": {"Han": 2}, "share": 0.1, "letters": 20}
    third = unspaced_share("漢ab")
    assert third.to_evidence()["share"] == 0.333333
