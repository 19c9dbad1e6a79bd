"""Markup views (SPEC §18): kinds and containers of Markdown and HTML, views and their maps.

Table tests pin what each construct is; properties check the promise on generated markup
built to break it — every located match maps back to original characters whose view,
normalized, contains it — and the view of a ``plain`` text is the text.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.text._markup_strategies import html_texts, markdown_texts
from textcontract.text import OffsetMap, Profile, normalize
from textcontract.text.markup import KINDS, Format, Layout, layout_of, plain_layout

VIEWS = [
    ["prose"],
    ["code"],
    ["url"],
    ["comment"],
    ["prose", "code"],
    ["prose", "url"],
    ["prose", "code", "url", "comment"],
]


def _view_text(markdown: str, kinds: list[str], within: tuple[str, ...] = ()) -> str:
    return layout_of(markdown, Format.MARKDOWN).view(kinds, within).text


@pytest.mark.parametrize(
    ("markdown", "kinds", "within", "expected"),
    [
        pytest.param("**very** important", ["prose"], (), "very important", id="emphasis-removed"),
        pytest.param("un**believ**able", ["prose"], (), "unbelievable", id="inside-a-word"),
        pytest.param("[a](https://x)", ["prose", "url"], (), "a https://x", id="kind-change-space"),
        pytest.param("Run `rm -rf` now", ["prose"], (), "Run   now", id="code-span-skipped"),
        pytest.param("Run `rm -rf` now", ["code"], (), "rm -rf", id="code-span-only"),
        pytest.param("a<!-- b -->c", ["prose"], (), "a c", id="comment-leaves-space"),
        pytest.param("# T\n\nbody", ["prose"], (), "T\n\nbody", id="blocks-leave-two-breaks"),
        pytest.param("# T\n\nbody", ["prose"], ("heading",), "T", id="within-heading"),
        pytest.param("## T\n\nbody", ["prose"], ("h1",), "", id="within-other-level"),
        pytest.param("## T\n\nbody", ["prose"], ("h2",), "T", id="within-level"),
        pytest.param("- a [b](u)\n", ["prose"], ("link_text",), "b", id="within-link-text"),
        pytest.param("> q\n\np", ["prose"], ("blockquote",), "q", id="within-blockquote"),
        pytest.param("|h|\n|-|\n|c|", ["prose"], ("table",), "h\n\nc", id="within-table"),
        pytest.param("- a\n\n  b\n", ["prose"], ("paragraph",), "a\n\nb", id="loose-list"),
        pytest.param("- a\n- b\n", ["prose"], ("paragraph",), "", id="tight-list-no-p"),
        pytest.param("A &amp; B", ["prose"], (), "A & B", id="reference-decoded"),
        pytest.param("\\*x\\*", ["prose"], (), "*x*", id="escapes"),
        pytest.param("```\ncode\n```\ntext", ["prose"], (), "text", id="fence-skipped"),
        pytest.param("```\ncode\n```", ["code"], (), "code\n", id="fence-code"),
        pytest.param("```\nunclosed", ["code"], (), "unclosed", id="unclosed-fence-runs-on"),
        pytest.param("see https://a.example/x.", ["url"], (), "https://a.example/x", id="bare"),
        pytest.param(
            "[r]: https://r.example\n\n[x][r]",
            ["url"],
            (),
            "https://r.example",
            id="reference-definition",
        ),
        pytest.param("![the alt](p.png)", ["prose"], (), "the alt", id="image-alt-is-prose"),
    ],
)
def test_markdown_views(
    markdown: str, kinds: list[str], within: tuple[str, ...], expected: str
) -> None:
    assert _view_text(markdown, kinds, within) == expected


@pytest.mark.parametrize(
    ("html", "kinds", "within", "expected"),
    [
        pytest.param("<p>a <b>b</b>c</p>", ["prose"], (), "a bc", id="inline-tags-removed"),
        pytest.param("<p>a</p><p>b</p>", ["prose"], (), "a\n\nb", id="blocks"),
        pytest.param("<script>x()</script>y", ["prose", "code"], (), "y", id="script-hidden"),
        pytest.param("<pre>x</pre>", ["code"], (), "x", id="pre-is-code"),
        pytest.param("<a href='//e.example'>go</a>", ["url"], (), "//e.example", id="href"),
        pytest.param("<a href='//e.example'>go</a>", ["prose"], ("link_text",), "go", id="a"),
        pytest.param("T&eacute;st", ["prose"], (), "Tést", id="references"),
        pytest.param("x<!-- y -->", ["comment"], (), " y ", id="comment"),
        pytest.param("loose", ["prose"], ("paragraph",), "loose", id="outside-is-paragraph"),
        pytest.param("<h3>h</h3>", ["prose"], ("h3",), "h", id="heading-level"),
    ],
)
def test_html_views(html: str, kinds: list[str], within: tuple[str, ...], expected: str) -> None:
    assert layout_of(html, Format.HTML).view(kinds, within).text == expected


def _check_layout(layout: Layout) -> None:
    text = layout.text
    previous = 0
    for run in layout.runs:
        assert previous <= run.start < run.end <= len(text)
        previous = run.end
    for link in layout.links:
        assert 0 <= link.start < link.end <= len(text)


def _check_view(layout: Layout, kinds: list[str], spans: list[tuple[int, int]]) -> None:
    view = layout.view(kinds)
    text, original = view.text, layout.text
    chars = [view.map.char(index) for index in range(len(text))]
    for index, (start, end) in enumerate(chars):
        assert 0 <= start <= end <= len(original)
        if index:
            assert chars[index - 1][0] <= start
            assert chars[index - 1][1] <= end
    for profile in (Profile.TEXT, Profile.FOLDED):
        normalized = normalize(text, profile)
        offsets = OffsetMap(text, normalized, profile)
        for first, last in spans:
            start = min(first, len(normalized))
            end = min(max(start, last), len(normalized))
            if start == end:
                continue
            view_start, view_end = offsets.span(start, end)
            s, e = view.map.span(view_start, view_end)
            inside = "".join(text[index] for index, (a, b) in enumerate(chars) if s <= a and b <= e)
            # SPEC §18: the view characters whose original offsets lie in [s, e), normalized,
            # contain the match
            assert normalized[start:end] in normalize(inside, profile)


spans = st.lists(st.tuples(st.integers(0, 60), st.integers(0, 60)), max_size=6)


@settings(max_examples=150)
@given(markdown_texts, st.sampled_from(VIEWS), spans)
def test_markdown_views_map_back_exactly(
    markdown: str, kinds: list[str], found: list[tuple[int, int]]
) -> None:
    layout = layout_of(markdown, Format.MARKDOWN)
    assert layout.approximate == 0
    _check_layout(layout)
    _check_view(layout, kinds, found)


@settings(max_examples=100)
@given(html_texts, st.sampled_from(VIEWS), spans)
def test_html_views_map_back_exactly(
    html: str, kinds: list[str], found: list[tuple[int, int]]
) -> None:
    layout = layout_of(html, Format.HTML)
    _check_layout(layout)
    _check_view(layout, kinds, found)


@given(st.text(max_size=40))
def test_the_prose_view_of_a_plain_text_is_the_text(text: str) -> None:
    layout = plain_layout(text)
    assert layout.view(["prose"]).text == text
    assert layout.view(["prose"], ["paragraph"]).text == text
    assert layout.view(["code", "url"]).text == ""
    assert layout.runs == layout_of(text, Format.PLAIN).runs


def test_kinds_are_the_specs() -> None:
    assert KINDS == ("prose", "code", "url", "comment", "markup")
