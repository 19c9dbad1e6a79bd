"""The literal prefilter selects every pattern that can match, so results never change."""

from __future__ import annotations

import pickle
import sys

import pytest
import re2
import regex
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from textcontract.text import Budget, LiteralPrefilter, find_matches, required_literal
from textcontract.text import _prefilter as prefilter


def _compile(pattern: str) -> regex.Pattern[str]:
    return regex.compile(pattern, regex.IGNORECASE)


@pytest.mark.parametrize(
    ("pattern", "literal"),
    [
        pytest.param(r"\bvery\b", "very", id="word"),
        pytest.param(r"\bguarantee[ds]?\b", "guarantee", id="class-then-optional"),
        pytest.param(r"colou?r", "colo", id="optional-letter-dropped"),
        pytest.param(r"ab+c", "ab", id="one-or-more-ends-run"),
        pytest.param(r"x{2}yz", "yz", id="counted-repeat-dropped"),
        pytest.param(r"(?:re)?fund", "fund", id="optional-group"),
        pytest.param(r"\.com\b", ".com", id="escaped-punctuation"),
        pytest.param(r"full refund", "full refund", id="space"),
        pytest.param(r"(?<!no )refund", "refund", id="lookbehind-group"),
        pytest.param(r"[(|]refund", "refund", id="class-with-specials"),
        pytest.param(r"a.b", "a", id="dot-splits"),
        pytest.param(r"foo|bar", None, id="top-level-alternation"),
        pytest.param(r"(a|aa)+$", None, id="no-literal"),
        pytest.param(r"(?i)abc", None, id="inline-flags"),
        pytest.param(r"(?x) a b c", None, id="verbose"),
        pytest.param(r"(?f)strasse", None, id="full-case-folding"),
        pytest.param(r"(?V1)abc", None, id="version-1"),
        pytest.param(r"[[:alpha:]]abc", None, id="posix-class"),
        pytest.param(r"\x41bc", None, id="hex-escape"),
        pytest.param(r"\p{L}+ing", None, id="property-escape"),
        pytest.param(r"(?#note)abc", None, id="comment"),
        pytest.param("caf\u00e9", "caf", id="non-ascii-ends-run"),
        pytest.param(r"(abc){e<=1}", None, id="fuzzy-group"),
        pytest.param(r"abc{e<=1}", "ab", id="fuzzy-letter"),
    ],
)
def test_required_literal(pattern: str, literal: str | None) -> None:
    assert required_literal(_compile(pattern)) == literal


def test_every_character_regex_folds_onto_a_literal_matches_in_re2() -> None:
    """RE2's case-insensitive literal accepts every character regex's IGNORECASE accepts."""
    everything = "".join(
        chr(code) for code in range(sys.maxunicode + 1) if not 0xD800 <= code < 0xE000
    )
    options = re2.Options()
    options.case_sensitive = False
    for char in sorted(prefilter._LITERAL_CHARS | prefilter._ESCAPED_LITERALS):
        accepted = regex.findall(regex.escape(char), everything, regex.IGNORECASE)
        assert accepted, char
        literal = re2.compile(prefilter._re2_literal(char), options)
        for candidate in accepted:
            assert literal.fullmatch(candidate) is not None, (char, candidate)


# Pattern pieces: literals (with case variants), classes, groups, quantifiers, escapes.
_piece = st.sampled_from(
    [
        "ab",
        "b",
        "k",
        "s",
        "ss",
        "K",
        "i",
        "I",
        r"\(",
        " ",
        "'",
        "-",
        r"\b",
        r"\B",
        r"\d",
        r"\w",
        r"\.",
        ".",
        "^",
        "$",
        "[ab]",
        "[^a]",
        "(ab)",
        "(?:a|b)",
        "(?=a)",
        "(?!b)",
        "(?<=a)",
        "?",
        "*",
        "+",
        "{2}",
        "{1,2}",
        "??",
        "|",
    ]
)
_patterns = st.lists(_piece, min_size=1, max_size=7).map("".join)
_texts = st.text(
    alphabet=st.sampled_from(list("abkKsSiI \u212a\u017f\u00df\u0130\u0131'-.(1\nAB\u00e4")),
    max_size=24,
)


def _all_matches(
    patterns: list[regex.Pattern[str]], text: str
) -> list[tuple[int, tuple[int, int]]]:
    found: list[tuple[int, tuple[int, int]]] = []
    budget = Budget(10_000)
    for index, pattern in enumerate(patterns):
        found.extend((index, match.span()) for match in find_matches(pattern, text, budget))
    return found


@settings(max_examples=1500, deadline=None)
@given(st.lists(_patterns, min_size=4, max_size=8), _texts)
def test_prefiltered_search_equals_full_search(sources: list[str], text: str) -> None:
    compiled: list[regex.Pattern[str]] = []
    for source in sources:
        try:
            compiled.append(_compile(source))
        except regex.error:
            assume(False)
    selected = LiteralPrefilter(compiled).select(compiled, text)
    assert _all_matches(list(selected), text) == _all_matches(
        [p for p in compiled if p in selected], text
    )
    skipped = [p for p in compiled if p not in selected]
    assert all(p.search(text) is None for p in skipped)


def test_selects_in_order_and_only_candidates() -> None:
    words = ["very", "really", "simply", "quite", "fairly"]
    compiled = [_compile(rf"\b{word}\b") for word in words]
    selector = LiteralPrefilter(compiled)
    assert selector.active
    assert list(selector.select(words, "It is QUITE really fine.")) == ["really", "quite"]
    assert list(selector.select(words, "nothing here")) == []
    assert list(selector.select(words, "\u212aelvin")) == []


def test_patterns_without_literal_are_always_selected() -> None:
    compiled = [_compile(p) for p in (r"\bvery\b", r"(a|b)+", r"x|y", r"\bquite\b")]
    assert list(LiteralPrefilter(compiled).select([0, 1, 2, 3], "none")) == [1, 2]


def test_short_lists_and_lone_surrogates_search_everything() -> None:
    short = [_compile(p) for p in ("very", "quite")]
    assert not LiteralPrefilter(short).active
    compiled = [_compile(p) for p in ("very", "quite", "really", "fairly")]
    assert list(LiteralPrefilter(compiled).select([0, 1, 2, 3], "\ud800")) == [0, 1, 2, 3]


def test_long_lists_are_split_over_sets() -> None:
    words = [f"w{index:05d}xyz" for index in range(600)]
    compiled = [_compile(word) for word in words]
    selector = LiteralPrefilter(compiled)
    assert len(selector._sets) > 1
    assert list(selector.select(words, "… W00599XYZ and w00000xyz …")) == [words[0], words[599]]


def test_pickles_by_rebuilding() -> None:
    compiled = [_compile(p) for p in ("very", "quite", "really", "fairly")]
    copy = pickle.loads(pickle.dumps(LiteralPrefilter(compiled)))
    assert list(copy.select(compiled, "really")) == [compiled[2]]
