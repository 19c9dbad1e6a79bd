"""The document (SPEC §2.2): surfaces, claims, states, the canonical form and its digest."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from textcontract.errors import InputError
from textcontract.model import Document, Surface


def _problems(error: InputError) -> list[tuple[str | None, str]]:
    return [(p.location.key, p.message) for p in error.problems]


def test_short_and_long_surfaces_with_defaults() -> None:
    document = Document.from_json(
        {
            "surfaces": {
                "body": {"text": "Shipped.", "state": "after", "claims": {"k": 1}},
                "subject": "short form: text only",
            }
        }
    )
    assert document.surfaces == (
        Surface("body", "Shipped.", "after", {"k": 1}),
        Surface("subject", "short form: text only", "current", {}),
    )
    assert document.to_json() == {
        "surfaces": {
            "body": {"text": "Shipped.", "state": "after", "claims": {"k": 1}},
            "subject": {"text": "short form: text only", "state": "current", "claims": {}},
        }
    }


def test_canonical_bytes_and_digest() -> None:
    document = Document.from_json({"surfaces": {"body": "Hi"}})
    canonical = b'{"surfaces":{"body":{"claims":{},"state":"current","text":"Hi"}}}'
    assert document.digest == "sha256:" + hashlib.sha256(canonical).hexdigest()


def test_surface_order_is_json_order() -> None:
    document = Document.from_json({"surfaces": {"zeta": "z", "alpha": "a", "mid": "m"}})
    assert document.names == ("zeta", "alpha", "mid")
    assert document.surface("alpha") == Surface("alpha", "a")
    assert document.surface("missing") is None


def test_digest_ignores_surface_order() -> None:
    forward = Document.from_json({"surfaces": {"a": "1", "b": "2"}})
    backward = Document.from_json({"surfaces": {"b": "2", "a": "1"}})
    assert forward.names != backward.names
    assert forward.digest == backward.digest


@pytest.mark.parametrize(
    ("change", "label"),
    [
        pytest.param({"text": "Hi!"}, "text", id="text"),
        pytest.param({"state": "after"}, "state", id="state"),
        pytest.param({"claims": {"k": 1.0}}, "int-vs-float-claim", id="claim-type"),
        pytest.param({"claims": {"k": True}}, "int-vs-bool-claim", id="claim-bool"),
    ],
)
def test_digest_changes_with_content(change: dict[str, Any], label: str) -> None:
    base = {"text": "Hi", "state": "current", "claims": {"k": 1}}
    before = Document.from_json({"surfaces": {"body": base}})
    after = Document.from_json({"surfaces": {"body": {**base, **change}}})
    assert before.digest != after.digest, label


def test_top_level_claims_and_states_are_merged() -> None:
    document = Document.from_json(
        {
            "surfaces": {"body": "B", "subject": {"text": "S"}},
            "claims": {"body": {"order.total": 19.99}},
            "states": {"subject": "after"},
        }
    )
    inline = Document.from_json(
        {
            "surfaces": {
                "body": {"text": "B", "claims": {"order.total": 19.99}},
                "subject": {"text": "S", "state": "after"},
            }
        }
    )
    assert document == inline
    assert document.digest == inline.digest


def test_from_text_is_a_body_document() -> None:
    document = Document.from_text("Hello", claims={"a": None}, state="after")
    assert document.surfaces == (Surface("body", "Hello", "after", {"a": None}),)
    json_form = {"surfaces": {"body": {"text": "Hello", "state": "after", "claims": {"a": None}}}}
    assert document.digest == Document.from_json(json_form).digest


@pytest.mark.parametrize(
    "name", ["a", "0", "body", "a.b-c_d", "x9"], ids=lambda name: f"valid-{name}"
)
def test_valid_surface_names(name: str) -> None:
    assert Document.from_json({"surfaces": {name: "t"}}).names == (name,)


@pytest.mark.parametrize(
    "name",
    ["Body", "_x", "-x", ".x", "", "a b", "é", "body\n"],
    ids=["upper", "underscore-first", "dash-first", "dot-first", "empty", "space", "accent", "nl"],
)
def test_invalid_surface_names(name: str) -> None:
    with pytest.raises(InputError) as caught:
        Document.from_json({"surfaces": {"ok": "t", name: "t"}})
    [(_, message)] = _problems(caught.value)
    assert message == f"surface name {name!r} does not match [a-z0-9][a-z0-9_.-]*"


@pytest.mark.parametrize(
    ("obj", "expected"),
    [
        pytest.param(
            {"surfaces": {}},
            [("surfaces", "a document needs at least one surface")],
            id="zero-surfaces",
        ),
        pytest.param(
            {},
            [("surfaces", "'surfaces' must be an object of surfaces, got null")],
            id="no-surfaces",
        ),
        pytest.param(
            {"surfaces": ["body"]},
            [("surfaces", "'surfaces' must be an object of surfaces, got a list")],
            id="surfaces-list",
        ),
        pytest.param(
            {"surfaces": {"body": "x"}, "claims": {"subject": {"k": 1}}},
            [("claims.subject", "claims given for surface 'subject', which does not exist")],
            id="claims-for-missing-surface",
        ),
        pytest.param(
            {"surfaces": {"body": "x"}, "states": {"subject": "after"}},
            [("states.subject", "states given for surface 'subject', which does not exist")],
            id="state-for-missing-surface",
        ),
        pytest.param(
            {"surfaces": {"body": {"text": "x", "claims": {}}}, "claims": {"body": {"k": 1}}},
            [("claims.body", "the claims of surface 'body' are declared twice")],
            id="claims-declared-twice",
        ),
        pytest.param(
            {"surfaces": {"body": {"text": "x", "state": "a"}}, "states": {"body": "a"}},
            [("states.body", "the state of surface 'body' is declared twice")],
            id="state-declared-twice",
        ),
        pytest.param(
            {"surfaces": {"body": "x"}, "meta": 1},
            [("meta", "unknown key (expected surfaces, claims, states, anchors)")],
            id="unknown-document-key",
        ),
        pytest.param(
            {"surfaces": {"body": {"text": "x", "lang": "en"}}},
            [
                (
                    "surfaces.body.lang",
                    "unknown surface key (expected text, state, claims, anchors, format)",
                )
            ],
            id="unknown-surface-key",
        ),
        pytest.param(
            {"surfaces": {"body": {"claims": {}}}},
            [("surfaces.body.text", "'text' must be a string, got null")],
            id="missing-text",
        ),
        pytest.param(
            {"surfaces": {"body": 3}},
            [
                (
                    "surfaces.body",
                    "a surface is a string or an object with text, state, claims, anchors, format; "
                    "got an integer",
                )
            ],
            id="surface-not-string-or-object",
        ),
        pytest.param(
            {"surfaces": {"body": {"text": "x", "state": ""}}},
            [
                (
                    "surfaces.body.state",
                    "a state must be a non-empty, valid Unicode snapshot name, got a string",
                )
            ],
            id="empty-state",
        ),
        pytest.param(
            {"surfaces": {"body": {"text": "x", "claims": {"order": {"total": 1}}}}},
            [
                (
                    "surfaces.body.claims.order",
                    "nested values are not facts; project them into flat keys "
                    "such as 'order.total'",
                )
            ],
            id="nested-claim",
        ),
        pytest.param(
            {"surfaces": {"body": "x"}, "claims": {"body": {"k": float("inf")}}},
            [("claims.body.k", "a non-finite number is not a finite JSON scalar")],
            id="non-finite-top-level-claim",
        ),
        pytest.param(
            {"surfaces": {"body": "a\ud800"}},
            [("surfaces.body", "text holds a lone surrogate (invalid Unicode)")],
            id="lone-surrogate-text",
        ),
        pytest.param(
            {"surfaces": {"body": {"text": "x", "claims": {"k": "\udfff"}}}},
            [("surfaces.body.claims.k", "string holds a lone surrogate (invalid Unicode)")],
            id="lone-surrogate-claim",
        ),
        pytest.param(
            {"surfaces": {"Body": "x", "b": {"text": 1}}, "claims": {"c": {}}},
            [
                ("surfaces.Body", "surface name 'Body' does not match [a-z0-9][a-z0-9_.-]*"),
                ("surfaces.b.text", "'text' must be a string, got an integer"),
                ("claims.c", "claims given for surface 'c', which does not exist"),
            ],
            id="all-problems-at-once",
        ),
    ],
)
def test_invalid_documents(obj: dict[str, Any], expected: list[tuple[str, str]]) -> None:
    with pytest.raises(InputError) as caught:
        Document.from_json(obj, "doc.json")
    assert _problems(caught.value) == expected
    assert {p.location.file for p in caught.value.problems} == {"doc.json"}


@pytest.mark.parametrize("top", [[], "text", 1, None], ids=["list", "string", "int", "null"])
def test_document_must_be_an_object(top: object) -> None:
    with pytest.raises(InputError, match="a document must be a JSON object, got "):
        Document.from_json(top)


def test_from_text_rejects_invalid_claims() -> None:
    with pytest.raises(InputError) as caught:
        Document.from_text("x", claims={"k": [1]})  # type: ignore[dict-item]
    assert [key for key, _ in _problems(caught.value)] == ["surfaces.body.claims.k"]


# --- property: nothing but InputError escapes -------------------------------------------------

_keys = st.sampled_from(
    [
        "surfaces",
        "claims",
        "states",
        "anchors",
        "span",
        "body",
        "subject",
        "text",
        "state",
        "Bad",
        "",
        "k",
        "\ud800",
    ]
)
_scalars = st.none() | st.booleans() | st.integers() | st.floats() | _keys | st.text(max_size=3)
_values = st.recursive(
    _scalars,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(_keys, children, max_size=4),
    max_leaves=16,
)


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(_keys, _values, max_size=4) | _values)
def test_from_json_raises_only_input_error(value: Any) -> None:
    try:
        document = Document.from_json(value)
    except InputError:
        return
    assert document.surfaces
    assert Document.from_json(document.to_json()).digest == document.digest


def test_a_surface_format_is_in_the_canonical_form_only_when_not_plain() -> None:
    plain = Document.from_json({"surfaces": {"body": {"text": "x", "format": "plain"}}})
    assert plain.to_json() == Document.from_json({"surfaces": {"body": "x"}}).to_json()
    html = Document.from_json({"surfaces": {"body": {"text": "x", "format": "html"}}})
    assert html.to_json()["surfaces"]["body"]["format"] == "html"
    assert html.digest != plain.digest
    assert Document.from_text("x", format="markdown").surfaces[0].format == "markdown"


def test_an_unknown_surface_format_is_an_input_error_naming_the_key() -> None:
    with pytest.raises(InputError) as caught:
        Document.from_json({"surfaces": {"body": {"text": "x", "format": "md"}}}, "d.json")
    (problem,) = caught.value.problems
    assert problem.location.path == ("surfaces", "body", "format")
    assert problem.message == "format must be plain, markdown or html, got 'md'"
