"""Lines and columns as SPEC §10 counts them: breaks are \\n, \\r\\n and \\r, nothing else."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from textcontract._lines import LineCounter, line_column


@pytest.mark.parametrize(
    ("text", "offset", "expected"),
    [
        pytest.param("", 0, (1, 1), id="empty"),
        pytest.param("abc", 3, (1, 4), id="end-of-line-is-exclusive"),
        pytest.param("ab\ncd", 3, (2, 1), id="lf"),
        pytest.param("ab\r\ncd", 4, (2, 1), id="crlf"),
        pytest.param("ab\r\ncd", 3, (1, 4), id="between-cr-and-lf"),
        pytest.param("ab\rcd", 3, (2, 1), id="cr"),
        pytest.param("a\r\r\nb", 2, (2, 1), id="cr-then-crlf"),
        pytest.param("a\r\r\nb", 4, (3, 1), id="after-cr-then-crlf"),
        pytest.param("a\n\rb", 3, (3, 1), id="lf-then-cr-is-two-breaks"),
        pytest.param("a\u2028b", 2, (1, 3), id="line-separator-is-not-a-break"),
        pytest.param("a\x85b", 2, (1, 3), id="nel-is-not-a-break"),
        pytest.param("a\x0cb\x0bc", 4, (1, 5), id="form-feed-and-vertical-tab-are-not"),
        pytest.param("a\u2029b", 2, (1, 3), id="paragraph-separator-is-not"),
        pytest.param("ガ\U0001f600x", 2, (1, 3), id="columns-count-code-points"),
        pytest.param("x\n\n", 3, (3, 1), id="after-the-last-break"),
    ],
)
def test_line_and_column(text: str, offset: int, expected: tuple[int, int]) -> None:
    assert line_column(text, offset) == expected


def test_an_offset_outside_the_text_is_refused() -> None:
    with pytest.raises(ValueError, match="leave the text"):
        line_column("abc", 4)
    with pytest.raises(ValueError, match="leave the text"):
        LineCounter("abc").positions([-1, 2])


_BREAK = re.compile(r"\r\n|\r|\n")


def _plain(text: str, offset: int) -> tuple[int, int]:
    """Line and column by splitting the text before the offset (no incremental counting)."""
    line, start = 1, 0
    for found in _BREAK.finditer(text):
        if found.end() > offset:
            break
        line, start = line + 1, found.end()
    return line, offset - start + 1


_TEXT = st.lists(st.sampled_from(["a", "é", "\n", "\r", "\r\n", "\u2028", "\x85", " "])).map(
    "".join
)


@settings(max_examples=300, deadline=None)
@given(text=_TEXT, data=st.data())
def test_counting_from_offset_to_offset_in_any_order_is_exact(
    text: str, data: st.DataObject
) -> None:
    counter = LineCounter(text)
    offsets = data.draw(st.lists(st.integers(0, len(text)), max_size=8))
    for offset in offsets:  # one by one, in the drawn order: forwards and backwards
        assert counter.position(offset) == _plain(text, offset)
    assert counter.positions(offsets) == {offset: _plain(text, offset) for offset in offsets}
