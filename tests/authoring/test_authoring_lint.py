"""``lint``'s library side: dead pattern literals and parameters that can never hold."""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from textcontract.authoring import (
    DEAD_PATTERN,
    NEVER_HOLDS,
    NEVER_VIOLATED,
    LintWarning,
    dead_literals,
    lint_contract,
    lint_contracts,
)
from textcontract.authoring._dead import _survives
from textcontract.contract import parse_contract_text
from textcontract.model import Check, Kind, Status, Surface
from textcontract.rules import (
    BUILTIN_TYPES,
    STRING_LIST,
    Code,
    Param,
    Registry,
    Subject,
    SurfaceRule,
)
from textcontract.text import Profile, normalize


def _lint(rules_yaml: str) -> list[LintWarning]:
    return list(lint_contract(parse_contract_text(f"textcontract: 1\nid: t\nrules:\n{rules_yaml}")))


def _pattern(pattern: str, accent_folding: bool = True) -> list[LintWarning]:
    folding = str(accent_folding).lower()
    return _lint(
        f"  - id: p\n    type: ForbiddenPattern\n    accent_folding: {folding}\n"
        f"    patterns: [{pattern!r}]\n".replace("\\\\", "\\")
    )


@pytest.mark.parametrize(
    "pattern",
    [
        "café",  # accented letter under accent folding
        "CAFÉ",  # uppercase does not save an accent
        "ﬁnal",  # ligature
        "ＡＢＣ",  # fullwidth
        "straße",  # ß casefolds to ss
        "caf\\xe9",  # escaped accented letter
        "caf\\u00e9",
        "caf\\N{LATIN SMALL LETTER E WITH ACUTE}",
        "[eé]xito",  # a dead class member
        "①",  # circled digit: NFKC makes it 1
        "x\\u0301",  # a combining mark, removed by folding
        "(?r)café",  # search-strategy flags change nothing a literal matches
        "(?p)remboursé",
        "(?b)straße",
        "(?e)ﬁnal",
    ],
)
def test_dead_literals_under_accent_folding(pattern: str) -> None:
    warnings = _pattern(pattern)
    assert [w.code for w in warnings] == [DEAD_PATTERN]
    assert "dead pattern" in warnings[0].message
    assert warnings[0].field == "patterns[0]"


@pytest.mark.parametrize(
    "pattern",
    [
        "cafe",
        "CAFE",  # uppercase is fine: matching ignores case
        "\\bRefund\\b",
        "[^é]",  # negated classes are not judged
        "[à-ÿ]",  # nor ranges
        "\\p{L}+",
        "(?P<name>x)(?P=name)",
        "a{2,3}b",
        "\\d+\\.\\d{2}",
        "λογος",  # Greek, final sigma included: matched ignoring case
        "リファンド",  # the voicing mark of ド stays under accent folding (SPEC §4)
        "ที่นี่",  # so do Thai vowel and tone marks
        "हिन्दी",  # and Devanagari vowel signs
    ],
)
def test_live_patterns_give_no_warning(pattern: str) -> None:
    assert _pattern(pattern) == []


def test_accents_are_alive_without_accent_folding_but_ligatures_are_not() -> None:
    assert _pattern("café", accent_folding=False) == []
    assert _pattern("CAFÉ", accent_folding=False) == []
    assert [w.code for w in _pattern("ﬁnal", accent_folding=False)] == [DEAD_PATTERN]


def test_decomposed_sequence_is_dead_on_the_text_profile() -> None:
    warnings = _pattern("caf" + "e\\u0301", accent_folding=False)
    assert [w.code for w in warnings] == [DEAD_PATTERN]
    assert "U+0065 U+0301" in warnings[0].message


def test_settled_premise_patterns_and_required_pattern_are_linted() -> None:
    warnings = _lint(
        "  - id: premise\n    type: SettledPremise\n"
        "    premises: {refund-offered: ['rembourse', 'remboursé']}\n"
        "  - id: req\n    type: RequiredPattern\n    match: all\n    patterns: [ok, 'ﬀ']\n"
    )
    assert [(w.rule_id, w.code, w.field) for w in warnings] == [
        ("premise", DEAD_PATTERN, "premises.refund-offered[1]"),
        ("req", DEAD_PATTERN, "patterns[1]"),
    ]


def test_warning_points_at_the_rule() -> None:
    definition = parse_contract_text(
        "textcontract: 1\nid: t\nrules:\n  - {id: ok, type: NoRepeatedText}\n"
        "  - id: bad\n    type: ForbiddenPattern\n    patterns: [café]\n",
        "c.yaml",
    )
    (warning,) = lint_contract(definition)
    assert warning.to_json() == {
        "code": DEAD_PATTERN,
        "rule": "bad",
        "file": "c.yaml",
        "line": 5,
        "column": 5,
        "field": "patterns[0]",
        "message": warning.message,
    }
    assert "'é' (U+00E9) becomes 'e'" in warning.message


@pytest.mark.parametrize(
    ("rule", "code", "field", "words"),
    [
        ("{id: r, type: TokenRange, min: 10, max: 3}", NEVER_HOLDS, "min", "above max"),
        (
            "{id: r, type: MinimumTokens, minimum: 3, minimum_unique: 5}",
            NEVER_HOLDS,
            "minimum_unique",
            "above minimum",
        ),
        (
            "{id: r, type: LexicalRestatement, source: body, target: body}",
            NEVER_HOLDS,
            "target",
            "same surface",
        ),
        (
            "{id: r, type: StateChanged, before: now, after: now, keys: [k]}",
            NEVER_HOLDS,
            "after",
            "same snapshot",
        ),
        (
            "{id: r, type: AllowedTransition, before: {key: s}, after: {key: s}, "
            "allowed: [[a, b]]}",
            NEVER_HOLDS,
            "after",
            "same fact",
        ),
        ("{id: r, type: TokenRange, min: 0}", NEVER_VIOLATED, "min", "every token count"),
        (
            "{id: r, type: MinimumTokens, minimum: 0, minimum_unique: 0}",
            NEVER_VIOLATED,
            "minimum",
            "",
        ),
        ("{id: r, type: LexicalDiversity, min: 0}", NEVER_VIOLATED, "min", ""),
        (
            "{id: r, type: LexicalRestatement, source: a, target: b, overlap_threshold: 1}",
            NEVER_VIOLATED,
            "overlap_threshold",
            "",
        ),
        (
            "{id: r, type: CompareFields, left: {key: a}, right: {key: a, state: current}, op: le}",
            NEVER_VIOLATED,
            "right",
            "same fact",
        ),
    ],
)
def test_parameters_that_never_hold_or_never_fail(
    rule: str, code: str, field: str, words: str
) -> None:
    warnings = _lint(f"  - {rule}\n")
    assert [(w.code, w.field) for w in warnings] == [(code, field)]
    assert words in warnings[0].message


@pytest.mark.parametrize(
    "rule",
    [
        "{id: r, type: TokenRange, min: 3, max: 3}",
        "{id: r, type: MinimumTokens, minimum: 5, minimum_unique: 5}",
        "{id: r, type: LexicalRestatement, source: body, target: summary}",
        "{id: r, type: StateChanged, before: a, after: b, keys: [k]}",
        "{id: r, type: AllowedTransition, before: {key: s}, after: {key: s}, allowed: [[a, a]]}",
        "{id: r, type: CompareFields, left: {key: a}, right: {key: a, state: after}, op: eq}",
    ],
)
def test_sound_parameters_give_no_warning(rule: str) -> None:
    assert _lint(f"  - {rule}\n") == []


class _FreeSurfaces(SurfaceRule):
    """A plugin that declares ``surfaces`` as plain strings, so the loader accepts any name."""

    name = "FreeSurfaces"
    kind = Kind.HEURISTIC
    summary = "always satisfied"
    params: ClassVar[tuple[Param, ...]] = (Param("surfaces", STRING_LIST, "surfaces"),)
    codes: ClassVar[tuple[Code, ...]] = (Code.of("FINE", "fine", Status.SATISFIED),)
    main_code = "FINE"

    def evaluate_surface(self, subject: Subject, surface: Surface) -> Iterator[Check]:
        del subject
        yield self.check(Status.SATISFIED, "FINE", f"surface:{surface.name}", "fine")


def test_a_surface_no_document_can_provide_never_holds() -> None:
    registry = Registry([*(("builtin", t) for t in BUILTIN_TYPES), ("test", _FreeSurfaces)])
    definition = parse_contract_text(
        "textcontract: 1\nid: t\nrules:\n  - {id: r, type: FreeSurfaces, surfaces: [body, Body]}\n",
        registry=registry,
    )
    (warning,) = lint_contract(definition)
    assert (warning.code, warning.field) == (NEVER_HOLDS, "surfaces")
    assert "no document can provide surface 'Body'" in warning.message


def test_a_pack_included_twice_is_reported_once() -> None:
    pack = "textcontract: 1\nid: t\ninclude: [builtin:placeholders]\nrules:\n"
    first = parse_contract_text(pack + "  - {id: a, type: TokenRange, min: 4, max: 1}\n")
    second = parse_contract_text(pack + "  - {id: a, type: TokenRange, min: 4, max: 1}\n", "other")
    assert [w.location.file for w in lint_contracts([first, second])] == ["<string>", "other"]
    assert len(lint_contracts([first, first])) == 1


def test_dead_literal_offsets_point_into_the_source() -> None:
    (dead,) = dead_literals("ab|café", Profile.FOLDED)
    assert dead.offset == 6
    assert dead.becomes == "e"


def test_case_sensitive_literal_is_judged_case_sensitively() -> None:
    # Under the text profile É becomes é, which a case-sensitive É never matches.
    (dead,) = dead_literals("caf(?-i:É)", Profile.TEXT)
    assert (dead.text, dead.becomes, dead.offset) == ("É", "é", 8)
    assert dead_literals("caf(?:É)", Profile.TEXT) == []


def test_brace_literals_are_read_as_regex_reads_them() -> None:
    # "{" is no quantifier here, so "é" is a literal of the second branch.
    (dead,) = dead_literals("dear {a|é} customer", Profile.FOLDED)
    assert (dead.text, dead.becomes, dead.offset) == ("é", "e", 8)


def test_patterns_the_reader_gives_up_on_get_no_warning() -> None:
    assert dead_literals("(?:café){e<=1}", Profile.FOLDED) == []
    # Fuzzy matching may substitute the accented letter: not certainly dead, so no warning.
    assert dead_literals("(?b)(?:café){e<=1}", Profile.FOLDED) == []
    assert dead_literals("(?f)straße", Profile.FOLDED) == []  # full case folding: ß ~ ss
    assert dead_literals("[[:alpha:]é]", Profile.FOLDED) == []


_TRICKY_CHARS = "aAzZ0 ßẞǅǄǆİıiIKKσςΣﬁﬀé\u0301Éŉΐ①Ⅻ㎏ſ"


@settings(max_examples=300, deadline=None)
@given(
    text=st.text(st.sampled_from(_TRICKY_CHARS), min_size=1, max_size=8),
    flags=st.sampled_from([0, regex.IGNORECASE]),
    profile=st.sampled_from(list(Profile)),
)
def test_the_character_comparison_says_what_fullmatch_says(
    text: str, flags: int, profile: Profile
) -> None:
    """The dead check compares a literal with its normalized form character by character;
    on short texts (where regex's matcher is quick) that must agree with ``fullmatch``."""
    alive, becomes = _survives(text, flags, profile)
    assert becomes == normalize(text, profile)
    assert alive == (regex.fullmatch(regex.escape(text), becomes, flags) is not None)
