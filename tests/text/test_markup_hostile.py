"""Hostile markup ends in bounded time and memory, never a traceback (SPEC §18, §22).

Sizes here keep the suite fast; benchmarks/markup.py runs the full-size series (10,000 nested
quotes, 100,000 unclosed tags, tables up to 50 MB, each at three sizes) in fresh processes
and docs/performance.md gives the figures; tests/text/test_markup_pieces.py holds the bounds
at small limits. Each input must parse, keep the layout's invariants, and still show a rule
what a reader would see. HTML that ends inside a construct is read as browsers read it.
"""

from __future__ import annotations

import pytest

from textcontract.text.markup import Format, layout_of

HOSTILE = [
    pytest.param("markdown", ">" * 2_000 + " deep secret\n", "deep secret", id="nested-quotes"),
    pytest.param(
        "markdown",
        "".join("  " * i + "- item\n" for i in range(60)) + "  " * 60 + "- deep secret\n",
        "deep secret",
        id="nested-lists",
    ),
    pytest.param("markdown", "|a|b|\n|-|-|\n" + "|x|secret|\n" * 2_000, "secret", id="table"),
    pytest.param("markdown", "*" * 5_000 + "secret" + "*" * 5_000, "secret", id="emphasis"),
    pytest.param("markdown", "[" * 5_000 + "secret", "secret", id="link-brackets"),
    pytest.param(
        "markdown",
        "https://a.example/" + ")" * 5_000 + " secret",
        "secret",
        id="autolink-parentheses",
    ),
    pytest.param("markdown", "http: a@ www " * 3_000 + "secret", "secret", id="url-triggers"),
    pytest.param("markdown", "a" + "`" * 3_000 + "secret", "secret", id="backticks"),
    pytest.param("html", "<a><b><i>" * 10_000 + "secret", "secret", id="unclosed-tags"),
    pytest.param("html", "<a " * 10_000 + "> secret", None, id="unclosed-tag-starts"),
    pytest.param("html", "secret " + "<a " * 10_000, "secret", id="ends-inside-a-tag"),
    pytest.param("html", "secret " + "<a b='x " * 5_000, "secret", id="ends-inside-a-value"),
    pytest.param("html", "secret " + "<!--" * 10_000, "secret", id="ends-inside-a-comment"),
    pytest.param("html", "secret " + "<?x" * 10_000, "secret", id="ends-inside-instructions"),
    pytest.param("markdown", "<a " * 10_000 + "secret", "secret", id="markdown-tag-starts"),
    pytest.param("markdown", "<a><b><i>" * 10_000 + "secret", "secret", id="markdown-tags"),
    pytest.param("html", "<![x" * 5_000 + "secret", None, id="marked-sections"),
    pytest.param("html", "<!--" * 5_000 + "secret", None, id="comment-openers"),
    pytest.param("html", "&" * 10_000 + "&#" * 5_000 + "secret", "secret", id="references"),
]


@pytest.mark.parametrize(("written", "text", "seen"), HOSTILE)
def test_hostile_markup_is_read_and_mapped(written: str, text: str, seen: str | None) -> None:
    layout = layout_of(text, Format(written))
    previous = 0
    for run in layout.runs:
        assert previous <= run.start < run.end <= len(text)
        previous = run.end
    view = layout.view(["prose", "code", "url", "comment"])
    if seen is not None:
        assert seen in view.text
        start = view.text.index(seen)
        first, last = view.map.span(start, start + len(seen))
        assert text[first:last] == seen


@pytest.mark.parametrize(
    ("html", "prose", "comment"),
    [
        pytest.param("a <b c='d>e", "a ", "", id="a-tag-is-dropped"),
        pytest.param("a </b c", "a ", "", id="an-end-tag-is-dropped"),
        pytest.param("a <!-- b <i>c</i>", "a ", " b <i>c</i>", id="a-comment-runs-on"),
        pytest.param("a <!x <i c", "a ", "x <i c", id="a-bogus-comment-runs-on"),
        pytest.param("a </ x", "a ", " x", id="a-bogus-end-tag-runs-on"),
        pytest.param("a <!DOCTYPE html", "a ", "", id="a-declaration-is-dropped"),
        pytest.param("a <?php x", "a ", "", id="an-instruction-is-dropped"),
        pytest.param("a <script>b <i", "a ", "", id="a-script-stays-hidden"),
        pytest.param("a &amp", "a &amp", "", id="an-unended-reference-is-text"),
        pytest.param("a <", "a <", "", id="a-lone-bracket-is-text"),
    ],
)
def test_html_that_ends_inside_a_construct_is_read_as_browsers_read_it(
    html: str, prose: str, comment: str
) -> None:
    layout = layout_of(html, Format.HTML)
    assert layout.view(["prose"]).text == prose
    assert layout.view(["comment"]).text == comment
