"""The one reader of pattern syntax reads what ``regex`` reads, or gives up."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import regex
from hypothesis import event, given, settings
from hypothesis import strategies as st

from tests.text._pattern_strategies import FLAGS, LITERAL_PATTERNS, PATTERNS, matching_text
from textcontract.text import (
    Atom,
    CharSet,
    Group,
    GroupKind,
    LiteralChar,
    PatternNode,
    Repeat,
    literal_runs,
    parse_pattern,
    required_runs,
)

_FLAG_LETTERS = {
    "i": regex.IGNORECASE,
    "x": regex.VERBOSE,
    "a": regex.ASCII,
    "m": regex.M,
    "r": regex.REVERSE,
    "p": regex.POSIX,
}


def _flags(letters: str) -> int:
    value = 0
    for letter in letters:
        value |= _FLAG_LETTERS.get(letter, regex.DOTALL)
    return value


def _runs(pattern: str, flags: int = regex.IGNORECASE) -> list[str] | None:
    runs = literal_runs(pattern, flags)
    return None if runs is None else [run.text for run in runs]


@pytest.mark.parametrize(
    ("pattern", "runs"),
    [
        pytest.param("\\bcafé\\b", ["café"], id="word"),
        pytest.param("ab*c", ["a", "b", "c"], id="quantified-char-alone"),
        pytest.param("ab{2}c", ["a", "b", "c"], id="counted"),
        pytest.param("ab{1}c", ["abc"], id="count-of-one-is-no-repeat"),
        pytest.param("a{,}b", ["a", "b"], id="empty-bounds-are-a-quantifier"),
        pytest.param("a|bc", ["a", "bc"], id="alternation"),
        pytest.param("dear {a|b} customer", ["dear {a", "b} customer"], id="brace-literal"),
        pytest.param("{literal}", ["{literal}"], id="braces-literal"),
        pytest.param("a{ 2}", ["a{ 2}"], id="space-makes-brace-literal"),
        pytest.param("(?x)a{ 2 }b", ["a", "b"], id="verbose-brace-quantifier"),
        pytest.param("(?:ab)+(?P<n>cd)", ["ab", "cd"], id="groups"),
        pytest.param("(?<=x)y(?!z)", ["x", "y", "z"], id="lookarounds"),
        pytest.param("(?#é comment)x", ["x"], id="comment"),
        pytest.param("ab(?#c)cd", ["abcd"], id="comment-joins"),
        pytest.param("[^é]x", ["x"], id="negated-class"),
        pytest.param("[a-zé]", ["é"], id="range-skipped"),
        pytest.param("[]x]", ["]", "x"], id="bracket-first-in-class"),
        pytest.param("[a-]", ["a", "-"], id="dash-last-in-class"),
        pytest.param("[\\d-z]", ["-", "z"], id="dash-after-class-escape"),
        pytest.param("\\xe9\\u00e9\\U000000e9\\351\\0351", ["éééé\x1d1"], id="escapes"),
        pytest.param("(a)\\d\\w\\s\\p{L}\\pL\\1x", ["a", "x"], id="class-escapes-backref"),
        pytest.param("\\px\\p{Greek}", ["px"], id="p-without-property-is-p"),
        pytest.param("\\N{LATIN SMALL LETTER E WITH ACUTE}t\\N", ["étN"], id="named-chars"),
        pytest.param("(?x) a b # é\n c", ["abc"], id="verbose"),
        pytest.param("a b(?x) c d", ["a bcd"], id="positional-verbose"),
        pytest.param("(?x:a b) c", ["ab", " c"], id="scoped-verbose"),
        pytest.param("(?x)[ a]\\ b", [" ", "a", " b"], id="verbose-keeps-class-and-escaped-space"),
        pytest.param("(?i)a(?-i:B)c", ["a", "B", "c"], id="case-flag-splits-runs"),
        pytest.param("\\.\\é", [".é"], id="escaped-punctuation"),
        pytest.param("a\\b", ["a"], id="boundary"),
        pytest.param("[\\b]", ["\b"], id="backspace-in-class"),
    ],
)
def test_literal_runs(pattern: str, runs: list[str]) -> None:
    assert _runs(pattern) == runs


@pytest.mark.parametrize(
    "pattern",
    [
        pytest.param("(?V1)abc", id="version-1"),
        pytest.param("(?f)abc", id="full-case-folding"),
        pytest.param("(?a)abc", id="inline-ascii"),
        pytest.param("(?b)(?:abc){e<=1}", id="best-match"),
        pytest.param("a{e<=1}", id="fuzzy"),
        pytest.param("a{1,x}", id="brace-that-regex-might-read-as-fuzzy"),
        pytest.param("[[:alpha:]é]", id="posix-class"),
        pytest.param("(a)(?(1)b|c)", id="conditional"),
        pytest.param("(a)(?1)", id="group-call"),
        pytest.param("(?R)?", id="recursion"),
        pytest.param("a(*PRUNE)b", id="verb"),
        pytest.param("\\Gab", id="search-anchor"),
        pytest.param("a\\Kb", id="keep"),
        pytest.param("\\X", id="grapheme"),
        pytest.param("\\Qa.b\\E", id="quote-is-no-regex-syntax"),
        pytest.param("(abc", id="does-not-compile"),
        pytest.param("a**", id="multiple-repeat"),
    ],
)
def test_gives_up_on_what_it_does_not_reproduce(pattern: str) -> None:
    assert parse_pattern(pattern) is None
    assert literal_runs(pattern) is None


def test_gives_up_on_flags_it_does_not_reproduce() -> None:
    assert parse_pattern("abc", regex.IGNORECASE | regex.FULLCASE) is None
    assert parse_pattern("abc", regex.V1) is None
    assert parse_pattern("abc", regex.IGNORECASE | regex.ASCII) is not None


@pytest.mark.parametrize(
    ("letter", "flag"),
    [
        ("b", regex.BESTMATCH),
        ("e", regex.ENHANCEMATCH),
        ("p", regex.POSIX),
        ("r", regex.REVERSE),
    ],
)
def test_search_strategy_flags_change_nothing_read(letter: str, flag: int) -> None:
    """b, e, p, r say how matches are searched for, not what the pattern reads."""
    assert _runs("caf\u00e9 (?:x)y", regex.IGNORECASE | flag) == ["café ", "x", "y"]
    assert _runs(f"(?{letter})café", regex.IGNORECASE) == ["café"]
    assert literal_runs(f"(?{letter})(?:café){{e<=1}}") is None  # fuzzy still is not read


def test_tree_of_a_pattern() -> None:
    parsed = parse_pattern("(?:re)?fund[sz]\\b|x")
    assert parsed is not None
    first, second = parsed.branches
    assert first == (
        Repeat(
            Group(
                GroupKind.PLAIN,
                ((LiteralChar("r", 3, regex.I), LiteralChar("e", 4, regex.I)),),
                0,
            ),
            0,
            1,
        ),
        LiteralChar("f", 7, regex.I),
        LiteralChar("u", 8, regex.I),
        LiteralChar("n", 9, regex.I),
        LiteralChar("d", 10, regex.I),
        CharSet((LiteralChar("s", 12, regex.I), LiteralChar("z", 13, regex.I)), False, True, 11),
        Atom(15, zero_width=True),
    )
    assert second == (LiteralChar("x", 18, regex.I),)


def test_literal_offsets_and_case_flags() -> None:
    runs = literal_runs("x(?-i)Y", regex.IGNORECASE)
    assert runs is not None
    assert [(run.text, run.chars[0].offset, run.chars[0].flags) for run in runs] == [
        ("x", 0, regex.IGNORECASE),
        ("Y", 6, 0),
    ]


# --- the reader against regex's own parser --------------------------------------------------
# regex's parser is private (regex._regex_core); these tests use it only to hold the public
# reader against it: both trees are brought to one canonical form and compared.

core: Any = importlib.import_module("regex._regex_core")

Canon = Any


def _seq(items: list[Canon]) -> Canon:
    flat: list[Canon] = []
    for item in items:
        if isinstance(item, tuple) and item[0] == "seq":
            flat.extend(item[1])
        else:
            flat.append(item)
    return flat[0] if len(flat) == 1 else ("seq", tuple(flat))


def _empty(item: Canon) -> bool:
    kind = item[0]
    if kind == "seq":
        return all(_empty(part) for part in item[1])
    if kind == "alt":
        return all(_empty(part) for part in item[1])
    if kind in ("atomic", "repeat"):
        return _empty(item[-1])
    if kind == "look":
        return bool(item[2]) and _empty(item[3])
    return False


def _set(negated: bool, chars: frozenset[str], complete: bool, ignore_case: bool) -> Canon:
    if not chars and not complete:
        return ("opaque",)
    if complete and not negated and len(chars) == 1:
        return ("char", next(iter(chars)), ignore_case)
    return ("set", negated, chars, complete)


def _repeat(minimum: int, maximum: int | None, item: Canon) -> Canon:
    return item if _empty(item) else ("repeat", minimum, maximum, item)


def _ours(node: PatternNode) -> Canon:
    if isinstance(node, LiteralChar):
        return ("char", node.char, bool(node.flags & regex.IGNORECASE))
    if isinstance(node, CharSet):
        ignore_case = any(member.flags & regex.IGNORECASE for member in node.members)
        chars = frozenset(member.char for member in node.members)
        return _set(node.negated, chars, node.complete, ignore_case)
    if isinstance(node, Atom):
        return ("zero",) if node.zero_width else ("opaque",)
    if isinstance(node, Repeat):
        return _repeat(node.minimum, node.maximum, _ours(node.item))
    branches = _our_branches(node.branches)
    if node.kind is GroupKind.CAPTURE:
        return ("capture", branches)
    if node.kind is GroupKind.ATOMIC:
        return ("atomic", branches)
    if node.kind in (GroupKind.PLAIN, GroupKind.BRANCH_RESET):
        return branches
    behind = node.kind in (GroupKind.LOOKBEHIND, GroupKind.NEGATIVE_LOOKBEHIND)
    positive = node.kind in (GroupKind.LOOKAHEAD, GroupKind.LOOKBEHIND)
    return ("look", behind, positive, branches)


def _our_branches(branches: tuple[tuple[PatternNode, ...], ...]) -> Canon:
    sequences = [_seq([_ours(item) for item in branch]) for branch in branches]
    return sequences[0] if len(sequences) == 1 else ("alt", tuple(sequences))


_ZERO_WIDTH = (core.ZeroWidthBase,)
_OPAQUE = (core.Any, core.Property, core.Range, core.RefGroup)
_REPEATS = (core.GreedyRepeat, core.LazyRepeat, core.PossessiveRepeat)


def _theirs(node: Any) -> Canon:
    if isinstance(node, core.Sequence):
        return _seq([_theirs(item) for item in node.items])
    if isinstance(node, core.Branch):
        return ("alt", tuple(_theirs(branch) for branch in node.branches))
    if isinstance(node, core.Group):
        return ("capture", _theirs(node.subpattern))
    if isinstance(node, core.Atomic):
        return ("atomic", _theirs(node.subpattern))
    if isinstance(node, core.LookAround):
        return ("look", node.behind, node.positive, _theirs(node.subpattern))
    if isinstance(node, _REPEATS):
        return _repeat(node.min_count, node.max_count, _theirs(node.subpattern))
    ignore_case = bool(getattr(node, "case_flags", 0) & core.IGNORECASE)
    if isinstance(node, core.Character):
        if node.positive:
            return ("char", chr(node.value), ignore_case)
        return _set(True, frozenset(chr(node.value)), True, ignore_case)
    if isinstance(node, core.SetUnion):
        chars = frozenset(
            chr(item.value) for item in node.items if isinstance(item, core.Character)
        )
        complete = all(isinstance(item, core.Character) for item in node.items)
        return _set(not node.positive, chars, complete, ignore_case)
    if isinstance(node, _OPAQUE):
        return ("opaque",)
    if isinstance(node, _ZERO_WIDTH):
        return ("zero",)
    raise AssertionError(f"no canonical form for {type(node).__name__}")


def _regex_parse(source: str, flags: int) -> Any:
    """regex's own parse of ``source``, as ``regex.compile`` runs it."""
    global_flags = flags
    while True:
        scanner = core.Source(source)
        info = core.Info(global_flags, scanner.char_type, {})
        info.guess_encoding = core.UNICODE
        scanner.ignore_space = bool(info.flags & core.VERBOSE)
        try:
            return core._parse_pattern(scanner, info)
        except core._UnscopedFlagSet:
            global_flags = info.global_flags


@settings(max_examples=600, deadline=None)
@given(PATTERNS, FLAGS)
def test_reader_agrees_with_regex_parser(source: str, letters: str) -> None:
    flags = _flags(letters)
    parsed = parse_pattern(source, flags)
    try:
        regex.compile(source, flags)
    except (regex.error, ValueError):
        event("does not compile")
        assert parsed is None
        return
    if parsed is None:
        event("not understood")
        return
    event("understood")
    assert _our_branches(parsed.branches) == _theirs(_regex_parse(source, flags))


@pytest.mark.parametrize(
    ("pattern", "runs"),
    [
        pytest.param(r"\bguarantee[ds]?\b", ("guarantee",), id="class-and-boundaries-end-runs"),
        pytest.param("(?:full) (refund)", ("full refund",), id="groups-in-place"),
        pytest.param("ab+c", ("ab", "c"), id="first-repetition-ends-a-run"),
        pytest.param("(?:ab|cd)ef", ("ef",), id="alternative-group"),
        pytest.param("café", ("café",), id="non-ascii-kept"),
        pytest.param("dear {a|b}", (), id="top-level-alternation"),
        pytest.param("(?=abc)x", ("x",), id="look-ahead-not-counted"),
        pytest.param("a{e<=1}", None, id="not-understood"),
    ],
)
def test_required_runs(pattern: str, runs: tuple[str, ...] | None) -> None:
    assert required_runs(pattern) == runs


@settings(max_examples=400, deadline=None)
@given(LITERAL_PATTERNS | PATTERNS, st.data())
def test_every_match_contains_every_required_run(source: str, data: st.DataObject) -> None:
    runs = required_runs(source)
    if not runs:
        return
    compiled = regex.compile(source, regex.IGNORECASE)
    text = data.draw(matching_text(source))
    for match in compiled.finditer(text):
        for run in runs:
            found = regex.search(regex.escape(run), match.group(), regex.IGNORECASE)
            assert found is not None, (run, match)


def test_a_check_without_a_long_pattern_list_does_not_load_the_reader(tmp_path: Path) -> None:
    contract = tmp_path / "c.yaml"
    contract.write_text(
        "textcontract: 1\nid: c\nrules:\n"
        "  - {id: p, type: ForbiddenPattern, patterns: [refund, 'dear {a|b}']}\n"
    )
    code = (
        "import sys, textcontract\n"
        f"contract = textcontract.load_contract(__import__('pathlib').Path({str(contract)!r}))\n"
        "report = contract.check(textcontract.Document.from_text('Dear {a friend'), {})\n"
        "assert not report.accepted\n"
        "assert 'textcontract.text._regex_literals' not in sys.modules\n"
        "from textcontract.text import literal_runs\n"
        "assert [run.text for run in literal_runs('ab|c') or ()] == ['ab', 'c']\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
