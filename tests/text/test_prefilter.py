"""The literal prefilter selects every pattern that can match, so results never change."""

from __future__ import annotations

import pickle
import sys

import pytest
import re2
import regex
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tests.text._pattern_strategies import LITERAL_PATTERNS, PATTERNS, matching_text
from textcontract.text import (
    Budget,
    LiteralPrefilter,
    find_matches,
    literal_runs,
    required_literal,
)
from textcontract.text import _prefilter as prefilter


def _compile(pattern: str) -> regex.Pattern[str]:
    return regex.compile(pattern, regex.IGNORECASE)


@pytest.fixture(params=["re2", "no-re2"])
def re2_state(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Runs a test with google-re2 importable, and again with the module hidden."""
    if request.param == "no-re2":
        monkeypatch.setitem(sys.modules, "re2", None)  # `import re2` raises ImportError
    return str(request.param)


@pytest.mark.parametrize(
    ("pattern", "literal"),
    [
        pytest.param(r"\bvery\b", "very", id="word"),
        pytest.param(r"\bguarantee[ds]?\b", "guarantee", id="class-then-optional"),
        pytest.param(r"colou?r", "colo", id="optional-letter-dropped"),
        pytest.param(r"ab+c", "ab", id="one-or-more-ends-run"),
        pytest.param(r"x{2}yz", "yz", id="counted-repeat-ends-run"),
        pytest.param(r"(?:re)?fund", "fund", id="optional-group"),
        pytest.param(r"(?:full) (refund)", "full refund", id="groups-matched-in-place"),
        pytest.param(r"(?:ab|cd)refund", "refund", id="alternation-inside-group"),
        pytest.param(r"\.com\b", ".com", id="escaped-punctuation"),
        pytest.param(r"full refund", "full refund", id="space"),
        pytest.param(r"(?<!no )refund", "refund", id="lookbehind-group"),
        pytest.param(r"[(|]refund", "refund", id="class-with-specials"),
        pytest.param(r"a.b", "a", id="dot-splits"),
        pytest.param(r"\x41bc", "Abc", id="hex-escape"),
        pytest.param(r"\p{L}+ing", "ing", id="property-escape"),
        pytest.param(r"(?#note)abc", "abc", id="comment"),
        pytest.param(r"(?i)abc", "abc", id="inline-ignorecase"),
        pytest.param(r"(?x:a b)c", "abc", id="scoped-verbose"),
        pytest.param(r"dear {a", "dear {a", id="literal-brace"),
        pytest.param(r"a{,}bc", "bc", id="empty-bounds-quantifier"),
        pytest.param("caf\u00e9", "caf", id="non-ascii-ends-run"),
        pytest.param(r"foo|bar", None, id="top-level-alternation"),
        pytest.param(r"dear {a|b} customer", None, id="brace-then-top-level-alternation"),
        pytest.param(r"(a|aa)+$", None, id="no-literal"),
        pytest.param(r"(?x) a b c", None, id="verbose"),
        pytest.param(r"a b(?x)", None, id="positional-verbose-reported-as-flag"),
        pytest.param(r"(?f)strasse", None, id="full-case-folding"),
        pytest.param(r"(?V1)abc", None, id="version-1"),
        pytest.param(r"[[:alpha:]]abc", None, id="posix-class"),
        pytest.param(r"(abc){e<=1}", None, id="fuzzy-group"),
        pytest.param(r"abc{e<=1}", None, id="fuzzy-letter"),
        # The reader reads these flags (for lint); the prefilter still leaves them alone.
        pytest.param(r"(?r)refund", None, id="reverse"),
        pytest.param(r"(?p)refund", None, id="posix-leftmost-longest"),
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
    for char in sorted(prefilter._LITERAL_CHARS):
        accepted = regex.findall(regex.escape(char), everything, regex.IGNORECASE)
        assert accepted, char
        literal = re2.compile(prefilter._re2_literal(char), options)
        for candidate in accepted:
            assert literal.fullmatch(candidate) is not None, (char, candidate)


# Texts built from pieces of the patterns themselves and from characters the two engines fold
# differently, so that literals occur, nearly occur, and occur in another case.
_TEXT_BITS = [
    *"abkKsSiIe1 -'{}:#\n",
    "\u212a",  # Kelvin sign
    "\u017f",  # long s
    "\u0130",  # İ
    "\u0131",  # ı
    "\u00df",
    "\u00e9",
    "dear {a",
    "b} customer",
]


def _texts(sources: list[str]) -> st.SearchStrategy[str]:
    """Texts holding what the patterns match, near misses, and characters that fold."""
    pieces = st.one_of(st.sampled_from(_TEXT_BITS), *map(matching_text, sources))
    return st.lists(pieces, max_size=5).map("".join)


@settings(max_examples=1000, deadline=None)
@given(LITERAL_PATTERNS | PATTERNS, st.data())
def test_every_match_contains_the_required_literal(source: str, data: st.DataObject) -> None:
    try:
        compiled = _compile(source)
    except (regex.error, ValueError):
        event("does not compile")
        return
    literal = required_literal(compiled)
    event("no literal" if literal is None else "literal")
    if literal is None:
        return
    text = data.draw(matching_text(source) | _texts([source]))
    matcher = regex.compile(regex.escape(literal), regex.IGNORECASE)
    for match in compiled.finditer(text):
        assert matcher.search(text, match.start(), match.end()) is not None, (literal, match)


def _all_matches(
    patterns: list[regex.Pattern[str]], text: str
) -> list[tuple[regex.Pattern[str], tuple[int, int]]]:
    found: list[tuple[regex.Pattern[str], tuple[int, int]]] = []
    budget = Budget(10_000)
    for pattern in patterns:
        try:
            found.extend((pattern, match.span()) for match in find_matches(pattern, text, budget))
        except MemoryError:
            # regex runs out of memory on some patterns (fuzzy matching in a repeated
            # lookaround, ``(?=aa{e<=1})*`` on "a"), on every path alike; rules report it as
            # their RULE_ERROR check (tests/rules/test_pattern_resources.py).
            found.append((pattern, (-1, -1)))
    return found


def test_prefiltered_search_equals_full_search_when_regex_runs_out_of_memory() -> None:
    """Regression: the property test below once drew ``(?=aa{e<=1})*`` and crashed."""
    sources = ["(?=aa{e<=1})*", "refund", "guarantee", "final", "promise"]
    compiled = [_compile(source) for source in sources]
    text = "a refund"
    selected = list(LiteralPrefilter(compiled).select(compiled, text))
    assert selected == [compiled[0], compiled[1]]
    with pytest.raises(MemoryError, match=r"ran out of memory searching pattern '\(\?=aa"):
        list(find_matches(compiled[0], text, Budget(60_000)))
    outcome = _all_matches(selected, text)
    assert outcome == _all_matches(compiled, text)
    assert (compiled[0], (-1, -1)) in outcome
    assert (compiled[1], (2, 8)) in outcome


@pytest.mark.usefixtures("re2_state")
def test_a_literal_too_long_for_an_re2_set_is_searched() -> None:
    """RE2 refuses a set over its memory cap; the prefilter then searches those patterns."""
    literal = "ab" * 100_000
    sources = [literal, "refund", "guarantee", "final", "promise"]
    compiled = [_compile(source) for source in sources]
    prefilter = LiteralPrefilter(compiled)
    assert prefilter.candidates(f"x{literal}x") in (None, frozenset({0}))
    assert prefilter.candidates("a final word") in (None, frozenset({0, 3}))


@pytest.mark.parametrize("opener", ["(", "(?:", "(?=", "(?P<g>"], ids=str)
def test_deeply_nested_groups_are_given_up_on_not_a_recursion_error(opener: str) -> None:
    """The reader stops at 40 levels, far below the depth regex itself compiles (~300)."""

    def nested(depth: int) -> str:
        groups = "".join(opener.replace("g>", f"g{i}>") for i in range(depth))
        return groups + "refund" + ")" * depth

    assert literal_runs(nested(40)) is not None
    assert literal_runs(nested(41)) is None
    assert literal_runs(nested(150)) is None
    assert required_literal(_compile(nested(150))) is None


@pytest.mark.usefixtures("re2_state")
@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(LITERAL_PATTERNS | PATTERNS, min_size=4, max_size=7), st.data())
def test_prefiltered_search_equals_full_search(sources: list[str], data: st.DataObject) -> None:
    compiled: list[regex.Pattern[str]] = []
    for source in sources:
        try:
            compiled.append(_compile(source))
        except (regex.error, ValueError):
            compiled.append(_compile(regex.escape(source)))  # still a pattern with literals
    text = data.draw(_texts(sources))
    selected = list(LiteralPrefilter(compiled).select(compiled, text))
    assert selected == [pattern for pattern in compiled if pattern in selected]  # in order
    assert _all_matches(selected, text) == _all_matches(compiled, text)
    event(f"{len(compiled) - len(selected)} skipped")


def test_repro_brace_before_alternation_is_selected(re2_state: str) -> None:
    compiled = [
        _compile(p) for p in (r"dear {a|b} customer", r"\bzzz1\b", r"\bzzz2\b", r"\bzzz3\b")
    ]
    prefiltered = LiteralPrefilter(compiled)
    selected = list(prefiltered.select(compiled, "dear {a friend"))
    if re2_state == "re2":
        assert prefiltered.active
        assert selected == [compiled[0]]
    else:
        assert not prefiltered.active
        assert selected == compiled


def test_selects_in_order_and_only_candidates() -> None:
    words = ["very", "really", "simply", "quite", "fairly"]
    compiled = [_compile(rf"\b{word}\b") for word in words]
    selector = LiteralPrefilter(compiled)
    assert selector.active
    assert list(selector.select(words, "It is QUITE really fine.")) == ["really", "quite"]
    assert list(selector.select(words, "nothing here")) == []
    assert list(selector.select(words, "\u212aelvin")) == []


def test_without_re2_every_pattern_is_searched(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "re2", None)
    words = ["very", "really", "simply", "quite"]
    selector = LiteralPrefilter([_compile(rf"\b{word}\b") for word in words])
    assert not selector.active
    assert list(selector.select(words, "nothing here")) == words


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
    assert len(selector._built().sets) > 1
    assert list(selector.select(words, "… W00599XYZ and w00000xyz …")) == [words[0], words[599]]


def test_pickles_by_rebuilding() -> None:
    compiled = [_compile(p) for p in ("very", "quite", "really", "fairly")]
    copy = pickle.loads(pickle.dumps(LiteralPrefilter(compiled)))
    assert list(copy.select(compiled, "really")) == [compiled[2]]
