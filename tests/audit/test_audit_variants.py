"""Variant construction: each kind of change, trials, and a baseline that never changes."""

from __future__ import annotations

from pathlib import Path

from tests.audit.audit_builders import case_text, preserve, write_corpus
from textcontract.audit import Corpus, load_corpus
from textcontract.model import Context, Document

TWO_SURFACES = """\
id: c1
baseline:
  document:
    surfaces:
      subject: {text: "Order 7 shipped", claims: {order.id: 7}}
      body:
        text: "Your order 7 has shipped; order 7 is on its way to you today."
        claims: {order.total: 10, order.id: 7}
  context:
    states:
      current: {order.status: shipped, order.total: 10, order.id: 7}
      after: {order.status: delivered}
    closed_premises: [refund-offered]
    history: ["Earlier text"]
variants:
"""


def load(tmp_path: Path, variants: str, head: str = TWO_SURFACES) -> Corpus:
    text = head + "".join("  " + line + "\n" for line in variants.splitlines())
    return load_corpus(write_corpus(tmp_path, {"c1.yaml": text}))


def only_trials(corpus: Corpus) -> list[tuple[Document, Context]]:
    case = corpus.cases[0]
    return [
        (trial.document, trial.context)
        for variant in case.variants
        for trial in corpus.trials(case, variant)
    ]


def test_claims_are_set_per_surface(tmp_path: Path) -> None:
    corpus = load(tmp_path, preserve("p", "{claims: {body: {order.total: 11.5, order.note: x}}}"))
    [(document, _)] = only_trials(corpus)
    body = document.surface("body")
    assert body is not None
    assert dict(body.claims) == {"order.total": 11.5, "order.id": 7, "order.note": "x"}
    assert document.surface("subject") == corpus.cases[0].document.surface("subject")
    assert document.names == ("subject", "body")


def test_context_is_merged_per_snapshot_and_new_snapshots_are_created(tmp_path: Path) -> None:
    change = "{context: {current: {order.status: packed}, before: {order.status: paid}}}"
    corpus = load(tmp_path, preserve("p", change))
    [(_, context)] = only_trials(corpus)
    assert dict(context.states["current"]) == {
        "order.status": "packed",
        "order.total": 10,
        "order.id": 7,
    }
    assert dict(context.states["before"]) == {"order.status": "paid"}
    assert dict(context.states["after"]) == {"order.status": "delivered"}
    assert context.closed_premises == ("refund-offered",)
    assert context.history == ("Earlier text",)


def test_remove_context_removes_keys(tmp_path: Path) -> None:
    corpus = load(tmp_path, preserve("p", "{remove_context: {current: [order.total, order.id]}}"))
    [(_, context)] = only_trials(corpus)
    assert dict(context.states["current"]) == {"order.status": "shipped"}


def test_replace_is_literal_and_replaces_every_occurrence(tmp_path: Path) -> None:
    change = (
        "{replace: [{find: 'order 7', with: 'order (7)'}, "
        "{surface: subject, find: '7', with: '8'}]}"
    )
    corpus = load(tmp_path, preserve("p", change))
    [(document, _)] = only_trials(corpus)
    body, subject = document.surface("body"), document.surface("subject")
    assert body is not None
    assert subject is not None
    assert body.text == "Your order (7) has shipped; order (7) is on its way to you today."
    assert subject.text == "Order 8 shipped"


def test_whole_document_replacement_inline_then_edits(tmp_path: Path) -> None:
    change = (
        "{document: {surfaces: {body: {text: 'Short text here', claims: {a: 1}}}}, "
        "replace: [{find: 'Short', with: 'Long'}], claims: {body: {b: 2}}}"
    )
    corpus = load(tmp_path, preserve("p", change))
    [(document, context)] = only_trials(corpus)
    assert document.to_json() == {
        "surfaces": {
            "body": {"text": "Long text here", "state": "current", "claims": {"a": 1, "b": 2}}
        }
    }
    assert context == corpus.cases[0].context


def test_whole_document_replacement_by_path(tmp_path: Path) -> None:
    head = TWO_SURFACES
    text = head + "  " + preserve("p", "{document: docs/other.md}").replace("\n", "\n  ")
    corpus_dir = write_corpus(
        tmp_path,
        {"c1.yaml": text},
        extra_files={"docs/other.md": "---\nclaims: {body: {order.id: 7}}\n---\nHello there."},
    )
    corpus = load_corpus(corpus_dir)
    [(document, _)] = only_trials(corpus)
    assert document.to_json() == {
        "surfaces": {
            "body": {
                "text": "Hello there.",
                "state": "current",
                "claims": {"order.id": 7},
                "format": "markdown",
            }
        }
    }


def test_trials_build_one_document_each(tmp_path: Path) -> None:
    text = (
        "- id: p\n  relation: preserve\n  validity: valid\n  provenance: t\n  trials:\n"
        "    - {replace: [{find: today, with: tomorrow}]}\n"
        "    - {context: {current: {order.total: 10.0}}}\n"
        "    - {}\n"
    )
    corpus = load(tmp_path, text)
    trials = only_trials(corpus)
    base = corpus.cases[0]
    assert len(trials) == 3
    assert trials[0][0] != base.document
    assert trials[0][1] == base.context
    assert trials[1][1].states["current"]["order.total"] == 10.0
    assert trials[1][1].digest != base.context.digest
    assert trials[2][0].digest == base.document.digest
    assert trials[2][1].digest == base.context.digest


def test_the_baseline_is_never_mutated(tmp_path: Path) -> None:
    change = (
        "{claims: {body: {order.total: 99}}, context: {current: {order.total: 99}}, "
        "remove_context: {after: [order.status]}, replace: [{find: today, with: soon}]}"
    )
    corpus = load(tmp_path, preserve("p", change))
    case = corpus.cases[0]
    before = (case.document.to_json(), case.context.to_json())
    for _ in range(2):
        only_trials(corpus)
    assert (case.document.to_json(), case.context.to_json()) == before


def test_a_type_change_is_a_difference(tmp_path: Path) -> None:
    text = case_text(
        preserve("int-to-float", "{context: {current: {order.total: 10.0}}}")
        + preserve("same-value", "{context: {current: {order.total: 10}}}")
    )
    corpus = load_corpus(write_corpus(tmp_path, {"c1.yaml": text}))
    assert corpus.identical == frozenset({("c1", "same-value")})
