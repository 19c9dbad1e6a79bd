"""Where each surface's text begins in its file (SPEC §10), and that this changes no digest."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from textcontract.inputs import load_document_file, parse_markdown
from textcontract.model import BODY, Document, Surface, TextOrigin

ROOT = Path(__file__).resolve().parent.parent

# The digest of every shipped document fixture as it was before surfaces had origins.
DIGESTS = {
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
    "fixtures/render/order-1001-edited.json": (
        "sha256:1b45cc9c8c6376a592d504ea2da39afcee006f88942e7e04aeb0e421b9b4aab7"
    ),
    "fixtures/render/order-1001.json": (
        "sha256:09d14972ea3134b2cf9690421a6e669abe5c9c01a7a1dc9455213b8593aa09bd"
    ),
    "fixtures/story/turn-12.json": (
        "sha256:cf9dc7ae86f7ff007c60a44df4244acc2a741038b0faac0effeb357a80463268"
    ),
    "fixtures/story/turn-13-regressed.json": (
        "sha256:1ede9880c0e2960d0f6b3399b0e9d6ecafe95d6480b26d12448efff831d06402"
    ),
}


@pytest.mark.parametrize("path", sorted(DIGESTS))
def test_origins_change_no_digest_of_the_shipped_fixtures(path: str) -> None:
    document = load_document_file(ROOT / path, path)
    # SPEC §18: a .md file's body is markdown now; read as plain it has its 0.2 digest
    plain = Document(tuple(replace(s, format="plain") for s in document.surfaces))
    assert plain.digest == DIGESTS[path]
    assert any(surface.origin != TextOrigin() for surface in document.surfaces)
    bare = Document(tuple(replace(s, origin=TextOrigin()) for s in document.surfaces))
    assert bare.to_json() == document.to_json()
    assert bare == document


def test_surface_equality_ignores_the_origin() -> None:
    assert Surface("body", "hi", origin=TextOrigin(7, file_lines=True)) == Surface("body", "hi")


def test_an_origin_line_is_one_based() -> None:
    with pytest.raises(ValueError, match="1-based"):
        TextOrigin(0)


def _origins(document: Document) -> dict[str, tuple[int, bool]]:
    return {s.name: (s.origin.line, s.origin.file_lines) for s in document.surfaces}


def test_a_markdown_body_starts_after_the_front_matter_in_file_lines() -> None:
    document = load_document_file(ROOT / "fixtures/orders/order-1001.md", "order-1001.md")
    assert _origins(document) == {BODY: (12, True), "subject": (4, False)}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("Hello", {BODY: (1, True)}, id="no-front-matter"),
        pytest.param("---\n---\nHello", {BODY: (3, True)}, id="empty-front-matter"),
        pytest.param("---\r\n---\r\n\r\nHi", {BODY: (3, True)}, id="crlf"),
        pytest.param("---\r---\rHi", {BODY: (3, True)}, id="cr"),
        pytest.param(
            "---\nsurfaces:\n  subject: Hello there\n---\nHi",
            {BODY: (5, True), "subject": (3, False)},
            id="plain-scalar",
        ),
        pytest.param(
            "---\nsurfaces:\n  note:\n    claims: {}\n    text: 'quoted'\n---\nHi",
            {BODY: (7, True), "note": (5, False)},
            id="object-text-after-claims",
        ),
        pytest.param(
            "---\nsurfaces:\n  note:\n    text: |\n      line one\n      line two\n---\nHi",
            {BODY: (8, True), "note": (5, False)},
            id="block-scalar-text-starts-below-its-indicator",
        ),
        pytest.param(
            "---\nsurfaces: {a: x, b: {text: y}}\n---\nHi",
            {BODY: (4, True), "a": (2, False), "b": (2, False)},
            id="flow-mappings",
        ),
        # YAML's reader takes U+2028 and NEL for line breaks; SPEC §10 does not.
        pytest.param(
            '---\nsurfaces:\n  a: "x\u2028y"\n  b: z\x85\n---\nHi',
            {BODY: (6, True), "a": (3, False), "b": (4, False)},
            id="yaml-line-breaks-that-are-not-file-lines",
        ),
    ],
)
def test_markdown_origins(text: str, expected: dict[str, tuple[int, bool]]) -> None:
    assert _origins(parse_markdown(text, "mail.md")) == expected


def test_a_front_matter_fence_is_a_line_of_its_own() -> None:
    # A U+2028 does not end a line, so "---" after it is no closing fence.
    with pytest.raises(Exception, match="never closed"):
        parse_markdown('---\nsurfaces: {a: "x"}\u2028---\nHi', "mail.md")


def test_json_surfaces_start_where_their_text_value_does(tmp_path: Path) -> None:
    path = tmp_path / "doc.json"
    path.write_text(
        '{"states": {"body": "current"},\n'
        ' "surfaces": {\n'
        '  "body": {"claims": {},\r\n   "text": "Hello\\nworld"},\n'
        '  "s\\u0075bject": "Hi",\n'
        '  "note": {"text":\n "later"}}}',
        encoding="utf-8",
    )
    document = load_document_file(path, "doc.json")
    assert _origins(document) == {BODY: (4, False), "subject": (5, False), "note": (7, False)}


def test_json_origins_of_the_shipped_fixture() -> None:
    document = load_document_file(ROOT / "fixtures/orders/order-1003.json", "order-1003.json")
    assert _origins(document) == {"subject": (3, False), BODY: (5, False)}
