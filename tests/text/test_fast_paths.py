"""The fast paths of normalization, tokens and script shares equal their definitions (SPEC §4).

Each fast path is compared with a slow, literal implementation of the definition: exhaustively
where the domain is small (every ASCII character, every code point) and with hypothesis
elsewhere.
"""

from __future__ import annotations

import sys
import unicodedata
from pathlib import Path

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from textcontract.text import (
    Profile,
    fold_text,
    has_unspaced_letter,
    normalize,
    profiles,
    unspaced_share,
    unsupported_share,
    word_tokens,
)
from textcontract.text import _normalize as normalization
from textcontract.text import _scripts as scripts
from textcontract.text import _separable as separable

_WORD = regex.compile(r"\w+(?:['’]\w+)*")
_LETTER = regex.compile(r"\p{L}")
_UNSPACED = regex.compile(
    "[[" + "".join(rf"\p{{{name}}}" for name in scripts.UNSPACED_SCRIPTS) + r"]&&\p{L}]",
    regex.V1,
)


_MARK = regex.compile(r"\p{M}")
_MN = regex.compile(r"\p{Mn}")
_ACCENTED_BASE = regex.compile(r"[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}]")


def _drop_accents(decomposed: str) -> str:
    """SPEC §4, one character at a time: drop each Mn whose base is Latin, Greek or Cyrillic."""
    kept: list[str] = []
    base = ""
    for char in decomposed:
        if not _MARK.match(char):
            base = char
        elif _MN.match(char) and base and _ACCENTED_BASE.match(base):
            continue
        kept.append(char)
    return "".join(kept)


def slow_normalize(text: str, profile: Profile) -> str:
    folded = unicodedata.normalize("NFKC", text).casefold()
    if profile is Profile.TEXT:
        return unicodedata.normalize("NFC", folded)
    stripped = _drop_accents(unicodedata.normalize("NFD", folded))
    return unicodedata.normalize("NFC", stripped)


def slow_tokens(text: str) -> tuple[str, ...]:
    return tuple(t for t in _WORD.findall(text) if any(c.isalpha() for c in t))


_ALL_ASCII = "".join(chr(code) for code in range(128))
_ascii_text = st.text(alphabet=st.sampled_from(_ALL_ASCII), max_size=60)
# Dense in the characters the ASCII token pattern has to get right.
_token_soup = st.text(alphabet=st.sampled_from("aZ09_'' .-x1\n"), max_size=40)
_tricky = st.sampled_from(
    list(
        "\u0301\u0308\u0323\u0345\u3099\u309aßẞİıΣςſﬁ①²ＡｶﾞÅΩ\u1100\u1161가"
        "\u0903\u093f\u0941\u20dd\u0488\u05bc\u064e\u0e31\u0363トカकשب"
        "漢字カナひら\u0e01\u0e32ລ\u1780\u1000〇aA1_'’ -"
    )
)
_any_text = st.text(max_size=40) | st.lists(_tricky, max_size=16).map("".join)


# --- normalization ---------------------------------------------------------------------------


@pytest.mark.parametrize("profile", list(Profile), ids=str)
def test_ascii_fast_path_on_every_ascii_character(profile: Profile) -> None:
    for char in _ALL_ASCII:
        assert normalize(char, profile) == slow_normalize(char, profile)
    assert normalize(_ALL_ASCII, profile) == slow_normalize(_ALL_ASCII, profile)


@pytest.mark.parametrize("profile", list(Profile), ids=str)
@settings(max_examples=300, deadline=None)
@given(_ascii_text)
def test_ascii_fast_path(profile: Profile, text: str) -> None:
    assert normalize(text, profile) == slow_normalize(text, profile)


@pytest.mark.parametrize("profile", list(Profile), ids=str)
@settings(max_examples=500, deadline=None)
@given(_any_text)
def test_normalize_equals_definition(profile: Profile, text: str) -> None:
    assert normalize(text, profile) == slow_normalize(text, profile)


@settings(max_examples=800, deadline=None)
@given(_any_text)
def test_folded_profile_derives_from_text_profile(text: str) -> None:
    assert fold_text(normalize(text, Profile.TEXT)) == slow_normalize(text, Profile.FOLDED)


_MARKS_TO_TRY = [chr(code) for code in range(sys.maxunicode + 1) if _MARK.match(chr(code))]
_BASES_TO_TRY = ["a", "α", "ж", "ト", "क", "ก", "ש", "ب", "1", " ", "가", "ª"]


@pytest.mark.parametrize("base", _BASES_TO_TRY)
def test_folding_of_every_mark_after_bases_of_each_script(base: str) -> None:
    for mark in _MARKS_TO_TRY:
        for text in (base + mark, base + mark + mark, base + "\u0903" + mark, mark + base):
            expected = slow_normalize(text, Profile.FOLDED)
            assert fold_text(normalize(text, Profile.TEXT)) == expected, (base, mark)
            assert normalize(text, Profile.FOLDED) == expected, (base, mark)


# --- normalization one character at a time ----------------------------------------------------


def _slow_fold(text: str) -> str:
    """Folding of text already under ``text``: NFD, accents dropped, NFC."""
    return unicodedata.normalize("NFC", _drop_accents(unicodedata.normalize("NFD", text)))


def _ranges(source: str) -> list[tuple[int, int]]:
    pairs = (item.split("-") for item in source.split())
    return [(int(first, 16), int(last, 16)) for first, last in pairs]


_SEPARABLE = _ranges(separable.SEPARABLE_RANGES)
_SPECIAL_BMP = _ranges(separable.SPECIAL_BMP_RANGES)
_SIMPLE_BMP = sorted(
    set(range(0x10000)) - {code for first, last in _SPECIAL_BMP for code in range(first, last + 1)}
)


@pytest.fixture
def by_char(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every text not in ASCII takes the per-character path where it can, however short."""
    monkeypatch.setattr(normalization, "_BY_CHAR_FROM", 0)


@pytest.mark.skipif(
    unicodedata.unidata_version != separable.UNICODE_VERSION,
    reason=f"the tables are of Unicode {separable.UNICODE_VERSION}; the fast path is off",
)
def test_the_separable_tables_are_what_the_unicode_database_says() -> None:
    computed = separable.table_source()
    source = Path(separable.__file__).read_text(encoding="utf-8")
    assert computed in source  # as `python -m textcontract.text._separable` writes them


def test_every_simple_character_normalizes_to_its_case_fold() -> None:
    """What the per-character path takes for granted, against the definition (with the
    regex package's marks and scripts), for every simple character."""
    for code in _SIMPLE_BMP:
        char = chr(code)
        cased = char.casefold()
        assert slow_normalize(char, Profile.TEXT) == cased, hex(code)
        assert slow_normalize(char, Profile.FOLDED) == cased, hex(code)
        assert _slow_fold(char) == char, hex(code)
    assert {code for code in _SIMPLE_BMP if code in range(0xD800, 0xE000)} == set()


def _separable_chars(draw: st.DrawFn) -> str:
    first, last = draw(st.sampled_from(_SEPARABLE))
    return chr(draw(st.integers(first, last)))


# Characters each way of normalizing must get right side by side: simple ones, separable ones
# that expand, fold or change case in their own ways, and ones that are not separable
# (combining marks on Latin, Greek, Cyrillic and other scripts and on non-letters, jamo,
# voicing marks, unassigned, private-use and surrogate code points).
_BY_CHAR_TRICKY = st.sampled_from(
    list(
        "aZσΣς漢’ —1\n\t"  # simple
        "ßẞİıﬁﬀﬅŉǰΐΰᾼᾳῼǅǄ①²½㍿…ＡＢｶﾀ가각ドガぱἀÅΩKªºµſ"  # separable, not simple
        "éÉüÜñçøØœæάέΆἈЁёйЙ"  # accented precomposed
        "\u0301\u0308\u0323\u0345\u0313\u0307\u0338\u20dd\u0903\u093f\u0e31"
        "\u3099\u309aﾞﾟ\u1100\u1161\u11a8\u0487\u0363\u05bc\u064e"  # not separable
        "\u0378\ue000\ud800\U0001d400\U0001f600\U0001d15e\U00020000\U000e0001"
    )
)
_BY_CHAR_TEXT = (
    st.lists(_BY_CHAR_TRICKY, max_size=16).map("".join)
    | st.lists(st.composite(_separable_chars)(), max_size=12).map("".join)
    | st.lists(st.composite(_separable_chars)() | _BY_CHAR_TRICKY, max_size=12).map("".join)
    | st.text(max_size=20)
)


@pytest.mark.usefixtures("by_char")
@settings(max_examples=700, deadline=None)
@given(_BY_CHAR_TEXT)
def test_the_per_character_path_equals_the_definition(text: str) -> None:
    expected_text = slow_normalize(text, Profile.TEXT)
    expected_folded = slow_normalize(text, Profile.FOLDED)
    assert profiles(text) == (expected_text, expected_folded)
    assert normalize(text, Profile.TEXT) == expected_text
    assert normalize(text, Profile.FOLDED) == expected_folded
    assert fold_text(expected_text) == expected_folded


def test_a_long_separable_text_takes_the_per_character_path() -> None:
    text = "Straße ﬁx Ἀθῆναι ½ ｶﾀｶﾅ ドア 한국어 Ёлка İstanbul ΟΔΟΣ café… " * 60
    assert len(text) >= normalization._BY_CHAR_FROM
    assert normalization._by_char(text) is not None
    expected = slow_normalize(text, Profile.TEXT), slow_normalize(text, Profile.FOLDED)
    assert profiles(text) == expected
    assert (normalize(text, Profile.TEXT), normalize(text, Profile.FOLDED)) == expected
    assert fold_text(expected[0]) == expected[1]
    with_a_mark = text + "e\u0301"  # not separable: the plain path, the same strings
    assert normalization._by_char(with_a_mark) is None
    assert profiles(with_a_mark) == (
        slow_normalize(with_a_mark, Profile.TEXT),
        slow_normalize(with_a_mark, Profile.FOLDED),
    )


def test_another_unicode_version_takes_the_plain_path(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "Straße Ἀθῆναι " * 200
    monkeypatch.setattr(separable, "UNICODE_VERSION", "0.0.0")
    normalization._special_chars.cache_clear()
    try:
        assert normalization._by_char(text) is None
        assert profiles(text) == (
            slow_normalize(text, Profile.TEXT),
            slow_normalize(text, Profile.FOLDED),
        )
    finally:
        monkeypatch.undo()
        normalization._special_chars.cache_clear()
    assert normalization._by_char(text) is not None


# --- tokens ----------------------------------------------------------------------------------


@settings(max_examples=1500, deadline=None)
@given(_token_soup | _ascii_text)
def test_ascii_tokens_equal_definition(text: str) -> None:
    assert word_tokens(text) == slow_tokens(text)


@settings(max_examples=500, deadline=None)
@given(_any_text)
def test_tokens_equal_definition(text: str) -> None:
    assert word_tokens(text) == slow_tokens(text)


def test_ascii_word_characters_agree_between_engines() -> None:
    # The ASCII path relies on both engines reading \w on ASCII as [A-Za-z0-9_].
    assert regex.findall(r"\w", _ALL_ASCII) == [c for c in _ALL_ASCII if c.isalnum() or c == "_"]
    assert [c for c in _ALL_ASCII if c.isalpha()] == list(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    )


@pytest.mark.parametrize("length", [1, 10, 5000])
def test_long_letterless_runs(length: int) -> None:
    for text in ("1" * length, "1'" * length, "_" * length + "a", "9" * length + " x"):
        assert word_tokens(text) == slow_tokens(text)


# --- script shares ---------------------------------------------------------------------------


def _every_code_point() -> str:
    return "".join(chr(code) for code in range(sys.maxunicode + 1) if not 0xD800 <= code < 0xE000)


def test_unspaced_block_prefilter_covers_every_unspaced_letter() -> None:
    everything = _every_code_point()
    letters = _UNSPACED.findall(everything)
    assert len(letters) > 90_000  # Han alone has more; guards against an empty class
    outside = [c for c in letters if not scripts._maybe_unspaced(c)]
    assert outside == []


def test_ascii_letter_count_matches_the_property() -> None:
    assert scripts._letter_count(_ALL_ASCII) == len(_LETTER.findall(_ALL_ASCII))


@settings(max_examples=500, deadline=None)
@given(_any_text)
def test_script_share_equals_definition(raw: str) -> None:
    text = normalize(raw, Profile.TEXT)
    letters = len(_LETTER.findall(text))
    share = unspaced_share(text)
    assert share.letters == letters
    assert has_unspaced_letter(text) is (_UNSPACED.search(text) is not None)
    assert share.unspaced == len(_UNSPACED.findall(text))
    expected = share if share.unsupported else None
    assert unsupported_share(text) == expected
