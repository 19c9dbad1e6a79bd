"""An audit records the versions its results depend on and files its cache under them
(SPEC §13, §19, §20): a cache filled under another Unicode or ICU version is never read."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.audit.test_audit_cache import counts, text_of, with_cache_block
from textcontract._engine import engine_json, unicode_versions
from textcontract.audit import audit_directory
from textcontract.strength import ScoringPolicy, aggregate, compare
from textcontract.text import IcuSegmenter, icu_segmenter

CONTRACT = """\
textcontract: 1
id: replies-ja
tokens: {segmenter: icu, locale: ja}
rules:
  - {id: status, type: RequiredFact, key: order.status, equals: shipped}
  - {id: length, type: MinimumTokens, surfaces: [body], minimum: 8, minimum_unique: 6}
  - {id: fresh, type: NoRepeatedText, surfaces: [body]}
"""

CASE = """\
id: order-1
baseline:
  document:
    surfaces:
      body: "ご注文の商品は本日発送されました。明日の午前中に届く予定です。"
  context: {order.status: shipped}
variants:
  - id: terse
    relation: violation
    validity: valid
    provenance: written for this test
    expect: [{rule: length, code: LOW_LEXICAL_CONTENT, scope: "surface:body"}]
    change:
      document:
        surfaces: {body: "発送しました。"}
  - id: reworded
    relation: preserve
    validity: valid
    provenance: written for this test
    change:
      replace: [{surface: body, find: "明日の午前中", with: "明日の夕方"}]
"""

RULES = 3


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "corpus"
    folder.mkdir()
    (tmp_path / "contract.yaml").write_text(CONTRACT, encoding="utf-8")
    (folder / "audit.yaml").write_text("contract: ../contract.yaml\n", encoding="utf-8")
    (folder / "order-1.yaml").write_text(CASE, encoding="utf-8")
    return folder


def test_the_report_and_every_artifact_record_unicode_and_icu(corpus: Path) -> None:
    result = audit_directory(corpus)
    report = json.loads(text_of(result))
    icu = icu_segmenter().version
    assert report["engine"] == engine_json(icu)
    assert list(report["engine"]) == ["name", "version", "unicode", "icu"]
    assert report["engine"]["unicode"] == unicode_versions()
    assert report["detection"]["detected"] == 1
    assert report["preservation"]["preserved"] == 1
    artifacts = dict(result.artifacts())
    assert sorted(artifacts) == ["order-1/reworded.json", "order-1/terse.json"]
    assert all(artifact["engine"] == engine_json(icu) for artifact in artifacts.values())


def test_without_icu_the_report_records_unicode_alone(corpus: Path) -> None:
    contract = corpus.parent / "contract.yaml"
    contract.write_text(CONTRACT.replace("tokens: {segmenter: icu, locale: ja}\n", ""), "utf-8")
    report = json.loads(text_of(audit_directory(corpus)))
    assert report["engine"] == engine_json()
    assert "icu" not in report["engine"]


_FORGED_UNICODE = {"unicodedata": "15.1.0", "regex": "2023.12.25"}
_CACHE_UNICODE = "textcontract.audit.running._cache.unicode_versions"


def test_a_cache_filled_under_another_unicode_version_is_recomputed(
    corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = text_of(audit_directory(corpus))
    cache = tmp_path / "cache"
    with monkeypatch.context() as forged:
        forged.setattr(
            "textcontract.audit.running._cache.unicode_versions", lambda: _FORGED_UNICODE
        )
        _, evaluations = counts(audit_directory(corpus, cache=cache))
    assert evaluations > 0
    assert evaluations % RULES == 0
    recomputed = audit_directory(corpus, cache=cache)
    assert counts(recomputed) == (0, evaluations)  # nothing filed under 15.1.0 was read
    assert text_of(recomputed) == with_cache_block(plain, 0, evaluations)
    assert counts(audit_directory(corpus, cache=cache)) == (evaluations, 0)


def _forged_icu(locale: str = "root") -> IcuSegmenter:
    real = icu_segmenter(locale)
    return IcuSegmenter(real.locale, "77.1", real.breaker)


def test_a_cache_filled_under_another_icu_version_recomputes_the_icu_rules_alone(
    corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    with monkeypatch.context() as forged:
        forged.setattr("textcontract.rules._segmenting.icu_segmenter", _forged_icu)
        under_77 = audit_directory(corpus, cache=cache)
        assert json.loads(text_of(under_77))["engine"]["icu"] == "77.1"
    _, evaluations = counts(under_77)
    per_rule = evaluations // RULES
    # MinimumTokens and NoRepeatedText cut tokens with ICU: their results are recomputed
    again = audit_directory(corpus, cache=cache)
    assert counts(again) == (per_rule, 2 * per_rule)
    assert text_of(again) == with_cache_block(text_of(audit_directory(corpus)), *counts(again))


def _policy() -> ScoringPolicy:
    return ScoringPolicy.from_json({}, "policy.yaml")


def _artifacts(corpus: Path) -> list[tuple[str, Any]]:
    return sorted(audit_directory(corpus).artifacts())


def test_artifacts_of_two_environments_compare_and_aggregate_with_caveats(
    corpus: Path,
) -> None:
    (name, artifact), (other_name, other) = _artifacts(corpus)
    assert compare((name, artifact), (name, artifact))["caveats"] == []
    assert aggregate([(name, artifact), (other_name, other)], _policy())["caveats"] == []
    moved = json.loads(json.dumps(other))
    moved["engine"]["unicode"] = _FORGED_UNICODE
    moved["engine"]["icu"] = "77.1"
    result = aggregate([(name, artifact), (other_name, moved)], _policy())
    assert result["caveats"] == ["unicode-differs", "icu-differs"]
    assert aggregate([(other_name, moved), (name, artifact)], _policy()) == result
    same_probe = json.loads(json.dumps(artifact))
    same_probe["engine"]["unicode"] = _FORGED_UNICODE
    compared = compare((name, artifact), (name, same_probe))
    assert compared == {
        "relation": compare((name, artifact), (name, artifact))["relation"],
        "reasons": compare((name, artifact), (name, artifact))["reasons"],
        "caveats": ["unicode-differs"],
    }
