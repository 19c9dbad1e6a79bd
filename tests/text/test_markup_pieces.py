"""A long Markdown text is parsed a piece at a time (``_pieces``); below its bounds that is
exact: the layout of a text read in pieces is the layout of the text read whole.

The pieces here are a few characters long, so nearly every line boundary of the generated
texts is tried as a place to cut, and every stretch that cannot be cut is doubled until one
can. Past the bounds (a stretch too long to read whole, an inline text too long for the
inline phase) the rest is read as prose, never dropped: tested on hostile sizes.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.text._markup_strategies import markdown_texts
from tests.text.test_markup_views import VIEWS, _check_layout, _check_view, spans
from textcontract.text.markup import Layout
from textcontract.text.markup._markdown import markdown_layout
from textcontract.text.markup._pieces import Limits

WHOLE = Limits(piece=1 << 40, chars=1 << 40, tokens=1 << 40, inline=1 << 40)

# Texts built around the places where cutting could go wrong: a reference definition whose
# title runs on over lines (or is left open), one used before it is defined, lazy lines of
# quotes and list items, fences and HTML blocks left open, setext underlines, tables.
_EDGES = [
    "[a]: /u\n",
    "[b]:\n/v\n",
    '[c]: /w\n"title\nrunning on"\n',
    '[d]: /x "open\n',
    "'still\n",
    "text [a] [b] [c] [d] [e]\n",
    "[e]: https://e.example\n",
    "> quote\n",
    "lazy line\n",
    "- item\n",
    "  more\n",
    "1. first\n",
    "```\n",
    "~~~\n",
    "<div>\n",
    "<!--\n",
    "-->\n",
    "===\n",
    "---\n",
    "| a | b |\n",
    "|---|---|\n",
    "    code\n",
    "# Heading\n",
    "\n",
    "\n",
]
edge_texts = st.lists(st.sampled_from(_EDGES), max_size=14).map("".join)


def canonical(layout: Layout) -> Any:
    """A layout's runs, links and count of approximate blocks, its blocks numbered in the
    order they first appear (only which runs share a block shapes a view)."""
    numbers: dict[int, int] = {}
    runs = [
        (
            run.start,
            run.end,
            run.kind,
            run.containers,
            numbers.setdefault(run.block, len(numbers)),
            run.text,
        )
        for run in layout.runs
    ]
    return runs, layout.links, layout.approximate


@settings(max_examples=300)
@given(text=st.one_of(markdown_texts, edge_texts), piece=st.sampled_from([1, 5, 16, 40]))
@example(text='[c]: /w\n"title\nrunning on"\n\ntext [c]\n', piece=1)
@example(text="text [e]\n- item\n[e]: https://e.example\n", piece=1)
def test_a_text_read_in_pieces_is_the_text_read_whole(text: str, piece: int) -> None:
    pieces = Limits(piece=piece, chars=1 << 40, tokens=1 << 40, inline=1 << 40)
    assert canonical(markdown_layout(text, pieces)) == canonical(markdown_layout(text, WHOLE))


TINY = Limits(piece=8, chars=48, tokens=24, inline=20)


@settings(max_examples=150)
@given(
    text=st.one_of(markdown_texts, edge_texts),
    kinds=st.sampled_from(VIEWS),
    found=spans,
)
def test_past_the_bounds_views_still_map_back_exactly(
    text: str, kinds: list[str], found: list[tuple[int, int]]
) -> None:
    layout = markdown_layout(text, TINY)
    _check_layout(layout)
    _check_view(layout, kinds, found)


_TABLE = "|a|b|\n|-|-|\n" + "|x|y|\n" * 12


@pytest.mark.parametrize(
    ("text", "prose"),
    [
        pytest.param(  # 48 characters: the header and six rows, then six rows as written
            "intro\n\n|a|b|\n|-|-|\n" + "|x|y|\n" * 12 + "\nafter *this*\n",
            "intro\n\na\n\nb" + "\n\nx\n\ny" * 6 + "\n\n" + "|x|y|\n" * 6 + "\nafter this",
            id="a-table-past-the-bound-then-parsing-resumes",
        ),
        pytest.param(  # five items (the sixth starts past 48 characters), then as written
            "".join("  " * depth + "- *d*\n" for depth in range(12)) + "\n**end**\n",
            "d\n\n" * 5
            + "- *d*\n"
            + "".join("  " * depth + "- *d*\n" for depth in range(6, 12))
            + "\nend",
            id="nested-lists-past-the-bound",
        ),
        pytest.param(  # the inline phase reads 24 characters of the paragraph
            "word *em* " * 5 + "\n\n*after*",
            "word em word em word *em* word *em* word *em*\n\nafter",
            id="a-paragraph-past-the-inline-bound",
        ),
    ],
)
def test_past_the_bounds_the_rest_is_prose_as_written(text: str, prose: str) -> None:
    bounded = Limits(piece=8, chars=48, tokens=1 << 40, inline=24)
    assert markdown_layout(text, bounded).view(["prose"]).text == prose


def test_a_piece_stops_growing_at_its_token_bound() -> None:
    # 8 characters: the header (13 tokens); 16: one row more (21 tokens, half of 40 passed)
    text = "|a|b|\n|-|-|\n" + "|x|y|\n" * 40
    bounded = Limits(piece=8, chars=1 << 40, tokens=40, inline=1 << 40)
    prose = "a\n\nb\n\nx\n\ny\n\n" + "\n".join(["|x|y|"] * 39)
    assert markdown_layout(text, bounded).view(["prose"]).text == prose
