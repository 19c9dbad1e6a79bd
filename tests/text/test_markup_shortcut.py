"""A text no inline rule acts on is placed without markdown-it's inline phase
(``plain_inline``): the layout is the one the inline phase gives, on texts built around
what the shortcut must get right — spaces and tabs around line breaks (soft and hard
breaks), the characters next to the rules' triggers and the near misses the shortcut takes
(``ww.``, ``http`` without its colon, ``_`` inside a word, ``&`` that starts no entity),
container markers, table cells, headings, CR LF line breaks. And a block's text that is
its source as written is placed as one piece: the placement its lines lined up one by one
give."""

from __future__ import annotations

from bisect import bisect_right

from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.text._markup_strategies import markdown_texts
from tests.text.test_markup_pieces import canonical
from textcontract.text.markup._markdown import (
    _as_written,
    _lines_lined_up,
    _Source,
    markdown_layout,
)
from textcontract.text.markup._pieces import LIMITS

_PLAIN = [
    *("word", "Straße", "ﬁne", "日本", "x2", " ", "  ", "\t", " \t", "\t "),
    *(":", "a:", "-", "#", "=", "+", "}", "$", "%", "]", "|", "\\|", ".", "!", "?"),
    *("ww.", "w", "www", "http", "https", "mailto", "xmpp", "Https:", "WWW.x"),
    *("a_b", "a__b", "é_ß", "1_2", "&", "R&D", "&x", "&1;"),
]
_ACTIVE = [
    *("*", "_", "__", "_a", "a_", "`", "~", "[", "![", "<", "@", "x@y", "&amp;", "&#"),
    *("&#x41;", "\\", "\\ ", "\\a", "\\*", "\\\n", "www.a.example", "http:", "https://a.example"),
]
_STARTS = ["", "", "", "# ", "> ", "- ", "1. ", "    ", "  ", "\t", "| ", "Setext\n===\n", "> - "]
_ENDS = ["\n", "\n", "  \n", " \n", "\t\n", "\r\n", "  \r\n", "\n\n", "|\n|-|\n", ""]

lines = st.tuples(
    st.sampled_from(_STARTS),
    st.lists(st.sampled_from(_PLAIN + _PLAIN + _ACTIVE), max_size=8).map("".join),
    st.sampled_from(_ENDS),
).map("".join)
texts = st.lists(lines, max_size=8).map("".join)


@settings(max_examples=300)
@given(text=st.one_of(texts, markdown_texts))
@example(text="a  \nb\n \tc \t\nd\t \ne")
@example(text="|a|b|\n|-|-|\n| x  | y\t|\n")
def test_the_shortcut_gives_the_inline_phases_layout(text: str) -> None:
    direct = markdown_layout(text, LIMITS, shortcut=True)
    assert canonical(direct) == canonical(markdown_layout(text, LIMITS, shortcut=False))


@settings(max_examples=300)
@given(
    src=st.lists(st.sampled_from(["a", "b", " ", "\t", "\n", "> ", "- ", "#"]), max_size=30).map(
        "".join
    ),
    cut=st.tuples(st.integers(0, 30), st.integers(0, 30)),
    at_line_end=st.booleans(),
    other=st.sampled_from(["", "a", "b\n", " a", "\n"]),
)
def test_a_text_as_written_is_placed_as_its_lines_are(
    src: str, cut: tuple[int, int], at_line_end: bool, other: str
) -> None:
    source = _Source(src)
    start, end = sorted(min(position, len(src)) for position in cut)
    first_line = bisect_right(source.starts, start) - 1
    for content in (src[start:end], src[start:end] + other, other + src[start:end]):
        last_end = None if at_line_end else end
        fast = _as_written(content, source, first_line, last_end)
        if content == src[start:end] and content and not at_line_end:
            assert fast is not None  # the shortcut is taken where it can be
        if fast is not None:
            slow = _lines_lined_up(content, source, first_line, last_end)
            assert slow is not None
            assert fast.pieces == slow.pieces
