"""``variant_views``: every variant of a loaded corpus with its baseline and trials, in report
order, read again case by case and held to the corpus the audit measured."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.audit.audit_builders import SHIPPED, case_text, preserve, violation, write_corpus
from textcontract.audit import VariantView, load_corpus, run_audit, variant_views
from textcontract.canonical import canonical_json
from textcontract.errors import InternalError
from textcontract.formats.json_text import dumps_pretty


def test_views_follow_the_report_and_hold_the_trials() -> None:
    corpus = load_corpus(SHIPPED)
    report = run_audit(corpus).report
    views = list(variant_views(corpus, report["corpus"]["digest"]))
    listed = [(row["case"], row["variant"]) for row in report["variants"]]
    listed += [(row["case"], row["variant"]) for row in report["excluded"]]
    assert sorted((v.case, v.variant) for v in views) == sorted(listed)
    assert [v.case for v in views] == sorted(v.case for v in views)
    rows = listed[: len(report["variants"])]
    assert [(v.case, v.variant) for v in views if (v.case, v.variant) in set(rows)] == rows
    for view in views:
        case = next(c for c in corpus.cases if c.id == view.case)
        variant = next(v for v in case.variants if v.id == view.variant)
        assert view.file == case.file
        assert view.line == variant.location.line
        assert view.labels == variant.labels_json()
        assert view.baseline.to_json() == {
            "document": case.document.to_json(),
            "context": case.context.to_json(),
        }
        assert [t.to_json() for t in view.trials] == [
            t.to_json() for t in corpus.trials(case, variant)
        ]


def test_views_change_nothing_in_the_report() -> None:
    corpus = load_corpus(SHIPPED)
    result = run_audit(corpus)
    before = dumps_pretty(result.report)
    plain = [json.dumps(v.to_json(), sort_keys=True) for v in variant_views(corpus)]
    assert dumps_pretty(run_audit(load_corpus(SHIPPED)).report) == before
    assert all(isinstance(json.loads(item)["trials"], list) for item in plain)


def test_to_json_is_canonical_json_ready() -> None:
    (view, *_) = variant_views(load_corpus(SHIPPED))
    assert isinstance(view, VariantView)
    data = view.to_json()
    assert set(data) == {"case", "variant", "file", "line", "labels", "baseline", "trials"}
    canonical_json(data)  # only JSON values


REFUND_CASE = case_text(
    violation("v1", "{replace: [{surface: body, find: on its way, with: on its way; money back}]}")
    + preserve("p1", "{context: {current: {order.note: x}}}")
)


def test_a_case_edited_after_loading_is_refused(tmp_path: Path) -> None:
    corpus_folder = write_corpus(tmp_path, {"c1.yaml": REFUND_CASE})
    corpus = load_corpus(corpus_folder)
    digest = run_audit(corpus).report["corpus"]["digest"]
    assert len(list(variant_views(corpus, digest))) == 2
    edited = REFUND_CASE.replace("order.note: x", "order.note: y")
    (corpus_folder / "c1.yaml").write_text(edited, encoding="utf-8")
    with pytest.raises(InternalError, match="changed since the audit read it"):
        list(variant_views(corpus, digest))
    with pytest.raises(InternalError, match="not the one the audit measured"):
        list(variant_views(load_corpus(corpus_folder), digest))
