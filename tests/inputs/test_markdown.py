"""Front matter is found by two searches, exactly where cutting the text into lines finds it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from textcontract.errors import InputError
from textcontract.inputs import parse_markdown, split_front_matter
from textcontract.model import is_valid_unicode


def _by_lines(text: str) -> tuple[str | None, str] | None:
    """0.1's reading (None: unclosed): lines as ``str.splitlines`` cuts them, fences ``---``."""
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].rstrip("\r\n") != "---":
        return None, text
    for index in range(1, len(lines)):
        if lines[index].rstrip("\r\n") == "---":
            return "".join(lines[1:index]), "".join(lines[index + 1 :])
    return None


def _by_searches(text: str) -> tuple[str | None, str] | None:
    try:
        return split_front_matter(text, "doc.md")
    except InputError:
        return None


# Pieces that make fences, near-fences and every line break splitlines knows.
_PIECES = st.sampled_from(
    [
        "---", "----", "-- -", "--", "-", " ---", "--- ", "a", "k: v", "",
        "\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029",
    ]
)  # fmt: skip


@given(st.lists(_PIECES, max_size=14).map("".join))
def test_front_matter_is_split_as_lines_would_split_it(text: str) -> None:
    assert _by_searches(text) == _by_lines(text)


@given(st.text(alphabet="-\n\r\x85\u2028ab ", max_size=30))
def test_any_text_of_dashes_and_breaks_splits_the_same(text: str) -> None:
    assert _by_searches(text) == _by_lines(text)


def test_the_usual_forms() -> None:
    assert split_front_matter("---\nk: v\n---\nbody\n", None) == ("k: v\n", "body\n")
    assert split_front_matter("---\r\nk: v\r\n---\r\nbody", None) == ("k: v\r\n", "body")
    assert split_front_matter("---\n---", None) == ("", "")
    assert split_front_matter("no front matter\n---\n", None) == (None, "no front matter\n---\n")
    assert split_front_matter("---\nk: v\n---\u2028x\n---\n", None) == ("k: v\n---\u2028x\n", "")


# Texts a file without front matter may hold (a line of dashes later on, a BOM-less start,
# line breaks of each kind), and ones a string may hold that no UTF-8 file can (a surrogate).
_BODIES = st.lists(
    st.sampled_from(["a", "é", "ド", "\n", "\r\n", "\r", "---", " ", "\u2028", "\ud800"]),
    max_size=12,
).map("".join) | st.text(max_size=30)


@given(_BODIES)
def test_a_decoded_body_without_front_matter_is_the_document_from_json_builds(text: str) -> None:
    """The short way for text decoded from UTF-8 (no lone surrogate) gives the document, and
    the origin, the checked way gives."""
    try:
        expected = parse_markdown(text, "f.md")
    except InputError:
        assert text.startswith("---") or not is_valid_unicode(text)
        return
    if text.startswith("---\n") or text.startswith("---\r") or text == "---":
        return  # front matter: one way for both
    assert is_valid_unicode(text)
    found = parse_markdown(text, "f.md", decoded=True)
    assert found == expected
    assert [s.origin for s in found.surfaces] == [s.origin for s in expected.surfaces]
