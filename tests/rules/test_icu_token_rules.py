"""The token rules and NoRepeatedText with ``segmenter: icu`` (SPEC §19), on real sentences."""

from __future__ import annotations

from typing import Any

import pytest

from tests.text.icu_sentences import SENTENCES, Sentence
from textcontract import Check, Context, Document, Report, load_contract_text
from textcontract.model import Surface

IDS = [sentence.language for sentence in SENTENCES]

_RULES = """
rules:
  - {id: minimum, type: MinimumTokens, minimum: 1}
  - {id: range, type: TokenRange, min: 1, max: 12}
  - {id: diversity, type: LexicalDiversity, min: 0.8, min_tokens: 3}
  - {id: restate, type: LexicalRestatement, source: title, target: body}
  - {id: repeat, type: NoRepeatedText, surfaces: [body]}
"""


def _contract(header: str = "") -> Any:
    return load_contract_text(f"textcontract: 1\nid: c\n{header}\n{_RULES}")


def _checks(report: Report) -> dict[str, Check]:
    return {check.rule_id: check for check in report.checks if check.scope == "surface:body"}


def _document(body: str, title: str) -> Document:
    return Document((Surface("title", title), Surface("body", body)))


@pytest.mark.parametrize("sentence", SENTENCES, ids=IDS)
def test_token_rules_count_icu_words(sentence: Sentence) -> None:
    tokens = sentence.icu
    report = _contract("tokens: {segmenter: icu}").check(
        _document(sentence.text, sentence.icu[0]), Context.from_json({})
    )
    checks = _checks(report)
    unique = len(set(tokens))
    assert checks["minimum"].metrics == {"tokens": len(tokens), "unique_tokens": unique}
    assert checks["range"].metrics == {"tokens": len(tokens)}
    assert checks["range"].status.value == ("satisfied" if len(tokens) <= 12 else "violated")
    assert checks["diversity"].metrics == {
        "tokens": len(tokens),
        "unique_tokens": unique,
        "diversity": unique / len(tokens),
    }
    assert checks["restate"].metrics == {"overlap": 1.0, "novel_tokens": unique - 1}
    assert checks["repeat"].status.value == "satisfied"
    assert all(check.status.value in ("satisfied", "violated") for check in checks.values())


@pytest.mark.parametrize("sentence", SENTENCES, ids=IDS)
def test_the_default_word_tokens_still_refuse_these_scripts(sentence: Sentence) -> None:
    report = _contract().check(_document(sentence.text, sentence.text), Context.from_json({}))
    refused = {c.rule_id for c in report.checks if c.code == "UNSUPPORTED_SCRIPT"}
    assert refused == {"minimum", "range", "diversity", "restate"}
    # NoRepeatedText never refused a script; it compares the word tokens
    assert _checks(report)["repeat"].status.value == "satisfied"


def test_the_expected_diversity_of_the_thai_sentence() -> None:
    """ภาษา twice among nine words: 8/9 distinct, above 0.8 with ICU."""
    (thai,) = [s for s in SENTENCES if s.language == "th"]
    checks = _checks(
        _contract("tokens: {segmenter: icu}").check(
            _document(thai.text, "ไทย"), Context.from_json({})
        )
    )
    assert checks["diversity"].metrics["diversity"] == pytest.approx(8 / 9)
    assert checks["diversity"].status.value == "satisfied"
    assert checks["range"].metrics == {"tokens": 9}


def test_no_repeated_text_compares_icu_words_whatever_the_spacing() -> None:
    history = "これは 日本語の テキストです"
    body = "これは日本語のテキストです。"
    context = Context.from_json({"states": {}, "history": [history]})
    icu = _checks(_contract("tokens: {segmenter: icu}").check(_document(body, "x"), context))
    words = _checks(_contract().check(_document(body, "x"), context))
    assert icu["repeat"].status.value == "violated"
    assert icu["repeat"].evidence == ({"history_index": 0, "tokens": 6},)
    assert words["repeat"].status.value == "satisfied"


def test_restatement_in_japanese_is_measured() -> None:
    source = "ご注文の商品は本日発送されました。"
    target = "ご注文の商品は本日発送されました。"
    report = _contract("tokens: {segmenter: icu}").check(
        _document(target, source), Context.from_json({})
    )
    restate = _checks(report)["restate"]
    assert restate.status.value == "violated"
    assert restate.metrics == {"overlap": 1.0, "novel_tokens": 0}


def test_a_rule_may_choose_its_segmenter_against_the_header() -> None:
    text = "これは日本語のテキストです。"
    header_icu = load_contract_text(
        "textcontract: 1\nid: c\ntokens: {segmenter: icu}\nrules:\n"
        "  - {id: a, type: MinimumTokens, minimum: 1}\n"
        "  - {id: b, type: MinimumTokens, minimum: 1, segmenter: words}\n"
    )
    rule_icu = load_contract_text(
        "textcontract: 1\nid: c\nrules:\n"
        "  - {id: a, type: MinimumTokens, minimum: 1, segmenter: icu}\n"
        "  - {id: b, type: MinimumTokens, minimum: 1}\n"
    )
    for contract in (header_icu, rule_icu):
        a, b = contract.check(Document.from_text(text), Context.from_json({})).checks
        assert (a.code, a.metrics["tokens"]) == ("LOW_LEXICAL_CONTENT", 6)
        assert b.code == "UNSUPPORTED_SCRIPT"


def test_latin_text_has_the_same_counts_under_both_segmenters() -> None:
    text = "Your parcel left our warehouse today; it'll arrive on the 3rd."
    icu = _checks(
        _contract("tokens: {segmenter: icu}").check(_document(text, "x"), Context.from_json({}))
    )
    words = _checks(_contract().check(_document(text, "x"), Context.from_json({})))
    assert icu["minimum"].metrics == words["minimum"].metrics == {"tokens": 11, "unique_tokens": 11}


def test_a_report_of_an_icu_contract_records_the_icu_version() -> None:
    report = _contract("tokens: {segmenter: icu, locale: ja}").check(
        _document("テキスト", "x"), Context.from_json({})
    )
    engine = report.to_dict()["engine"]
    assert set(engine) == {"name", "version", "unicode", "icu"}
    words = _contract().check(_document("text", "x"), Context.from_json({})).to_dict()["engine"]
    assert list(words) == ["name", "version", "unicode"]
