"""Anchors in documents (SPEC §15): JSON and front matter, validation, canonical form, digests."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from textcontract.errors import InputError
from textcontract.inputs import load_document_file, parse_markdown
from textcontract.model import Anchor, Document, Surface

ROOT = Path(__file__).resolve().parents[2]

# Digests of the shipped fixtures, computed on main before anchors existed: documents
# without anchors keep their digests.
DIGESTS_BEFORE_ANCHORS = {
    "fixtures/mutations/documents/order-1001-truncated.md": (
        "sha256:0e1d5d59a61732ea332672000fa1375491eab79ff4b7ddda11483f0a6147b644"
    ),
    "fixtures/mutations/documents/order-1001-unannotated.md": (
        "sha256:af82c9411af83c9f892615b329305de690f8be3e82878f46f11f1b63deb0a390"
    ),
    "fixtures/mutations/documents/order-1001.md": (
        "sha256:270e564119a9ca343dff71eb68618c962248feedabd59f043b80d02009d8ac3a"
    ),
    "fixtures/mutations/documents/order-1002.md": (
        "sha256:a8e5aab8e29d74391faa5ab3dde3fbd0332fd1b3d9bc379c4665b6cfebb80739"
    ),
    "fixtures/mutations/documents/order-2001.json": (
        "sha256:b2e0d1a5f58163c2756ebff6de35699bed7d88757d9457912cf27096ec1375dc"
    ),
    "fixtures/mutations/documents/order-2002.md": (
        "sha256:fcf00b13c4d143f5c0dcf23165973df49389e48d82b919cff818213471c42159"
    ),
    "fixtures/orders/order-1001.md": (
        "sha256:270e564119a9ca343dff71eb68618c962248feedabd59f043b80d02009d8ac3a"
    ),
    "fixtures/orders/order-1002.md": (
        "sha256:a8e5aab8e29d74391faa5ab3dde3fbd0332fd1b3d9bc379c4665b6cfebb80739"
    ),
    "fixtures/orders/order-1003.json": (
        "sha256:dd888b64668ad3b2dbfff6929076d75dbc40840ab11e7a396025591f7c588862"
    ),
    "fixtures/story/turn-12.json": (
        "sha256:cf9dc7ae86f7ff007c60a44df4244acc2a741038b0faac0effeb357a80463268"
    ),
    "fixtures/story/turn-13-regressed.json": (
        "sha256:1ede9880c0e2960d0f6b3399b0e9d6ecafe95d6480b26d12448efff831d06402"
    ),
}


@pytest.mark.parametrize("path", sorted(DIGESTS_BEFORE_ANCHORS))
def test_documents_without_anchors_keep_their_digests(path: str) -> None:
    document = load_document_file(ROOT / path)
    assert all(not surface.anchors for surface in document.surfaces)
    assert "anchors" not in json.dumps(document.to_json())
    if not path.endswith(".md"):
        assert document.digest == DIGESTS_BEFORE_ANCHORS[path]
        return
    # SPEC §18: a .md file's body is markdown, which its digest now says (once); read as
    # plain, it is the 0.2 document, and its JSON form with "format" has its digest.
    assert document.surfaces[0].format == "markdown"
    as_plain = Document(tuple(replace(surface, format="plain") for surface in document.surfaces))
    assert as_plain.digest == DIGESTS_BEFORE_ANCHORS[path]
    assert document.digest != DIGESTS_BEFORE_ANCHORS[path]
    assert Document.from_json(document.to_json()).digest == document.digest


SURFACE = {
    "text": "Total: 59.90 EUR",
    "claims": {"order.total": 59.9},
    "anchors": {"order.total": [{"span": [7, 12], "text": "59.90"}]},
}


def test_anchors_are_read_and_written() -> None:
    document = Document.from_json({"surfaces": {"body": SURFACE}})
    assert document.surfaces == (
        Surface(
            "body",
            "Total: 59.90 EUR",
            "current",
            {"order.total": 59.9},
            {"order.total": (Anchor(7, 12, "59.90"),)},
        ),
    )
    assert document.to_json() == {"surfaces": {"body": {"state": "current", **SURFACE}}}
    again = Document.from_json(document.to_json())
    assert again == document
    assert again.digest == document.digest


def test_anchors_change_the_digest_and_top_level_anchors_are_the_same_document() -> None:
    inline = Document.from_json({"surfaces": {"body": SURFACE}})
    without = Document.from_json(
        {"surfaces": {"body": {"text": SURFACE["text"], "claims": SURFACE["claims"]}}}
    )
    top = Document.from_json(
        {
            "surfaces": {"body": {"text": SURFACE["text"]}},
            "claims": {"body": SURFACE["claims"]},
            "anchors": {"body": SURFACE["anchors"]},
        }
    )
    assert inline.digest != without.digest
    assert top == inline
    assert top.digest == inline.digest


def test_anchor_span_and_check() -> None:
    anchor = Anchor(7, 12, "59.90")
    assert anchor.span == (7, 12)
    assert anchor.holds_in("Total: 59.90 EUR")
    assert not anchor.holds_in("Total: 59.95 EUR")
    assert not anchor.holds_in("Total: 59")
    assert Anchor(3, 3, "").holds_in("abc")
    assert not Anchor(4, 4, "").holds_in("abc")
    assert anchor.to_json() == {"span": [7, 12], "text": "59.90"}


def test_from_text_takes_anchors() -> None:
    document = Document.from_text(
        "Total: 59.90", claims={"t": 59.9}, anchors={"t": [{"span": [7, 12], "text": "59.90"}]}
    )
    assert document.surfaces[0].anchors == {"t": (Anchor(7, 12, "59.90"),)}


def test_loading_does_not_compare_anchors_with_the_text() -> None:
    # An anchor is a declaration made when rendering; whether it still holds is for the
    # ClaimsAnchored rule to say, since the text may have been edited since.
    document = Document.from_json(
        {
            "surfaces": {
                "body": {
                    "text": "short",
                    "claims": {"k": 1},
                    "anchors": {"k": [{"span": [40, 45], "text": "12345"}]},
                }
            }
        }
    )
    assert document.surfaces[0].anchors["k"] == (Anchor(40, 45, "12345"),)


def _problems(obj: Any) -> list[tuple[str | None, str]]:
    with pytest.raises(InputError) as caught:
        Document.from_json(obj, "doc.json")
    return [(p.location.key, p.message) for p in caught.value.problems]


def _with_anchors(anchors: Any, claims: Any = None) -> dict[str, Any]:
    return {
        "surfaces": {
            "body": {"text": "Total: 59.90", "claims": claims or {"k": 1}, "anchors": anchors}
        }
    }


@pytest.mark.parametrize(
    ("anchors", "expected"),
    [
        pytest.param(
            [1],
            [
                (
                    "surfaces.body.anchors",
                    "'anchors' must map claim keys to lists of anchors, got a list",
                )
            ],
            id="not-an-object",
        ),
        pytest.param(
            {"k": []},
            [
                (
                    "surfaces.body.anchors.k",
                    "expected a non-empty list of anchors {span: [start, end], text}, "
                    "got an empty list (leave the key out)",
                )
            ],
            id="empty-list",
        ),
        pytest.param(
            {"k": {"span": [0, 1], "text": "T"}},
            [
                (
                    "surfaces.body.anchors.k",
                    "expected a non-empty list of anchors {span: [start, end], text}, "
                    "got an object",
                )
            ],
            id="not-a-list",
        ),
        pytest.param(
            {"k": [{"span": [0, 1]}]},
            [
                (
                    "surfaces.body.anchors.k[0]",
                    "an anchor is an object with exactly 'span' and 'text'",
                )
            ],
            id="missing-text",
        ),
        pytest.param(
            {"k": [{"span": [0, 1], "text": "T", "x": 1}]},
            [
                (
                    "surfaces.body.anchors.k[0]",
                    "an anchor is an object with exactly 'span' and 'text'",
                )
            ],
            id="extra-field",
        ),
        pytest.param(
            {"k": [{"span": [2, 1], "text": ""}]},
            [
                (
                    "surfaces.body.anchors.k[0].span",
                    "'span' must be [start, end]: two integers with 0 <= start <= end",
                )
            ],
            id="start-after-end",
        ),
        pytest.param(
            {"k": [{"span": [-1, 0], "text": ""}]},
            [
                (
                    "surfaces.body.anchors.k[0].span",
                    "'span' must be [start, end]: two integers with 0 <= start <= end",
                )
            ],
            id="negative",
        ),
        pytest.param(
            {"k": [{"span": [0, True], "text": "T"}]},
            [
                (
                    "surfaces.body.anchors.k[0].span",
                    "'span' must be [start, end]: two integers with 0 <= start <= end",
                )
            ],
            id="boolean-offset",
        ),
        pytest.param(
            {"k": [{"span": [0, 1.0], "text": "T"}]},
            [
                (
                    "surfaces.body.anchors.k[0].span",
                    "'span' must be [start, end]: two integers with 0 <= start <= end",
                )
            ],
            id="float-offset",
        ),
        pytest.param(
            {"k": [{"span": [0, 1], "text": 1}]},
            [
                (
                    "surfaces.body.anchors.k[0].text",
                    "'text' must be a valid Unicode string, got an integer",
                )
            ],
            id="text-not-string",
        ),
        pytest.param(
            {"k": [{"span": [0, 5], "text": "Tot"}]},
            [
                (
                    "surfaces.body.anchors.k[0]",
                    "the span [0, 5] covers 5 code points but 'text' has 3",
                )
            ],
            id="length-mismatch",
        ),
        pytest.param(
            {"other": [{"span": [0, 1], "text": "T"}]},
            [
                (
                    "surfaces.body.anchors.other",
                    "anchors given for 'other', which surface 'body' does not claim",
                )
            ],
            id="key-not-claimed",
        ),
    ],
)
def test_invalid_anchors(anchors: Any, expected: list[tuple[str, str]]) -> None:
    assert _problems(_with_anchors(anchors)) == expected


def test_top_level_anchor_problems_name_their_path() -> None:
    problems = _problems(
        {
            "surfaces": {"body": {"text": "x", "claims": {"k": 1}}},
            "anchors": {"body": {"j": [{"span": [0, 1], "text": "x"}]}, "nope": {}},
        }
    )
    assert problems == [
        ("anchors.nope", "anchors given for surface 'nope', which does not exist"),
        ("anchors.body.j", "anchors given for 'j', which surface 'body' does not claim"),
    ]


def test_anchors_declared_twice() -> None:
    problems = _problems(
        {
            "surfaces": {"body": SURFACE},
            "anchors": {"body": SURFACE["anchors"]},
        }
    )
    assert problems == [("anchors.body", "the anchors of surface 'body' are declared twice")]


def test_markdown_front_matter_carries_anchors_for_the_body_and_other_surfaces() -> None:
    text = (
        "---\n"
        "surfaces:\n"
        "  subject:\n"
        "    text: Order 1001 shipped\n"
        "    claims: {order.id: 1001}\n"
        "    anchors: {order.id: [{span: [6, 10], text: '1001'}]}\n"
        "claims:\n"
        "  body: {order.total: 59.9}\n"
        "anchors:\n"
        "  body: {order.total: [{span: [7, 12], text: '59.90'}]}\n"
        "---\n"
        "Total: 59.90 EUR\n"
    )
    document = parse_markdown(text, "doc.md")
    assert document.surface("body") == Surface(
        "body",
        "Total: 59.90 EUR\n",
        "current",
        {"order.total": 59.9},
        {"order.total": (Anchor(7, 12, "59.90"),)},
        format="markdown",
    )
    subject = document.surface("subject")
    assert subject is not None
    assert subject.anchors == {"order.id": (Anchor(6, 10, "1001"),)}
    as_json = Document.from_json(document.to_json())
    assert as_json.digest == document.digest


def test_front_matter_anchor_errors_point_at_their_line() -> None:
    text = (
        "---\nclaims:\n  body: {k: 1}\nanchors:\n  body: {k: [{span: [0, 9], text: x}]}\n---\nx\n"
    )
    with pytest.raises(InputError) as caught:
        parse_markdown(text, "doc.md")
    (problem,) = caught.value.problems
    assert problem.location.line == 5
    assert "the span [0, 9] covers 9 code points but 'text' has 1" in problem.message


@given(
    text=st.text(max_size=30),
    cut=st.tuples(st.integers(0, 30), st.integers(0, 30)),
)
def test_an_anchor_taken_from_the_text_holds_and_round_trips(
    text: str, cut: tuple[int, int]
) -> None:
    start, end = sorted(cut)
    end = min(end, len(text))
    start = min(start, end)
    obj = {
        "surfaces": {
            "body": {
                "text": text,
                "claims": {"k": 1},
                "anchors": {"k": [{"span": [start, end], "text": text[start:end]}]},
            }
        }
    }
    try:
        document = Document.from_json(obj)
    except InputError:
        assert any(0xD800 <= ord(c) <= 0xDFFF for c in text)
        return
    (anchor,) = document.surfaces[0].anchors["k"]
    assert anchor.holds_in(text)
    assert Document.from_json(document.to_json()) == document
