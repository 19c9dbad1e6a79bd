"""The shipped example corpus, fixtures/mutations: what it holds and the figures it gives."""

from __future__ import annotations

from collections import Counter

from tests.audit.audit_builders import SHIPPED
from textcontract.audit import Relation, Validity, audit_directory, load_corpus


def test_the_corpus_covers_what_an_example_must_show() -> None:
    corpus = load_corpus(SHIPPED)
    assert len(corpus.cases) >= 3
    variants = [variant for case in corpus.cases for variant in case.variants]
    assert len(variants) >= 20
    violations = [v for v in variants if v.relation is Relation.VIOLATION]
    assert {v.probe_class.value for v in violations} == {"defect", "gameability", "zero-action"}
    assert any(v.canary for v in violations)
    assert any(len(v.trials) > 1 for v in variants)
    validities = Counter(v.validity for v in variants)
    assert validities[Validity.EQUIVALENT] >= 1
    assert validities[Validity.UNREVIEWED] >= 1
    assert corpus.identical
    preserved = [v for v in variants if v.relation is Relation.PRESERVE]
    assert sum(1 for v in preserved if v.validity is Validity.VALID) >= 5
    for variant in variants:
        if variant.validity is Validity.VALID:
            assert variant.provenance is not None, variant.id
            assert variant.provenance.strip(), variant.id


def test_the_corpus_gives_the_documented_figures() -> None:
    result = audit_directory(SHIPPED)
    report = result.report
    assert (report["detection"]["detected"], report["detection"]["eligible"]) == (18, 23)
    assert (report["preservation"]["preserved"], report["preservation"]["eligible"]) == (6, 7)
    assert report["canaries"] == {"caught": 1, "total": 1}
    assert report["verdict"] == {
        "value": "CONCERNS",
        "reasons": [
            "oracle-unreached",
            "unexercised-probe",
            "behavioural-failure-below-floor",
            "clean-control-rejected",
        ],
    }
    assert report["coverage_gaps"] == []
    classes = report["strength"]["classes"]
    assert {name: (c["caught"], c["exercised"], c["eligible"]) for name, c in classes.items()} == {
        "defect": (8, 10, 10),
        "gameability": (4, 6, 7),
        "zero-action": (6, 6, 6),
    }
    reasons = {row["variant"]: row["reason"] for row in report["variants"]}
    assert reasons["wrong-parcel-link"] == "accepted"
    assert reasons["truncated-body"] == "unrelated-rejection"
    assert reasons["claims-stripped"] == "undetermined"
    assert reasons["refund-policy-mention"] == "rejected"
    assert {(e["variant"], e["reason"]) for e in report["excluded"]} == {
        ("double-space", "equivalent"),
        ("paraphrased-opening", "unreviewed"),
        ("total-rewritten", "identical"),
        ("greeting-variation", "invalid-baseline"),
        ("status-pending", "invalid-baseline"),
    }
    assert result.exit_code == 0
