"""Differential: the ``prose`` view of generated Markdown is the text a reference renderer
shows (SPEC §18), up to whitespace.

The reference is markdown-it-py's own HTML rendering with the plugins' GFM autolinks
(unbounded, as published), read back with the standard library's HTML parser: text and
decoded references kept; ``<code>``/``<pre>`` content, autolinks (whose text is their
destination), ``<script>``/``<style>`` content and comments dropped; ``<img>`` alt text kept.
"""

from __future__ import annotations

from html import unescape
from html.parser import HTMLParser
from typing import Any

from hypothesis import assume, given, settings

from tests.text._markup_strategies import balanced_markdown
from textcontract.text.markup import Format, layout_of


def _reference_renderer() -> Any:
    from markdown_it import MarkdownIt
    from mdit_py_plugins.gfm_autolink import gfm_autolink_plugin

    renderer = MarkdownIt("commonmark").enable(["table", "strikethrough"])
    renderer.options["strikethrough_single_tilde"] = True
    return renderer.use(gfm_autolink_plugin)


_RENDERER = _reference_renderer()


class _Shown(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag in ("code", "pre", "script", "style", "template", "head"):
            self._hidden += 1
        elif tag == "img":
            self.parts.append(values.get("alt") or "")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("code", "pre", "script", "style", "template", "head"):
            self._hidden = max(0, self._hidden - 1)

    def _add(self, text: str) -> None:
        if not self._hidden:
            self.parts.append(text)

    def handle_data(self, data: str) -> None:
        self._add(data)

    def handle_entityref(self, name: str) -> None:
        self._add(unescape(f"&{name};"))

    def handle_charref(self, name: str) -> None:
        self._add(unescape(f"&#{name};"))


def _rendered_prose(markdown: str) -> str:
    tokens = _RENDERER.parse(markdown)
    _drop_autolink_text(tokens)  # an autolink's text is its destination (url), not prose
    reader = _Shown()
    reader.feed(_RENDERER.renderer.render(tokens, _RENDERER.options, {}))
    reader.close()
    return "".join(reader.parts)


def _drop_autolink_text(tokens: list[Any]) -> None:
    for token in tokens:
        children = token.children or []
        inside = False
        for child in children:
            if child.type == "link_open" and child.markup == "autolink":
                inside = True
            elif child.type == "link_close" and child.markup == "autolink":
                inside = False
            elif inside and child.type == "text":
                child.content = ""


def _squeezed(text: str) -> str:
    return "".join(text.split())


@settings(max_examples=200)
@given(balanced_markdown)
def test_the_prose_view_is_what_a_renderer_shows(markdown: str) -> None:
    # A raw HTML block is passed through as it is: a reader of the whole page and a reader
    # of each block differ where it is unbalanced (an unclosed "<word" takes in the next
    # block's tags). The HTML reader has tests of its own.
    assume(not any(token.type == "html_block" for token in _RENDERER.parse(markdown)))
    shown = _rendered_prose(markdown)
    view = layout_of(markdown, Format.MARKDOWN).view(["prose"]).text
    assert _squeezed(view) == _squeezed(shown)
