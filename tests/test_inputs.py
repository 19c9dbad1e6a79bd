"""Reading documents and contexts from files (SPEC §2.1, §2.2): markdown, front matter, JSON."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from textcontract._json import decode_utf8, loads_strict
from textcontract.errors import InputError
from textcontract.inputs import load_context_file, load_document_file, parse_markdown
from textcontract.model import Context, Document, Surface

_FRONT = """\
---
surfaces:
  subject: Your order shipped
  footer:
    text: Thanks!
    state: after
claims:
  body:
    order.total: 19.99
states:
  body: after
---
Your order of $19.99 has shipped.
"""

_SAME_AS_JSON = {
    "surfaces": {
        "footer": {"text": "Thanks!", "state": "after"},
        "body": {"text": "Your order of $19.99 has shipped.\n", "format": "markdown"},
        "subject": "Your order shipped",
    },
    "claims": {"body": {"order.total": 19.99}},
    "states": {"body": "after"},
}


def _where(error: InputError) -> list[tuple[int | None, int | None, str | None, str]]:
    return [(p.location.line, p.location.column, p.location.key, p.message) for p in error.problems]


def test_plain_text_is_the_body() -> None:
    document = parse_markdown("Hello\n\n---\nworld\n")
    assert document.surfaces == (Surface("body", "Hello\n\n---\nworld\n", format="markdown"),)
    plain = parse_markdown("Hello\n", body_format="plain")
    assert plain.surfaces == (Surface("body", "Hello\n"),)


def test_front_matter_surfaces_claims_and_states() -> None:
    document = parse_markdown(_FRONT, "mail.md")
    assert document.surfaces == (
        Surface(
            "body",
            "Your order of $19.99 has shipped.\n",
            "after",
            {"order.total": 19.99},
            format="markdown",
        ),
        Surface("subject", "Your order shipped"),
        Surface("footer", "Thanks!", "after"),
    )


def test_markdown_and_json_forms_share_one_digest() -> None:
    markdown = parse_markdown(_FRONT, "mail.md")
    from_json = Document.from_json(_SAME_AS_JSON)
    assert markdown.names == ("body", "subject", "footer")
    assert from_json.names == ("footer", "body", "subject")
    assert markdown.digest == from_json.digest


@pytest.mark.parametrize(
    ("text", "body"),
    [
        pytest.param("---\n---\nHi", "Hi", id="empty-front-matter"),
        pytest.param("---\n# comment\n---\n", "", id="comment-only-empty-body"),
        pytest.param("---\r\nsurfaces: {}\r\n---\r\nHi\r\n", "Hi\r\n", id="crlf"),
        pytest.param("---\rsurfaces: {}\r---\rHi", "Hi", id="cr"),
        pytest.param("--- \nx\n---\n", "--- \nx\n---\n", id="fence-with-space-is-text"),
        pytest.param("\n---\nx: 1\n---\n", "\n---\nx: 1\n---\n", id="fence-not-first-line"),
        pytest.param("---\n---\n---\n", "---\n", id="later-fence-is-body"),
    ],
)
def test_front_matter_fences(text: str, body: str) -> None:
    document = parse_markdown(text)
    assert document.names == ("body",)
    assert document.surfaces[0].text == body


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "---\nsurfaces: {}\nHi\n",
            [(1, 1, None, "front matter opened with '---' on line 1 is never closed")],
            id="unclosed",
        ),
        pytest.param(
            "---",
            [(1, 1, None, "front matter opened with '---' on line 1 is never closed")],
            id="fence-only",
        ),
        pytest.param(
            "---\nsurfaces:\n  body: x\n---\nhi\n",
            [
                (
                    3,
                    3,
                    "surfaces.body",
                    "front matter may not define surface 'body': "
                    "the text after the front matter is the body",
                )
            ],
            id="front-matter-defines-body",
        ),
        pytest.param(
            "---\nlang: en\n---\nhi\n",
            [
                (
                    2,
                    1,
                    "lang",
                    "unknown front matter key (expected surfaces, claims, states, anchors)",
                )
            ],
            id="unknown-key",
        ),
        pytest.param(
            "---\n- a\n---\nhi\n",
            [(2, 1, None, "front matter must be a mapping, got a list")],
            id="not-a-mapping",
        ),
        pytest.param(
            "---\nsurfaces: [a]\n---\nhi\n",
            [(2, 11, "surfaces", "'surfaces' must map surface names to surfaces, got a list")],
            id="surfaces-not-mapping",
        ),
        pytest.param(
            "---\nclaims:\n  subject:\n    k: 1\n---\nhi\n",
            [(4, 5, "claims.subject", "claims given for surface 'subject', which does not exist")],
            id="claims-for-missing-surface",
        ),
        pytest.param(
            "---\nstates:\n  subject: after\n---\nhi\n",
            [(3, 12, "states.subject", "states given for surface 'subject', which does not exist")],
            id="state-for-missing-surface",
        ),
        pytest.param(
            "---\nsurfaces:\n  s:\n    text: S\n    state: a\nstates:\n  s: a\n---\nhi\n",
            [(7, 6, "states.s", "the state of surface 's' is declared twice")],
            id="state-declared-twice",
        ),
        pytest.param(
            "---\nsurfaces:\n  s:\n    text: S\n    claims:\n      k: [1]\n---\nhi\n",
            [
                (
                    6,
                    10,
                    "surfaces.s.claims.k",
                    "nested values are not facts; project them into flat keys "
                    "such as 'order.total'",
                )
            ],
            id="nested-claim",
        ),
        pytest.param(
            "---\nclaims:\n  body: {k: 1}\nclaims: {}\n---\nhi\n",
            [(4, 1, None, "duplicate key 'claims'")],
            id="duplicate-key-line-in-file",
        ),
        pytest.param(
            "---\nsurfaces: {a: 1\n---\nhi\n",
            [
                (
                    3,
                    1,
                    None,
                    "~expected ',' or '}'",
                )
            ],
            id="yaml-syntax-line-in-file",
        ),
        pytest.param(
            "---\nclaims: {body: {k: yes}}\nsurfaces: {Sub: x}\n---\nhi\n",
            [(3, 17, "surfaces.Sub", "surface name 'Sub' does not match [a-z0-9][a-z0-9_.-]*")],
            id="bad-surface-name",
        ),
    ],
)
def test_markdown_errors_point_into_the_file(
    text: str, expected: list[tuple[int | None, int | None, str | None, str]]
) -> None:
    with pytest.raises(InputError) as caught:
        parse_markdown(text, "mail.md")
    found = _where(caught.value)
    assert len(found) == len(expected)
    for (line, column, key, message), want in zip(found, expected, strict=True):
        assert (line, column, key) == want[:3]
        # "~text": the parser's wording differs between libyaml and PyYAML; compare a part
        if want[3].startswith("~"):
            assert want[3][1:] in message
        else:
            assert message == want[3]
    assert {p.location.file for p in caught.value.problems} == {"mail.md"}


def test_yes_in_front_matter_is_a_string_claim() -> None:
    document = parse_markdown("---\nclaims: {body: {k: yes, n: 1e3}}\n---\nhi")
    assert document.surfaces[0].claims == {"k": "yes", "n": 1000.0}
    assert type(document.surfaces[0].claims["n"]) is float


# --- files --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "as_json", "body_format"),
    [
        pytest.param("out.json", True, "plain", id="json"),
        pytest.param("out.md", False, "markdown", id="markdown"),
        pytest.param("out.markdown", False, "markdown", id="markdown-long"),
        pytest.param("out.txt", False, "plain", id="text"),
        pytest.param("out.html", False, "html", id="html"),
        pytest.param("out.htm", False, "html", id="htm"),
        pytest.param("out", False, "plain", id="no-extension"),
        pytest.param("out.json.md", False, "markdown", id="json-then-md"),
        pytest.param("out.jsonl", False, "plain", id="jsonl-is-text"),
    ],
)
def test_file_format_follows_the_name(
    tmp_path: Path, name: str, as_json: bool, body_format: str
) -> None:
    path = tmp_path / name
    path.write_text('{"surfaces": {"body": "Hi"}}', encoding="utf-8")
    document = load_document_file(path, name)
    expected = "Hi" if as_json else '{"surfaces": {"body": "Hi"}}'
    assert document.surfaces == (Surface("body", expected, format=body_format),)


def test_bom_is_dropped_from_every_file(tmp_path: Path) -> None:
    markdown = tmp_path / "a.md"
    markdown.write_bytes(b"\xef\xbb\xbf---\nsurfaces: {s: x}\n---\nHi")
    as_json = tmp_path / "a.json"
    as_json.write_bytes(
        b'\xef\xbb\xbf{"surfaces": {"body": {"text": "Hi", "format": "markdown"}, "s": "x"}}'
    )
    context = tmp_path / "ctx.json"
    context.write_bytes(b'\xef\xbb\xbf{"a": 1}')
    assert load_document_file(markdown).digest == load_document_file(as_json).digest
    assert load_document_file(markdown).surfaces[0].text == "Hi"
    assert load_context_file(context) == Context.from_json({"a": 1})


def test_markdown_file_equals_json_file(tmp_path: Path) -> None:
    (tmp_path / "mail.md").write_text(_FRONT, encoding="utf-8")
    (tmp_path / "mail.json").write_text(
        '{"surfaces": {"subject": "Your order shipped", '
        '"body": {"text": "Your order of $19.99 has shipped.\\n", "state": "after", '
        '"format": "markdown", "claims": {"order.total": 19.99}}, '
        '"footer": {"text": "Thanks!", "state": "after"}}}',
        encoding="utf-8",
    )
    markdown = load_document_file(tmp_path / "mail.md")
    from_json = load_document_file(tmp_path / "mail.json")
    assert markdown.digest == from_json.digest


@pytest.mark.parametrize(
    ("name", "data", "offset"),
    [
        pytest.param("doc.md", b"Hello \xff world", 6, id="markdown"),
        pytest.param("doc.json", b'{"surfaces": {"body": "\xc3"}}', 23, id="json"),
        pytest.param("doc.md", b"\xef\xbb\xbfok\x80", 5, id="offset-counts-bom"),
    ],
)
def test_invalid_utf8_names_byte_offset(
    tmp_path: Path, name: str, data: bytes, offset: int
) -> None:
    (tmp_path / name).write_bytes(data)
    with pytest.raises(InputError) as caught:
        load_document_file(tmp_path / name, name)
    [problem] = caught.value.problems
    assert (problem.location.file, problem.location.byte_offset) == (name, offset)
    assert problem.message.startswith("invalid UTF-8")


def test_json_document_errors_name_the_file(tmp_path: Path) -> None:
    (tmp_path / "doc.json").write_text('{"surfaces": {}}', encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_document_file(tmp_path / "doc.json", "doc.json")
    assert str(caught.value) == "doc.json: surfaces: a document needs at least one surface"


def test_context_file_errors(tmp_path: Path) -> None:
    (tmp_path / "ctx.json").write_text('{"a": NaN, "b": {"c": 1}}', encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_context_file(tmp_path / "ctx.json", "ctx.json")
    assert [(p.location.file, p.location.key) for p in caught.value.problems] == [("ctx.json", "a")]
    with pytest.raises(InputError, match="cannot read file"):
        load_context_file(tmp_path / "missing.json", "missing.json")


# --- property: nothing but InputError escapes -------------------------------------------------

_MD_FRAGMENTS = st.sampled_from(
    [
        "---\n",
        "---",
        "\n",
        "\r\n",
        "surfaces:",
        "claims:",
        "states:",
        " body",
        " subject",
        ":",
        ": ",
        "  ",
        "- ",
        "{",
        "}",
        "[",
        "]",
        "text: ",
        "state: ",
        "claims: ",
        "x",
        "Bad",
        "1",
        "1.0",
        ".nan",
        "yes",
        "&a ",
        "*a",
        "!!int ",
        "!x ",
        "'",
        "\x00",
        "\u2028",
        "\ufeff",
    ]
)
markdown_like = st.lists(_MD_FRAGMENTS, max_size=40).map("".join) | st.text(max_size=60)


@settings(max_examples=400, deadline=None)
@given(markdown_like)
def test_parse_markdown_raises_only_input_error(text: str) -> None:
    try:
        document = parse_markdown(text, "f.md")
    except InputError:
        return
    assert document.names[0] == "body"
    assert document.digest.startswith("sha256:")


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=60) | markdown_like.map(lambda t: t.encode("utf-8")))
def test_document_files_raise_only_input_error(data: bytes) -> None:
    with contextlib.suppress(InputError):
        parse_markdown(decode_utf8(data, "f.md"), "f.md")
    with contextlib.suppress(InputError):
        Document.from_json(loads_strict(decode_utf8(data, "f.json"), "f.json"), "f.json")
