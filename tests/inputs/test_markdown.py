"""Front matter is found by two searches, exactly where cutting the text into lines finds it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from textcontract.errors import InputError
from textcontract.inputs import split_front_matter


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
