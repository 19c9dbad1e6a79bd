"""The markdown-it parser Markdown is read with (SPEC §18), and how it is driven.

CommonMark with GFM tables, strikethrough (one or two tildes) and autolinks (the plugins'
rules, kept linear: ``_autolinks``). Two block rules are wrapped to record what the walk
over the tokens needs and markdown-it does not keep: where each line of a table row and of a
reference definition starts, and which lines each definition holds.

The block and inline phases are driven here rather than by ``MarkdownIt.parse``, which runs
them back to back over the whole text: :mod:`._pieces` parses a long text a piece at a time
and gives the inline phase the references of the whole text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import cache, partial
from typing import Any

from textcontract.text.markup._autolinks import bounded_autolinks, replace_rule

__all__ = [
    "DEFINITIONS",
    "LINE_STARTS",
    "REFERENCES",
    "block_tokens",
    "inline_head",
    "markdown_parser",
    "parse_inline",
    "plain_inline",
]

LINE_STARTS = "tc_line_starts"
"""env key: line -> where its text starts, for the lines of table rows and definitions."""
DEFINITIONS = "tc_definitions"
"""env key: ``[(first line, line after the last)]`` of each reference definition."""
REFERENCES = "references"
"""env key where markdown-it keeps the reference definitions (label -> destination)."""


@cache
def markdown_parser() -> Any:
    """CommonMark + GFM tables, strikethrough (one or two tildes) and autolinks."""
    from markdown_it import MarkdownIt

    parser = MarkdownIt("commonmark").enable(["table", "strikethrough"])
    parser.options["strikethrough_single_tilde"] = True
    bounded_autolinks(parser)
    parser.disable("text_join")  # escapes and entities stay tokens of their own
    for name in ("table", "reference"):
        replace_rule(parser.block.ruler, name, partial(_recording, name=name))
    return parser


def _recording(rule: Callable[..., bool], name: str) -> Callable[..., bool]:
    """A block rule that records where each of its lines' text starts (and, for reference
    definitions, which lines each one holds)."""

    def recorded(state: Any, start: int, end: int, silent: bool) -> bool:
        found: bool = rule(state, start, end, silent)
        if found and not silent:
            starts = state.env.setdefault(LINE_STARTS, {})
            for line in range(start, state.line):
                starts[line] = state.bMarks[line] + state.tShift[line]
            if name == "reference":
                state.env.setdefault(DEFINITIONS, []).append((start, state.line))
        return found

    return recorded


def block_tokens(text: str, env: dict[str, Any]) -> list[Any]:
    """markdown-it's block phase over ``text`` (line breaks ``\\n``, no NUL: what its own
    normalization makes): the block tokens, inline ones with their children still None."""
    parser = markdown_parser()
    tokens: list[Any] = []
    parser.block.parse(text, parser, env, tokens)
    return tokens


def parse_inline(
    tokens: Iterable[Any], env: dict[str, Any], limit: int, shortcut: bool = True
) -> None:
    """markdown-it's inline phase: every inline token's children, as its core rule makes
    them, from the first ``limit`` characters of its text at most (:func:`inline_head`).

    With ``shortcut``, a text no inline rule but the line break's can act on
    (:func:`plain_inline`) is not handed to markdown-it: its children stay None.
    """
    parser = markdown_parser()
    for token in tokens:
        if token.type == "inline":
            content = token.content
            if len(content) > limit:
                content = content[: inline_head(content, limit)]
            if shortcut and plain_inline(content):
                token.children = None
                continue
            token.children = []
            parser.inline.parse(content, parser, env, token.children)


# Where an inline rule of :func:`markdown_parser` other than the line break's can match:
# escapes, code spans, strikethrough, ``*`` emphasis, links (and so images: ``![``),
# autolinks and HTML, the GFM autolinks' ``www.``, schemes and ``@``; ``_`` unless the whole
# run of them stands between letters or digits (it can neither open nor close emphasis
# there); an entity (``&#``, ``&name;``). Elsewhere markdown-it's text rule reads the text
# as it is.
_INLINE_ACTIVE = re.compile(
    r"[\\`~*\[<@]"
    r"|_++(?!\w)|_(?<!\w_)"  # a run not followed, or not preceded, by a letter or digit
    r"|&(?:#|[A-Za-z][A-Za-z0-9]{1,31};)"
    r"|www\.|(?:https?|mailto|xmpp):"
)


def plain_inline(content: str) -> bool:
    """Whether markdown-it reads ``content`` as its text, line breaks aside (text, soft
    and hard breaks: ``_markdown`` places such a text without its tokens)."""
    return _INLINE_ACTIVE.search(content) is None


def inline_head(content: str, limit: int) -> int:
    """How much of an inline text longer than ``limit`` the inline phase reads: up to its
    last line break within the limit, or the limit itself in a line longer than that. The
    rest is read as prose as written: markdown-it's inline rules hold a token per
    delimiter, so one paragraph of megabytes would hold millions."""
    found = content.rfind("\n", 0, limit)
    return found if found > 0 else limit
