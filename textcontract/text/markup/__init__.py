"""Markup views (SPEC §18): Markdown and HTML text -> kinds, containers, views + offset maps.

Strings in, views and offset maps out: this package knows nothing of documents or rules.
"""

from textcontract.text.markup._layout import (
    CONTAINERS,
    KINDS,
    Container,
    Format,
    Layout,
    Link,
    MarkupKind,
    Run,
    View,
    ViewMap,
    plain_layout,
)


def layout_of(text: str, format: str) -> Layout:
    """The layout of ``text`` written in ``format`` (a :class:`Format` value: parsers load on
    first use)."""
    if format == Format.MARKDOWN:
        from textcontract.text.markup._markdown import markdown_layout

        return markdown_layout(text)
    if format == Format.HTML:
        from textcontract.text.markup._html import html_layout

        return html_layout(text)
    return plain_layout(text)


__all__ = [
    "CONTAINERS",
    "KINDS",
    "Container",
    "Format",
    "Layout",
    "Link",
    "MarkupKind",
    "Run",
    "View",
    "ViewMap",
    "layout_of",
    "plain_layout",
]
