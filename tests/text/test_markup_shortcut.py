"""A text no inline rule acts on is placed without markdown-it's inline phase
(``plain_inline``): the layout is the one the inline phase gives, on texts built around
what the shortcut must get right — spaces and tabs around line breaks (soft and hard
breaks), the characters next to the rules' triggers and the near misses the shortcut takes
(``ww.``, ``http`` without its colon, ``_`` inside a word, ``&`` that starts no entity),
container markers, table cells, headings, CR LF line breaks."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.text._markup_strategies import markdown_texts
from tests.text.test_markup_pieces import canonical
from textcontract.text.markup._markdown import markdown_layout
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
