"""The offset map (SPEC §10): normalized spans back to the original characters.

Table tests pin what each kind of normalization does to a span; properties check the promise
(normalizing the original span yields the matched text) and hold the fast map — plain runs
taken one to one — against the plain path that normalizes every chunk.
"""

from __future__ import annotations

import itertools
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from textcontract.text import OffsetMap, Profile, _offsets, _plain, normalize
from textcontract.text._plain import PLAIN_RANGES, UNICODE_VERSION

TEXT, FOLDED = Profile.TEXT, Profile.FOLDED


def _span_of(original: str, profile: Profile, match: str, occurrence: int = 0) -> tuple[int, int]:
    """The original span of the ``occurrence``-th ``match`` in the normalized text."""
    normalized = normalize(original, profile)
    start = -1
    for _ in range(occurrence + 1):
        start = normalized.index(match, start + 1)
    return OffsetMap(original, normalized, profile).span(start, start + len(match))


@pytest.mark.parametrize(
    ("original", "profile", "match", "covered"),
    [
        # one original character becomes several normalized ones: any part covers it whole
        pytest.param("Straße", TEXT, "ss", "ß", id="sharp-s-expands"),
        pytest.param("Straße", TEXT, "as", "aß", id="sharp-s-partly"),
        pytest.param("Straße", TEXT, "se", "ße", id="sharp-s-other-half"),
        pytest.param("STRAẞE!", FOLDED, "strasse", "STRAẞE", id="capital-sharp-s"),
        pytest.param("ﬁnal", TEXT, "f", "ﬁ", id="fi-ligature-first-half"),
        pytest.param("ﬁnal", TEXT, "in", "ﬁn", id="fi-ligature-second-half"),
        pytest.param("İstanbul", TEXT, "i", "İ", id="dotted-capital-i-text"),
        pytest.param("İstanbul", TEXT, "\u0307s", "İs", id="dotted-capital-i-its-dot"),
        pytest.param("İstanbul", FOLDED, "istanbul", "İstanbul", id="dotted-capital-i-folded"),
        pytest.param("x㍿y", TEXT, "会社", "㍿", id="square-compatibility-character"),
        pytest.param("x㍿y", TEXT, "x株", "x㍿", id="square-character-and-before"),
        pytest.param("a\ufdfab", TEXT, "صلى", "\ufdfa", id="arabic-ligature-of-18"),
        pytest.param("½!", TEXT, "\u2044", "½", id="vulgar-fraction"),
        pytest.param("ＦＲＥＥ", TEXT, "re", "ＲＥ", id="fullwidth-one-to-one"),
        # several original characters become one normalized character: it covers all of them
        pytest.param("\u1100\u1161\u11a8!", TEXT, "각", "\u1100\u1161\u11a8", id="hangul-jamo-lvt"),
        pytest.param("가\u11a8!", TEXT, "각", "가\u11a8", id="hangul-lv-syllable-and-t"),
        pytest.param("한국어", TEXT, "국", "국", id="hangul-syllables"),
        pytest.param("cafe\u0301!", TEXT, "é", "e\u0301", id="e-acute-composes"),
        pytest.param("cafe\u0301!", TEXT, "caf", "caf", id="before-a-composed-unit"),
        pytest.param("ｶﾞｲﾄﾞ", TEXT, "ガ", "ｶﾞ", id="halfwidth-voiced-katakana"),
        pytest.param("ｶﾞｲﾄﾞ", TEXT, "イド", "ｲﾄﾞ", id="halfwidth-voiced-katakana-later"),
        # a starter and its following marks are one unit, even where marks stay marks
        pytest.param("cafe\u0301!", FOLDED, "cafe", "cafe\u0301", id="dropped-mark-is-covered"),
        pytest.param("x\u0301y", TEXT, "x", "x\u0301", id="mark-that-composes-nothing"),
        pytest.param("e\u0323\u0302x", FOLDED, "e", "e\u0323\u0302", id="stacked-marks-dropped"),
        pytest.param("ト\u3099ア", FOLDED, "ド", "ト\u3099", id="japanese-voicing-kept"),
        pytest.param("リファンド", FOLDED, "ファ", "ファ", id="katakana-precomposed-kept"),
        pytest.param("ἀθῆναι", FOLDED, "αθη", "ἀθῆ", id="greek-polytonic-dropped"),
        pytest.param("Καλημέρα", FOLDED, "ερ", "έρ", id="greek-tonos-dropped"),
        pytest.param("α\u0301β", FOLDED, "α", "α\u0301", id="greek-decomposed-dropped"),
        pytest.param("Ёлка й", FOLDED, "е", "Ё", id="cyrillic-diaeresis-dropped"),
        pytest.param("Ёлка й", FOLDED, "и", "й", id="cyrillic-breve-dropped"),
        pytest.param("и\u0306!", FOLDED, "и", "и\u0306", id="cyrillic-decomposed-breve"),
        pytest.param("क\u0301!", FOLDED, "क", "क\u0301", id="devanagari-acute-kept-in-unit"),
        # line breaks are characters like any other
        pytest.param("a\r\nb", TEXT, "\r\nb", "\r\nb", id="crlf"),
        pytest.param("a\rb", TEXT, "b", "b", id="cr"),
    ],
)
def test_a_match_maps_to_the_original_characters_that_produced_it(
    original: str, profile: Profile, match: str, covered: str
) -> None:
    start, end = _span_of(original, profile, match)
    assert original[start:end] == covered
    assert match in normalize(original[start:end], profile)


def test_the_nth_occurrence_is_located() -> None:
    original = "ﬁ ﬁ Straße ﬁ"
    assert _span_of(original, TEXT, "fi", 2) == (11, 12)
    assert _span_of(original, TEXT, "ss") == (8, 9)


@pytest.mark.parametrize(
    ("original", "profile", "position", "expected"),
    [
        pytest.param("abc", TEXT, 1, 1, id="ascii"),
        pytest.param("ﬁne", TEXT, 1, 0, id="inside-a-unit-is-its-start"),
        pytest.param("ﬁne", TEXT, 2, 1, id="after-a-unit"),
        pytest.param("Straße", TEXT, 5, 4, id="inside-an-expansion"),
        pytest.param("Straße", TEXT, 7, 6, id="end-of-text"),
        pytest.param("xß", TEXT, 3, 2, id="end-after-an-expansion"),
        pytest.param("", TEXT, 0, 0, id="empty-text"),
    ],
)
def test_an_empty_span_maps_to_where_its_position_begins(
    original: str, profile: Profile, position: int, expected: int
) -> None:
    normalized = normalize(original, profile)
    assert OffsetMap(original, normalized, profile).span(position, position) == (expected,) * 2


def test_a_span_outside_the_normalized_text_is_refused() -> None:
    offsets = OffsetMap("ß", "ss", TEXT)
    with pytest.raises(ValueError, match="outside the normalized text"):
        offsets.span(1, 3)


def test_the_map_reaches_only_as_far_as_the_spans_asked_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    normalized_runs: list[tuple[int, int]] = []
    fit = _offsets._fit_chunks

    def counted(*arguments: Any) -> list[_offsets.Unit]:
        normalized_runs.append(arguments[3])
        return fit(*arguments)

    monkeypatch.setattr(_offsets, "_fit_chunks", counted)
    original = "ßx" * 1000
    offsets = OffsetMap(original, normalize(original, TEXT), TEXT)
    assert offsets.span(0, 1) == (0, 1)
    assert len(normalized_runs) <= 2  # of the 1,000 runs of "ß" and the "x" before
    asked = len(normalized_runs)
    assert offsets.span(0, 2) == (0, 1)
    assert len(normalized_runs) == asked  # already mapped
    assert offsets.span(2997, 3000) == (1998, 2000)
    assert len(normalized_runs) == 1000  # each run once


def test_spans_extend_the_map_once_and_keep_their_order() -> None:
    original = "über ﬁx Straße"
    normalized = normalize(original, TEXT)
    offsets = OffsetMap(original, normalized, TEXT)
    wanted = [(normalized.index("ss"), normalized.index("ss") + 2), (5, 7), (0, 1)]
    assert offsets.spans(wanted) == [(12, 13), (5, 6), (0, 1)]


# --- the plain-character table ----------------------------------------------------------------


def _table() -> list[tuple[int, int]]:
    return [
        (int(first, 16), int(last, 16))
        for first, last in (item.split("-") for item in PLAIN_RANGES.split())
    ]


@pytest.mark.skipif(
    unicodedata.unidata_version != UNICODE_VERSION,
    reason=f"the table is of Unicode {UNICODE_VERSION}; the runtime check covers others",
)
def test_the_plain_table_is_what_the_unicode_database_says() -> None:
    computed = _plain.table_source()
    assert [
        (int(first, 16), int(last, 16))
        for first, last in (item.split("-") for item in computed.replace('"', " ").split())
    ] == _table()
    source = Path(_plain.__file__).read_text(encoding="utf-8")
    assert f"PLAIN_RANGES = (\n{computed}\n)" in source  # as `python -m …_plain` writes it


@pytest.mark.parametrize(
    "char",
    ["a", "Z", "é", "ά", "ς", "Σ", "й", "ё", "カ", "ド", "漢", "가", "Ａ", "’", "—", "\n", "\r"],
)
def test_characters_that_map_one_to_one_are_plain(char: str) -> None:
    assert any(first <= ord(char) <= last for first, last in _table())


@pytest.mark.parametrize(
    "char",
    ["ß", "ẞ", "İ", "ﬁ", "㍿", "\ufdfa", "½", "…", "\u0301", "\u3099", "ﾞ", "\u1161", "\u11a8", "ǅ"],
)
def test_characters_that_expand_combine_or_attach_are_not(char: str) -> None:
    assert not any(first <= ord(char) <= last for first, last in _table())


# Tables far wronger than a Unicode version could make them: every character plain, or all
# but the combining diacritical marks (so ß and ﬁ, which expand, pass for one to one).
_EVERYTHING = _offsets._PlainChars([(0, 0x10FFFF)])
_ALL_BUT_ACCENTS = _offsets._PlainChars([(0, 0x2FF), (0x370, 0x10FFFF)])
_WRONG_TABLES = pytest.mark.parametrize(
    "table", [_EVERYTHING, _ALL_BUT_ACCENTS], ids=["all", "all-but-accents"]
)


@_WRONG_TABLES
@pytest.mark.parametrize(
    "original",
    [
        pytest.param("Die Straße, ﬁx cafe\u0301 ｶﾞ 각", id="lengths-differ"),
        pytest.param("ße\u0301", id="lengths-agree-then-a-mark"),
        pytest.param("ßxe\u0301", id="a-run-out-of-place"),
    ],
)
def test_a_wrong_table_that_moves_offsets_is_caught(
    monkeypatch: pytest.MonkeyPatch, table: _offsets._PlainChars, original: str
) -> None:
    monkeypatch.setattr(_offsets, "_plain_chars", lambda: table)
    for profile in Profile:
        normalized = normalize(original, profile)
        plain = OffsetMap(original, normalized, profile, plain_runs=False)
        for start in range(len(normalized)):
            fast = OffsetMap(original, normalized, profile)  # fresh: each span finds the fault
            assert fast.span(start, start + 1) == plain.span(start, start + 1)
            assert fast.spans([(start, len(normalized))]) == [plain.span(start, len(normalized))]


@_WRONG_TABLES
@pytest.mark.parametrize("profile", list(Profile), ids=str)
@settings(max_examples=200, deadline=None)
@given(original=st.lists(st.sampled_from(["ß", "é", "e\u0301", "ﬁ", "x", "\r\n"])).map("".join))
def test_a_wrong_table_never_breaks_the_promise(
    table: _offsets._PlainChars, profile: Profile, original: str
) -> None:
    """Even where a wrong table's errors cancel out (``ßée\u0301``: one character too many,
    then one too few), normalizing the original span still yields the match."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_offsets, "_plain_chars", lambda: table)
        normalized = normalize(original, profile)
        for start in range(len(normalized)):
            for end in range(start + 1, len(normalized) + 1):
                first, last = OffsetMap(original, normalized, profile).span(start, end)
                assert normalized[start:end] in normalize(original[first:last], profile)


def test_chunks_that_never_line_up_become_one_unit(monkeypatch: pytest.MonkeyPatch) -> None:
    # The safety net for a target the chunks cannot reproduce one by one, and for a run
    # whose chunks wait too long for a later one.
    assert _offsets._fit_chunks("abc", "xyz", TEXT, (0, 3), (0, 3)) == [(0, 3, 0, 3)]
    jamo = "ab\u1100\u1100\u1100\u1161"  # the last leading jamo waits for its vowel
    units = [(0, 1, 0, 1), (1, 2, 1, 2), (2, 3, 2, 3), (3, 4, 3, 4), (4, 6, 4, 5)]
    assert _offsets._fit_chunks(jamo, normalize(jamo, TEXT), TEXT, (0, 6), (0, 5)) == units
    monkeypatch.setattr(_offsets, "_MAX_WAITING", 0)
    assert _offsets._fit_chunks(jamo, normalize(jamo, TEXT), TEXT, (0, 6), (0, 5)) == units


# --- properties -------------------------------------------------------------------------------

# Characters that merge, split, attach or break lines, among plain ones.
_TRICKY = st.sampled_from(
    list(
        "\u0301\u0302\u0308\u0323\u0327\u0345\u0313\u0307\u0338\u20d2\u3099\u309a\u0306"
        "ßẞİıΣσςſﬁﬀﬅǅǰΐΰᾼᾳῼ①²½㍿\ufdfaＡｶﾞﾟÅΩ…"
        "\u1100\u1161\u11a8\u11a9ᄀ가각ㄱㅏ"
        "\u093f\u0940\u094d\u0915\u0dcf\u0d4d\u0903\u20dd\u0e01\u0e31\u05e9\u05bc\u0628\u064e"
        "トドカｶ\u0363й"
        "aeiAEIoOΑΙΟαιο iI'’_1\r\n\u2028\x0c\x85"
    )
)
_TEXT = (
    st.lists(_TRICKY, max_size=24).map("".join)
    | st.text(max_size=24)
    | st.lists(st.sampled_from(["ab", "\r\n", "e\u0301", "ß", "\u1100\u1161", "ｶﾞ", " "])).map(
        "".join
    )
)


@pytest.mark.parametrize("profile", list(Profile), ids=str)
@settings(max_examples=400, deadline=None)
@given(original=_TEXT, data=st.data())
def test_normalizing_the_original_span_yields_the_match(
    profile: Profile, original: str, data: st.DataObject
) -> None:
    normalized = normalize(original, profile)
    start = data.draw(st.integers(0, len(normalized)))
    end = data.draw(st.integers(start, len(normalized)))
    first, last = OffsetMap(original, normalized, profile).span(start, end)
    assert 0 <= first <= last <= len(original)
    assert normalized[start:end] in normalize(original[first:last], profile)


def _uncompiled() -> _offsets._PlainChars:
    """The shipped table, its patterns not compiled (as in a process that needed none)."""
    return _offsets._PlainChars(_table())


@pytest.mark.parametrize("sparse_limit", [_offsets._SPARSE_LIMIT, 0], ids=["sparse", "dense"])
@pytest.mark.parametrize("profile", list(Profile), ids=str)
@settings(max_examples=300, deadline=None)
@given(original=_TEXT)
def test_the_fast_map_equals_the_plain_one(
    profile: Profile, sparse_limit: int, original: str
) -> None:
    normalized = normalize(original, profile)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_offsets, "_SPARSE_LIMIT", sparse_limit)  # 0: the patterns at once
        if sparse_limit:  # a table whose patterns are not compiled yet (they would be used)
            fresh = _uncompiled()
            patch.setattr(_offsets, "_plain_chars", lambda: fresh)
        fast = OffsetMap(original, normalized, profile)
        plain = OffsetMap(original, normalized, profile, plain_runs=False)
        for start in range(len(normalized) + 1):
            assert fast.span(start, start) == plain.span(start, start)
            if start < len(normalized):
                assert fast.span(start, start + 1) == plain.span(start, start + 1)


_PLAIN_AND_NOT = st.text(
    st.sampled_from(list("ab \n’—éὰΣ漢가ßﬁ\u0301\u3099İ½ǅ\U0001d400\U00020000")), max_size=40
)


@pytest.mark.parametrize(
    "table",
    [pytest.param(None, id="shipped"), pytest.param(_ALL_BUT_ACCENTS, id="all-but-accents")],
)
@settings(max_examples=300, deadline=None)
@given(text=_PLAIN_AND_NOT | st.text(max_size=40), data=st.data())
def test_looking_up_characters_finds_the_runs_the_patterns_find(
    table: _offsets._PlainChars | None, text: str, data: st.DataObject
) -> None:
    chars = table or _offsets._plain_chars()
    start = data.draw(st.integers(0, len(text)))
    stop = data.draw(st.integers(start, len(text)))
    found, looked_up = chars.sparse_run(text, start, stop)
    assert found == chars.dense_run(text, start, stop)
    assert looked_up <= sum(not char.isascii() for char in text[start:])


def test_a_map_turns_to_the_patterns_after_enough_lookups(monkeypatch: pytest.MonkeyPatch) -> None:
    original = "Καλημέρα, ﬁx " * 100
    normalized = normalize(original, FOLDED)
    plain = OffsetMap(original, normalized, FOLDED, plain_runs=False)
    dense: list[tuple[int, int]] = []
    patterns = _offsets._PlainChars.dense_run

    def recorded(chars: _offsets._PlainChars, text: str, start: int, stop: int) -> object:
        dense.append((start, stop))
        return patterns(chars, text, start, stop)

    monkeypatch.setattr(_offsets._PlainChars, "dense_run", recorded)
    fresh = _uncompiled()
    monkeypatch.setattr(_offsets, "_plain_chars", lambda: fresh)
    fast = OffsetMap(original, normalized, FOLDED)
    assert fast.span(0, 20) == plain.span(0, 20)
    assert dense == []  # looked up one by one
    end = len(normalized)
    assert fast.span(end - 1, end) == plain.span(end - 1, end)
    assert dense  # past the limit: the patterns
    assert fresh.compiled
    dense.clear()
    again = OffsetMap(original, normalized, FOLDED)  # compiled now: the patterns from the start
    assert again.span(0, 20) == plain.span(0, 20)
    assert dense


@pytest.mark.parametrize("profile", list(Profile), ids=str)
@settings(max_examples=300, deadline=None)
@given(original=_TEXT)
def test_units_cover_the_text_in_order(profile: Profile, original: str) -> None:
    """Character by character, the units run from the start to the end of the text in order."""
    normalized = normalize(original, profile)
    offsets = OffsetMap(original, normalized, profile)
    spans = [offsets.span(index, index + 1) for index in range(len(normalized))]
    for before, after in itertools.pairwise(spans):
        assert after == before or after[0] == before[1]  # one unit, or the next one
    if spans:
        assert (spans[0][0], spans[-1][1]) == (0, len(original))


@pytest.mark.parametrize("profile", list(Profile), ids=str)
@settings(max_examples=200, deadline=None)
@given(
    pieces=st.lists(
        st.sampled_from(["plain text ", "Straße ", "ﬁ", "e\u0301", "\r\n", "ｶﾞ", "가\u11a8"]),
        min_size=1,
        max_size=40,
    )
)
def test_spans_asked_in_any_order_agree_with_spans_asked_alone(
    profile: Profile, pieces: list[str]
) -> None:
    original = "".join(pieces)
    normalized = normalize(original, profile)
    backwards = OffsetMap(original, normalized, profile)
    answers = [backwards.span(i, i + 1) for i in reversed(range(len(normalized)))]
    for index, answer in zip(reversed(range(len(normalized))), answers, strict=True):
        assert OffsetMap(original, normalized, profile).span(index, index + 1) == answer
