"""Generated Markdown and HTML built to break views: every construct the parsers know,
nested and cut at random, with characters normalization changes and CR LF line breaks."""

from __future__ import annotations

from hypothesis import strategies as st

WORDS = ["word", "Straße", "ﬁne", "cafe\u0301", "ＦＲＥＥ", "x", "un", "believ", "日本", "é"]
INLINE = [
    "*",
    "**",
    "_",
    "__",
    "~",
    "~~",
    "`",
    "``",
    "[",
    "]",
    "(",
    ")",
    "](",
    "<",
    ">",
    "!",
    "&amp;",
    "&copy;",
    "&#35;",
    "&#x1F600;",
    "&bogus;",
    "\\",
    "\\*",
    "\\|",
    "|",
    " ",
    "  ",
    "\t",
    "https://a.example/p",
    "http://b.example",
    "www.c.example",
    "x@d.example",
    "<https://e.example>",
    "<f@g.example>",
    "<!-- note -->",
    "<b>",
    "</b>",
    '<a href="//h.example/x">',
    "</a>",
    '[t](https://i.example/q "T")',
    "![alt](j.png)",
    "[r][ref]",
    "[ref]",
    "`co de`",
    "``a`b``",
    "&amp",
    "%41",
    "xn--bcher-kva.example",
]
LINE_STARTS = [
    "",
    "",
    "",
    "# ",
    "## ",
    "> ",
    "> > ",
    "- ",
    "1. ",
    "    ",
    "\t",
    "   ",
    "  - ",
    "* ",
    "| ",
    "Setext\n===\n",
    "```\n",
    "~~~py\n",
    "---\n",
    '[ref]: https://k.example/r "t"\n',
    "<div>\n",
    "</div>\n",
    "<!--\n",
    "-->\n",
    "<pre>\n",
    "<script>\n",
]
# Raw HTML blocks a renderer passes through unbalanced read differently by a reader of the
# whole page (an unclosed comment swallows the next block) than by one of each block.
BALANCED_STARTS = [start for start in LINE_STARTS if not start.startswith(("<", "-->"))]
BREAKS = ["\n", "\n", "\n\n", "\r\n", "\r", "\n|---|---|\n"]


def _line(parts: list[str]) -> str:
    return "".join(parts)


inline_text = st.lists(st.sampled_from(WORDS + INLINE), max_size=12).map("".join)
markdown_lines = st.tuples(st.sampled_from(LINE_STARTS), inline_text, st.sampled_from(BREAKS))
markdown_texts = st.lists(markdown_lines, max_size=8).map(
    lambda lines: "".join(start + body + end for start, body, end in lines)
)

TAGS = [
    "<p>",
    "</p>",
    "<h2>",
    "</h2>",
    "<li>",
    "</li>",
    "<ul>",
    "</ul>",
    "<blockquote>",
    "</blockquote>",
    "<td>",
    "</td>",
    "<th>",
    "<tr>",
    "<table>",
    "</table>",
    "<a href='//l.example/'>",
    '<a href="https://m.example/&amp;x">',
    "<a href=n.html>",
    "</a>",
    '<img src="o.png" alt="alt">',
    "<br>",
    "<br/>",
    "<pre>",
    "</pre>",
    "<code>",
    "</code>",
    "<script>",
    "</script>",
    "<style>",
    "</style>",
    "<template>",
    "</template>",
    "<head>",
    "</head>",
    "<!-- c -->",
    "<!doctype html>",
    "<?pi?>",
    "<b>",
    "</b>",
    "<",
    ">",
    "&amp;",
    "&lt;",
    "&#38;",
    "&nbsp;",
    "&eacute",
    "<div",
    "<a href='unclosed",
    "\n",
    "\r\n",
]
html_texts = st.lists(st.sampled_from(WORDS + TAGS + [" ", "  "]), max_size=24).map("".join)
balanced_lines = st.tuples(st.sampled_from(BALANCED_STARTS), inline_text, st.sampled_from(BREAKS))
balanced_markdown = st.lists(balanced_lines, max_size=8).map(
    lambda lines: "".join(start + body + end for start, body, end in lines)
)
