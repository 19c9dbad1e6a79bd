"""The prefilter the pattern rules of a contract share, and the checks the engine reuses where
no pattern can match, give the reports that searching every pattern of every rule gives.

Differential: generated contracts of ForbiddenPattern, RequiredPattern and SettledPremise rules
(accent folding on and off, surface lists naming present and missing surfaces, patterns with
literal braces, alternations, escapes, inline flags and Unicode classes, words shared between
rules) check a run of generated documents, one contract for the whole run so that what it
remembers between documents is exercised; each report must equal, byte for byte, the report of
a second copy of the contract whose prefilter selects every pattern on every text. Run with
google-re2 importable and hidden (the fallback).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

import pytest
import regex
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import textcontract
from tests.text._pattern_strategies import LITERAL_PATTERNS, PATTERNS, branches_text
from textcontract import Context, ContractError, Document, Surface
from textcontract.model import TextOrigin
from textcontract.rules import PatternRule, PatternTable, _patterns
from textcontract.text import parse_pattern

WORDS = ["refund", "guarantee", "free", "cafe", "naive", "kiss", "sky", "dear {a", "ice cream"]
# Hand-picked syntax around the words: braces that are and are not quantifiers, alternations at
# the top and inside groups, escapes, inline flags, Unicode classes and letters that fold.
SHAPED = [
    r"\brefund(?:s|ed)?\b",
    r"(?i)REFUND",
    r"(?-i:Refund)",
    r"gu(?:a|e)rantee",
    r"free|gratis",
    r"\bfree\b|\bcafe\b",
    r"dear \{a",
    r"dear {a|b} customer",
    r"dear {a",
    r"x{2}yz",
    r"a{,}free",
    r"caf\u00e9",
    "caf\u00e9",
    "na\u00efve",
    r"\x6biss",
    r"\p{L}+und",
    r"\p{Lu}REE",
    r"\N{LATIN SMALL LETTER S}ky",
    r"(?x) i c e \  c r e a m",
    r"(?#note)sky",
    r"\bk\w+",
    r"ice\s+cream",
    r"(?<!no )refund",
    r"[(|]refund",
    r"\.com\b",
    r"\d+ free",
]
NAMES = ["body", "title", "note"]
PREMISES = ["refund-offered", "discount-offered"]


def _compiles(source: str) -> bool:
    try:
        regex.compile(source, regex.IGNORECASE)
    except (regex.error, ValueError):
        return False
    return True


PATTERN = st.one_of(
    st.sampled_from(WORDS).map(lambda word: rf"\b{word}\b"),
    st.sampled_from(WORDS),
    st.sampled_from(SHAPED),
    PATTERNS,  # not all compile: those are dropped by the test, not by a filter (see _loadable)
    LITERAL_PATTERNS,
)
PATTERN_LISTS = st.lists(PATTERN, min_size=1, max_size=6)
SURFACE_LISTS = st.none() | st.lists(
    st.sampled_from([*NAMES, "missing"]), min_size=1, max_size=3, unique=True
)


@st.composite
def _rule(draw: st.DrawFn, index: int) -> dict[str, Any]:
    kind = draw(st.sampled_from(["ForbiddenPattern", "RequiredPattern", "SettledPremise"]))
    rule: dict[str, Any] = {"id": f"r{index}", "type": kind}
    if kind == "SettledPremise":
        premises = draw(st.lists(st.sampled_from(PREMISES), min_size=1, max_size=2, unique=True))
        rule["premises"] = {premise: draw(PATTERN_LISTS) for premise in premises}
    else:
        rule["patterns"] = draw(PATTERN_LISTS)
    if kind == "RequiredPattern" and draw(st.booleans()):
        rule["match"] = draw(st.sampled_from(["any", "all"]))
    surfaces = draw(SURFACE_LISTS)
    if surfaces is not None:
        rule["surfaces"] = surfaces
    folding = draw(st.sampled_from([None, True, False]))
    if folding is not None:
        rule["accent_folding"] = folding
    if kind == "ForbiddenPattern" and draw(st.integers(0, 5)) == 0:
        rule["code"] = "NO_FORBIDDEN_WORDS"
    return rule


def _loadable(rules: list[dict[str, Any]]) -> str | None:
    """The contract of ``rules`` without the patterns that do not compile (``None``: no rule
    is left). Done in the test, not in a strategy: compiling may shrink regex's cache, which
    picks what it drops with the global ``random``, and hypothesis forbids that in strategies.
    """
    kept: list[dict[str, Any]] = []
    for rule in rules:
        if "premises" in rule:
            premises = {
                premise: [p for p in patterns if _compiles(p)]
                for premise, patterns in rule["premises"].items()
            }
            rule = {**rule, "premises": {k: v for k, v in premises.items() if v}}
            if not rule["premises"]:
                continue
        else:
            rule = {**rule, "patterns": [p for p in rule["patterns"] if _compiles(p)]}
            if not rule["patterns"]:
                continue
        kept.append(rule)
    if not kept:
        return None
    # JSON is YAML: no quoting of the generated patterns to get wrong. The plain path searches
    # more patterns against the same time budget, so a budget that binds (under coverage on a
    # loaded machine) would tell the paths apart by time alone: the longest one allowed.
    return json.dumps(
        {
            "textcontract": 1,
            "id": "shared",
            "defaults": {"timeout_ms": 60000},
            "rules": kept,
        }
    )


RULE_LISTS = st.integers(1, 7).flatmap(
    lambda count: st.tuples(*(_rule(index) for index in range(count))).map(list)
)


# Pieces of text: the words in other cases and with accents, letters regex folds onto ASCII
# ones (Kelvin sign, long s, dotted and dotless i), combining marks, braces and punctuation.
PIECES = st.one_of(
    st.sampled_from(WORDS),
    st.sampled_from(WORDS).map(str.upper),
    st.sampled_from(
        [
            "caf\u00e9",
            "CAFE\u0301",
            "na\u00efve",
            "\u212aiss",
            "\u017fky",
            "RE\u0131ND",
            "\u0130CE CREAM",
            "no refund",
            "Dear {a friend",
            "dear {b} customer",
            "xxyz",
            "3 free",
            "example.com",
            "gratis",
            "refunded",
            "Refund",
            "\u30ea\u30d5\u30a1\u30f3\u30c9",
            "\n",
            " ",
            ", ",
            "(",
            "|",
        ]
    ),
    st.text(alphabet="abkKsSiIe1 {}|\u00e9\u212a\u017f\u0131\n", max_size=6),
)


def _matched(source: str) -> st.SearchStrategy[str]:
    """A text ``source`` likely matches (the loader has compiled it: not compiled again)."""
    parsed = parse_pattern(source, regex.IGNORECASE, compiled=True)
    if parsed is None:
        return st.sampled_from([source[i : i + 3] for i in range(len(source))])
    return branches_text(parsed.branches)


@st.composite
def _text(draw: st.DrawFn, patterns: list[str]) -> str:
    pieces: list[str] = draw(st.lists(PIECES, max_size=6))
    matched: bool = draw(st.booleans())
    if patterns and matched:  # often a text one of the contract's patterns matches
        where = draw(st.integers(0, len(pieces)))
        pieces.insert(where, draw(_matched(draw(st.sampled_from(patterns)))))
    return " ".join(pieces)


@st.composite
def _document(draw: st.DrawFn, patterns: list[str]) -> Document:
    names = draw(st.permutations(NAMES))[: draw(st.integers(1, len(NAMES)))]
    surfaces = []
    for name in names:
        origin = draw(
            st.just(TextOrigin())
            | st.builds(TextOrigin, line=st.integers(1, 30), file_lines=st.booleans())
        )
        text = draw(_text(patterns))
        surfaces.append(Surface(name, text, origin=origin))
    return Document(tuple(surfaces))


def _patterns_of(source: str) -> list[str]:
    found: list[str] = []
    for rule in json.loads(source)["rules"]:
        found.extend(rule.get("patterns", ()))
        for patterns in rule.get("premises", {}).values():
            found.extend(patterns)
    return found


@contextmanager
def _every_pattern_searched() -> Iterator[None]:
    """The plain path: the prefilter rules out no pattern on any text."""
    with mock.patch.object(PatternTable, "candidates", return_value=None):
        yield


@pytest.fixture(params=["re2", "no-re2"])
def re2_state(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Runs a test with google-re2 importable, and again with the module hidden."""
    if request.param == "no-re2":
        monkeypatch.setitem(sys.modules, "re2", None)  # `import re2` raises ImportError
    return str(request.param)


@pytest.fixture
def prefilter_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A contract's prefilter builds its sets on the first text (else short texts never do)."""
    monkeypatch.setattr(_patterns, "PREFILTER_AFTER", 0)


@pytest.mark.usefixtures("re2_state", "prefilter_at_once")
@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data(), rules=RULE_LISTS)
def test_shared_prefilter_reports_equal_searching_every_pattern(
    data: st.DataObject, rules: list[dict[str, Any]]
) -> None:
    source = _loadable(rules)
    if source is None:
        return
    try:
        shared = textcontract.load_contract_text(source)
        plain = textcontract.load_contract_text(source)
    except ContractError:  # a generated pattern the loader refuses (both paths refuse it)
        return
    patterns = _patterns_of(source)
    closed = data.draw(st.lists(st.sampled_from([*PREMISES, "other"]), max_size=3))
    context = Context.from_json({"states": {"current": {}}, "closed_premises": closed})
    documents = data.draw(st.lists(_document(patterns), min_size=1, max_size=5))
    names = data.draw(st.lists(st.none() | st.sampled_from(["a.md", "b.json"]), min_size=5))
    for document, name in zip(documents, names, strict=False):
        fast = shared.check(document, context, source=name).to_json()
        with _every_pattern_searched():
            slow = plain.check(document, context, source=name).to_json()
        assert fast == slow


def test_the_plain_path_searches_what_the_prefilter_rules_out() -> None:
    """The reference path is not the shared path: with four or more patterns and google-re2,
    the prefilter rules patterns out, and the plain path does not."""
    pytest.importorskip("re2")
    (rule,) = textcontract.load_contract_text(
        json.dumps(
            {
                "textcontract": 1,
                "id": "t",
                "rules": [
                    {
                        "id": "r",
                        "type": "ForbiddenPattern",
                        "patterns": [rf"\b{word}\b" for word in WORDS],
                    }
                ],
            }
        )
    ).rules
    assert isinstance(rule, PatternRule)
    table = PatternTable(rule.searched_patterns())
    assert table.candidates("a free cafe") == frozenset({2, 3})
    with _every_pattern_searched():
        assert table.candidates("a free cafe") is None


def test_a_contracts_prefilter_waits_until_enough_was_searched(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Until the texts add up to PREFILTER_AFTER pattern-characters the prefilter answers
    "every pattern" (the plain path); the text that reaches it is the first one filtered, and
    the checks are those of searching every pattern throughout."""
    pytest.importorskip("re2")
    monkeypatch.setattr(_patterns, "PREFILTER_AFTER", 30 * len(WORDS))
    rule = {"id": "r", "type": "ForbiddenPattern", "patterns": [rf"\b{word}\b" for word in WORDS]}
    source = json.dumps({"textcontract": 1, "id": "t", "rules": [rule]})
    shared, plain = textcontract.load_contract_text(source), textcontract.load_contract_text(source)
    (shared_rule,) = shared.rules
    assert isinstance(shared_rule, PatternRule)
    assert shared_rule.shared_table is not None
    table = shared_rule.shared_table
    texts = ["a free cafe", "nothing at all", "a free day, and more words to reach the bound"]
    assert [table.candidates(text) for text in texts] == [None, None, frozenset({2})]
    empty = Context.from_json({})
    for text in [*texts, "cafe", "free"]:
        fast = shared.check(Document.from_text(text), empty).to_json()
        with _every_pattern_searched():
            slow = plain.check(Document.from_text(text), empty).to_json()
        assert fast == slow


def test_a_cold_check_of_a_short_document_builds_no_prefilter() -> None:
    rule = {"id": "r", "type": "ForbiddenPattern", "patterns": [rf"\b{word}\b" for word in WORDS]}
    contract = textcontract.load_contract_text(
        json.dumps({"textcontract": 1, "id": "t", "rules": [rule]})
    )
    report = contract.check(Document.from_text("a free cafe"), Context.from_json({}))
    assert [c.status.value for c in report.checks] == ["violated"]
    (built,) = contract.rules
    assert isinstance(built, PatternRule)
    assert built.shared_table is not None
    assert built.shared_table.prefilter._plan is None


def test_idle_checks_are_reused_only_for_the_same_surface_names() -> None:
    """A one-word rule's checks on a document where its word is absent are those of every
    such document with the same surfaces; a document with other surfaces gets its own."""
    pytest.importorskip("re2")
    rules = [
        {"id": f"no-{index}", "type": "ForbiddenPattern", "patterns": [rf"\b{word}\b"]}
        for index, word in enumerate(WORDS)
    ]
    rules.append(
        {"id": "named", "type": "ForbiddenPattern", "patterns": ["sky"], "surfaces": ["title"]}
    )
    contract = textcontract.load_contract_text(
        json.dumps({"textcontract": 1, "id": "idle", "rules": rules})
    )
    empty = Context.from_json({})
    first = contract.check(Document((Surface("body", "nothing here"),)), empty)
    second = contract.check(Document((Surface("body", "a free day"),)), empty)
    other = contract.check(Document((Surface("title", "Sky"), Surface("body", "nothing"))), empty)
    assert [c.status.value for c in first.checks] == ["satisfied"] * len(WORDS) + ["error"]
    assert [c.code for c in second.checks][-1] == "SURFACE_MISSING"
    assert [c.rule_id for c in second.checks if c.status.value == "violated"] == ["no-2"]
    assert [(c.rule_id, c.scope) for c in other.checks if c.status.value != "satisfied"] == [
        ("no-6", "surface:title"),
        ("named", "surface:title"),
    ]
    assert [c.scope for c in other.checks][:2] == ["surface:title", "surface:body"]
