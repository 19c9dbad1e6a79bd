"""Markdown -> runs: CommonMark with GFM tables, strikethrough and autolinks (SPEC §18).

markdown-it-py parses; it gives blocks their line ranges and inline tokens their text, not
their offsets. The offsets are built here, as the runs are made, by a cursor:

- a block's inline text is lined up with its source lines from the right (each line of it
  is the end of its source line, after the container markers and indentation markdown-it
  skipped; a tab it expanded in part reads as spaces, which stand for that tab);
- a table row and a reference definition start where markdown-it saw them start (recorded
  by a wrapper around those two block rules: their text is cut from there);
- the inline tokens are then walked in order with a cursor through that text, each
  consuming exactly the source it came from (its markup, its text, a link's destination as
  markdown-it's own helpers parse it), and checked against it as it goes.

Nothing is found by searching for the text. Where a check fails (a construct this walk
does not know), the block is read whole as one prose unit: every match in it is then
located at the whole block, which is still exact in SPEC §18's sense, and
:attr:`Layout.approximate` counts such blocks (zero on everything the tests generate).
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_right
from collections.abc import Callable, Sequence
from typing import Any

from textcontract.text.markup._autolinks import SPAN
from textcontract.text.markup._html import html_runs
from textcontract.text.markup._layout import (
    LEVELS,
    Container,
    Layout,
    Link,
    MarkupKind,
    Run,
)
from textcontract.text.markup._parser import (
    DEFINITIONS,
    LINE_STARTS,
    inline_head,
    markdown_parser,
    parse_inline,
)
from textcontract.text.markup._pieces import LIMITS, Limits, parts

__all__ = ["markdown_layout"]

_PROSE, _CODE, _URL = MarkupKind.PROSE, MarkupKind.CODE, MarkupKind.URL
_MD_TRIM = "".join(
    chr(code)
    for code in sorted(
        {0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20} | set(range(0x2000, 0x200B)) | {0x2028, 0x2029}
    )
)
_EVERY_CONTAINER = sum(Container)
# Tokens whose lines may hold blocks markdown-it did not parse (nested past its limit).
_CONTAINER_OPENERS = frozenset(
    {"blockquote_open", "bullet_list_open", "ordered_list_open", "list_item_open"}
)
_BREAK = re.compile(r" *(\n)[ \t]*")  # a line break and the spaces markdown-it drops around it
_CLOSING = re.compile(r"[ \t]+#+[ \t]*\Z|[ \t]*\Z")
# Container markers at the start of a line: block quote ">", list markers, indentation.
_MARKERS = re.compile(r"(?:[ \t]*(?:>|[-+*](?=[ \t]|\Z)|\d{1,9}[.)](?=[ \t]|\Z)))*[ \t]*")
# An inline run before it is placed: [start, end) of the block's text, kind, containers,
# and the decoded text when the stretch is not its own characters.
_Piece = tuple[int, int, MarkupKind, int, str | None]


class _Source:
    """The text markdown-it reads (line breaks as ``\\n``, NUL as U+FFFD) and its lines,
    mapped back to the original text (a ``\\r\\n`` is one character there)."""

    def __init__(self, text: str) -> None:
        self.original = text
        # where each "\r\n" pair's "\n" stands in the source: one character less per pair before
        self._pairs = array("q")
        if "\r" in text:
            pairs = enumerate(re.finditer("\r\n", text))
            self._pairs.extend(found.start() - index for index, found in pairs)
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        self.src = text.replace("\0", "\ufffd") if "\0" in text else text
        # where each line starts: machine integers (a 50 MB table has eight million lines)
        self.starts = array("q", [0])
        self.starts.extend(found.end() for found in re.finditer("\n", self.src))

    def line_end(self, line: int) -> int:
        """Where line ``line``'s break (or the text) ends it."""
        if line + 1 < len(self.starts):
            return self.starts[line + 1] - 1
        return len(self.src)

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """The original ``[start, end)`` of the source's ``[start, end)``."""
        if not self._pairs:
            return start, end
        return (
            start + bisect_right(self._pairs, start - 1),
            end + bisect_right(self._pairs, end - 1),
        )


def _add_piece(pieces: list[tuple[int, int, int, bool]], piece: tuple[int, int, int, bool]) -> None:
    """Append ``piece``, joined to the last one when both are verbatim and continue each
    other in the text and in the source."""
    if pieces and piece[3]:
        first, source, length, verbatim = pieces[-1]
        if verbatim and first + length == piece[0] and source + length == piece[1]:
            pieces[-1] = (first, source, length + piece[2], True)
            return
    pieces.append(piece)


class _Placement:
    """Where each character of a block's text stands in the source.

    Pieces ``(text start, source start, length, verbatim)``: a verbatim piece maps
    character for character; another (spaces standing for a tab) maps every character to
    the one source character.
    """

    __slots__ = ("_firsts", "pieces")

    def __init__(self, pieces: list[tuple[int, int, int, bool]]) -> None:
        self.pieces = pieces
        self._firsts = [piece[0] for piece in pieces]

    def place(self, start: int, end: int) -> list[tuple[int, int, bool]]:
        """Source stretches of the text's ``[start, end)``: ``(start, end, verbatim)``."""
        found: list[tuple[int, int, bool]] = []
        at = max(0, bisect_right(self._firsts, start) - 1)
        pieces = self.pieces
        while at < len(pieces) and start < end:
            first, source, length, verbatim = pieces[at]
            if first + length <= start:
                at += 1
                continue
            if first > start:  # a character no piece holds (never, for a lined-up text)
                start = first
                continue
            stop = min(end, first + length)
            if verbatim:
                found.append((source + start - first, source + stop - first, True))
            else:
                found.append((source, source + 1, False))
            start = stop
            at += 1
        return found

    def span(self, start: int, end: int) -> tuple[int, int]:
        stretches = self.place(start, end)
        return stretches[0][0], stretches[-1][1]


def _line_up(
    content: str, source: _Source, first_line: int, last_end: int | None = None
) -> _Placement | None:
    """Each line of ``content`` is the end of its source line (the last one ending at
    ``last_end`` when given): its placement, or None when a line is not."""
    return _as_written(content, source, first_line, last_end) or _lines_lined_up(
        content, source, first_line, last_end
    )


def _as_written(
    content: str, source: _Source, first_line: int, last_end: int | None
) -> _Placement | None:
    """The placement of a ``content`` that is the source as written, ending where its last
    line does (no container markers or indentation dropped): one piece, the one
    :func:`_lines_lined_up` makes of it. None otherwise."""
    starts = source.starts
    last = first_line + content.count("\n")
    if not content or last >= len(starts):
        return None
    end = source.line_end(last) if last_end is None else last_end
    start = end - len(content)
    if start < starts[first_line] or not source.src.startswith(content, start):
        return None
    return _Placement([(0, start, len(content), True)])


def _lines_lined_up(
    content: str, source: _Source, first_line: int, last_end: int | None
) -> _Placement | None:
    pieces: list[tuple[int, int, int, bool]] = []
    src = source.src
    position = 0
    lines = content.split("\n")
    for index, line in enumerate(lines):
        number = first_line + index
        if number >= len(source.starts):
            if line:
                return None
            break
        begin = source.starts[number]
        end = source.line_end(number)
        if index == len(lines) - 1 and last_end is not None:
            end = last_end
        kept = _common_suffix(line, src, begin, end)
        padding = len(line) - kept
        if padding:
            if line[:padding].strip(" ") or end - kept - 1 < begin or src[end - kept - 1] != "\t":
                return None
            pieces.append((position, end - kept - 1, padding, False))
        if kept:
            _add_piece(pieces, (position + padding, end - kept, kept, True))
        position += len(line)
        if index < len(lines) - 1:
            if end < len(src):
                _add_piece(pieces, (position, end, 1, True))  # the line break
            position += 1
    return _Placement(pieces)


def _common_suffix(line: str, src: str, begin: int, end: int) -> int:
    """How many characters at the end of ``line`` are those before ``end`` in the source."""
    if src.endswith(line, begin, end):
        return len(line)
    kept = 0
    while kept < len(line) and end - kept - 1 >= begin and src[end - kept - 1] == line[-kept - 1]:
        kept += 1
    return kept


class _Misaligned(Exception):
    """The inline walk met a token it cannot line up with the text."""


class _Inline:
    """One block's inline tokens walked with a cursor through its text."""

    def __init__(self, content: str, flags: int, env: dict[str, Any], offset: int = 0) -> None:
        self.content = content
        self.flags = flags
        self.env = env
        self.offset = offset  # where ``content`` starts in the block's text (image labels)
        self.at = 0
        self.pieces: list[_Piece] = []
        self.links: list[tuple[str, int, int, int]] = []
        self._opened: list[tuple[str, int]] = []  # href and the flags outside, per open link
        self._autolink = False
        self._state: Any = None

    def walk(self, children: Sequence[Any]) -> None:
        for token in children:
            handler = _HANDLERS.get(token.type)
            if handler is None:
                raise _Misaligned(token.type)
            handler(self, token)
        if self.content[self.at :].strip(_MD_TRIM):
            raise _Misaligned("text left over")

    def plain(self) -> None:
        """A text markdown-it reads as its text and line breaks (``plain_inline``): the
        pieces its tokens would give, without them. Its line break rule drops the spaces
        before a break and the spaces and tabs after it; the rest is prose."""
        content, at = self.content, 0
        for found in _BREAK.finditer(content):
            self.add(at, found.start(), _PROSE)
            self.add(found.start(1), found.end(1), _PROSE)
            at = found.end()
        self.add(at, len(content), _PROSE)
        self.at = len(content)

    def expect(self, written: str) -> None:
        if not self.content.startswith(written, self.at):
            raise _Misaligned(written)
        self.at += len(written)

    def add(self, start: int, end: int, kind: MarkupKind, text: str | None = None) -> None:
        if start >= end:
            return
        shift, pieces, flags = self.offset, self.pieces, self.flags
        if text is None and pieces:  # continues the last piece: one piece
            first, last, last_kind, last_flags, last_text = pieces[-1]
            if (
                last == start + shift
                and last_kind is kind
                and last_flags == flags
                and last_text is None
            ):
                pieces[-1] = (first, end + shift, kind, flags, None)
                return
        pieces.append((start + shift, end + shift, kind, flags, text))

    def text(self, token: Any) -> None:
        if self._autolink:  # an autolink's label: its destination was taken whole
            return
        start = self.at
        self.expect(token.content)
        self.add(start, self.at, _PROSE)

    def special(self, token: Any) -> None:
        start = self.at
        self.expect(token.markup)
        if token.info == "escape" and token.content != token.markup:
            self.add(start + 1, self.at, _PROSE)  # the backslash is markup
        else:
            written = self.content[start : self.at]
            self.add(start, self.at, _PROSE, None if token.content == written else token.content)

    def line_break(self, token: Any) -> None:
        content = self.content
        while content.startswith(" ", self.at):
            self.at += 1
        if token.type == "hardbreak" and content.startswith("\\\n", self.at):
            self.at += 1
        start = self.at
        self.expect("\n")
        self.add(start, self.at, _PROSE)
        while self.at < len(content) and content[self.at] in " \t":
            self.at += 1

    def delimiter(self, token: Any) -> None:
        self.expect(token.markup)

    def code(self, token: Any) -> None:
        marker = token.markup
        self.expect(marker)
        content = self.content
        close = self.at
        while True:
            close = content.find("`", close)
            if close < 0:
                raise _Misaligned("code span")
            stop = close
            while stop < len(content) and content[stop] == "`":
                stop += 1
            if stop - close == len(marker):
                break
            close = stop
        start, end = self.at, close
        inner = content[start:end].replace("\n", " ")
        if len(inner) > 2 and inner[0] == " " and inner[-1] == " " and inner.strip(" "):
            start, end, inner = start + 1, end - 1, inner[1:-1]
        if inner != token.content:
            raise _Misaligned("code span text")
        self.add(start, end, _CODE)
        self.at = close + len(marker)

    def html(self, token: Any) -> None:
        start = self.at
        self.expect(token.content)
        runs, links, _ = html_runs(token.content, self.flags)
        shift = start + self.offset
        for run in runs:
            self.pieces.append(
                (shift + run.start, shift + run.end, run.kind, run.containers, run.text)
            )
        for link in links:
            self.links.append((link.url, shift + link.start, shift + link.end, link.containers))

    def link_open(self, token: Any) -> None:
        if token.markup != "autolink":
            self.expect("[")
            self._opened.append((token.attrs.get("href", ""), self.flags))
            self.flags |= Container.LINK_TEXT
            return
        self._autolink = True
        span = token.meta.get(SPAN)
        if span is None:  # <scheme:…>: the destination runs to the first ">"
            self.expect("<")
            end = self.content.find(">", self.at)
            if end < 0:
                raise _Misaligned("autolink")
            span = (self.at, end)
        elif span[0] != self.at:
            raise _Misaligned("autolink")
        written = self.content[span[0] : span[1]]
        self.destination(span[0], span[1], None, _written_url(written, token))
        self.at = span[1] + (1 if token.meta.get(SPAN) is None else 0)

    def link_close(self, token: Any) -> None:
        del token
        if self._autolink:
            self._autolink = False
            return
        if not self._opened:
            raise _Misaligned("link")
        href, outside = self._opened.pop()
        self.flags = outside
        self.expect("]")
        self.tail(href)

    def image(self, token: Any) -> None:
        self.expect("![")
        label = token.content
        start = self.at
        self.expect(label)
        inner = _Inline(label, self.flags, self.env, self.offset + start)
        inner.walk(token.children or ())
        self.pieces.extend(inner.pieces)
        self.links.extend(inner.links)
        self.expect("]")
        self.tail(token.attrs.get("src", ""))

    def destination(self, start: int, end: int, decoded: str | None, url: str) -> None:
        """A destination the markup declares: ``url`` kind, and a link to judge."""
        self.add(start, end, _URL, decoded)
        shift = self.offset
        self.links.append((url, start + shift, end + shift, self.flags))

    def tail(self, href: str) -> None:
        """After a link's ``]``: ``(destination "title")`` or a reference, as markdown-it
        reads it (markdown_it/rules_inline/link.py), with its own helpers."""
        from markdown_it.helpers import parseLinkDestination, parseLinkTitle

        content, parser = self.content, markdown_parser()
        maximum = len(content)
        label_end = self.at - 1
        position = self.at
        reference = True
        if position < maximum and content[position] == "(":
            reference = False
            position = _skip_space(content, position + 1)
            if position >= maximum:
                raise _Misaligned("link destination")
            found = parseLinkDestination(content, position, maximum)
            taken: tuple[int, int, str] | None = None
            if found.ok:
                if parser.validateLink(parser.normalizeLink(found.str)):
                    taken = (position, found.pos, found.str)
                    position = found.pos
                start = position
                position = _skip_space(content, position)
                title = parseLinkTitle(content, position, maximum)
                if position < maximum and start != position and title.ok:
                    position = _skip_space(content, title.pos)
            if position >= maximum or content[position] != ")":
                reference = True
            else:
                self._inline_destination(taken, href)
            position += 1
        if reference:
            if position < maximum and content[position] == "[":
                end = self._label_end(position)
                position = end + 1 if end >= 0 else label_end + 1
            else:
                position = label_end + 1
        self.at = position

    def _inline_destination(self, taken: tuple[int, int, str] | None, href: str) -> None:
        parser = markdown_parser()
        if taken is None:
            if href:
                raise _Misaligned("link destination")
            return
        start, end, decoded = taken
        if parser.normalizeLink(decoded) != href:
            raise _Misaligned("link destination")
        if self.content[start] == "<":  # <destination>: the brackets are markup
            start, end = start + 1, end - 1
        written = self.content[start:end]
        if decoded.strip():
            self.destination(start, end, None if decoded == written else decoded, decoded)

    def _label_end(self, position: int) -> int:
        from markdown_it.helpers import parseLinkLabel
        from markdown_it.rules_inline import StateInline

        if self._state is None:
            self._state = StateInline(self.content, markdown_parser(), self.env, [])
        return int(parseLinkLabel(self._state, position))


def _skip_space(content: str, position: int) -> int:
    while position < len(content) and content[position] in " \t\n":
        position += 1
    return position


_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]{1,31}:")


def _written_url(written: str, token: Any) -> str:
    """An autolink's destination as written, with the scheme its link adds (``www.…`` is
    ``http://www.…``, a bare e-mail address ``mailto:…``)."""
    if _SCHEME.match(written):
        return written
    href: str = token.attrs.get("href", "")
    scheme = _SCHEME.match(href)
    if scheme is None:
        return written
    separator = "//" if href.startswith("//", scheme.end()) else ""
    return href[: scheme.end()] + separator + written


_HANDLERS: dict[str, Callable[[_Inline, Any], None]] = {
    "text": _Inline.text,
    "text_special": _Inline.special,
    "softbreak": _Inline.line_break,
    "hardbreak": _Inline.line_break,
    "code_inline": _Inline.code,
    "em_open": _Inline.delimiter,
    "em_close": _Inline.delimiter,
    "strong_open": _Inline.delimiter,
    "strong_close": _Inline.delimiter,
    "s_open": _Inline.delimiter,
    "s_close": _Inline.delimiter,
    "html_inline": _Inline.html,
    "link_open": _Inline.link_open,
    "link_close": _Inline.link_close,
    "image": _Inline.image,
}


class _Builder:
    """The block tokens walked in order: containers kept, each leaf block placed."""

    def __init__(self, source: _Source, inline_limit: int) -> None:
        self.source = source
        self.inline_limit = inline_limit
        self.env: dict[str, Any] = {}  # what the block rules recorded (the part's)
        self.inline_env: dict[str, Any] = {}  # what the inline rules read (references)
        self.runs: list[Run] = []
        self.links: list[Link] = []
        self.approximate = 0
        self.block = 0
        self._flags = 0
        self._outside: list[int] = []
        self._leaf = ""  # the kind of block the next inline token fills
        self._cell = 0
        self._cells: dict[int, list[tuple[str, _Placement]]] = {}
        self.covered = bytearray(len(source.starts))  # lines some block's text came from

    def walk(self, tokens: Sequence[Any]) -> None:
        for token in tokens:
            if token.map is not None and token.type not in _CONTAINER_OPENERS:
                first, last = token.map
                self.covered[first:last] = b"\x01" * (last - first)
            if token.nesting == 1:
                self._open(token)
            elif token.nesting == -1:
                self._flags = self._outside.pop() if self._outside else 0
            elif token.type == "inline":
                self.block += 1
                self._inline(token)
            elif token.type in ("fence", "code_block"):
                self.block += 1
                self._code(token)
            elif token.type == "html_block":
                self.block += 1
                self._html(token)

    def _open(self, token: Any) -> None:
        self._outside.append(self._flags)
        kind = token.type
        if kind == "blockquote_open":
            self._flags |= Container.BLOCKQUOTE
        elif kind == "list_item_open":
            self._flags |= Container.LIST_ITEM
        elif kind == "heading_open":
            self._flags |= Container.HEADING | LEVELS[int(token.tag[1]) - 1]
            self._leaf = "atx" if token.markup.startswith("#") else "setext"
        elif kind == "paragraph_open":
            if not token.hidden:
                self._flags |= Container.PARAGRAPH
            self._leaf = "paragraph"
        elif kind == "table_open":
            self._flags |= Container.TABLE
        elif kind == "tr_open":
            self._cell = 0
        elif kind in ("th_open", "td_open"):
            self._leaf = "cell"

    def _placement(self, token: Any) -> _Placement | None:
        source, content, first = self.source, token.content, token.map[0]
        if self._leaf == "cell":
            cells = self._row(first)
            index, self._cell = self._cell, self._cell + 1
            if index >= len(cells):
                return _Placement([]) if not content else None
            text, placement = cells[index]
            return placement if text == content else None
        last = first + content.count("\n")
        if last >= len(source.starts):
            return None
        begin, end = source.starts[last], source.line_end(last)
        line = source.src[begin:end]
        if self._leaf == "atx":
            closing = _CLOSING.search(line)
            line = line[: closing.start() if closing else len(line)]
        return _line_up(content, source, first, begin + len(line.rstrip(_MD_TRIM)))

    def _row(self, line: int) -> list[tuple[str, _Placement]]:
        found = self._cells.get(line)
        if found is None:
            start = self.env.get(LINE_STARTS, {}).get(line)
            found = (
                [] if start is None else _cells(self.source.src, start, self.source.line_end(line))
            )
            self._cells = {line: found}
        return found

    def _inline(self, token: Any) -> None:
        content = token.content
        if not content:
            return
        placement = self._placement(token)
        head = len(content)
        if head > self.inline_limit:
            head = inline_head(content, self.inline_limit)
        walker = _Inline(content[:head], self._flags, self.inline_env)
        if placement is not None and token.children is None:
            walker.plain()
        elif placement is not None:
            try:
                walker.walk(token.children)
            except _Misaligned:
                placement = None
        if placement is None:
            self._whole(token)
            return
        for start, end, kind, flags, text in walker.pieces:
            self._place(placement, start, end, kind, flags, text)
        if head < len(content):  # past the inline phase's bound: prose as written
            self._place(placement, head, len(content), _PROSE, self._flags, None)
        for url, start, end, flags in walker.links:
            first, last = placement.span(start, end)
            first, last = self.source.original_span(first, last)
            self.links.append(Link(url, first, last, flags))

    def _place(
        self,
        placement: _Placement,
        start: int,
        end: int,
        kind: MarkupKind,
        flags: int,
        text: str | None,
    ) -> None:
        source, block = self.source, self.block
        if text is not None:
            first, last = source.original_span(*placement.span(start, end))
            self.runs.append(Run(first, last, kind, flags, block, text))
            return
        runs = self.runs
        for first, last, verbatim in placement.place(start, end):
            first, last = source.original_span(first, last)
            if not verbatim and runs and runs[-1].end > first:
                continue  # a tab that spaces of two pieces stand for, taken once
            runs.append(Run(first, last, kind, flags, block))

    def prose(self, first: int, stop: int) -> None:
        """Lines ``[first, stop)`` past the bound of what markdown-it is handed at once:
        one prose unit, as written (``_pieces``)."""
        if first >= stop:
            return
        source = self.source
        self.covered[first:stop] = b"\x01" * (stop - first)
        begin, end = source.starts[first], source.line_end(stop - 1)
        written = source.src[begin:end]
        start = begin + len(written) - len(written.lstrip(_MD_TRIM))
        end = begin + len(written.rstrip(_MD_TRIM))
        if start < end:
            self.block += 1
            first_at, last_at = source.original_span(start, end)
            self.runs.append(Run(first_at, last_at, _PROSE, Container.PARAGRAPH, self.block))

    def _whole(self, token: Any) -> None:
        """A block this walk cannot line up: one prose unit over its lines."""
        self.approximate += 1
        source = self.source
        first = source.starts[token.map[0]]
        last = source.line_end(min(token.map[1], len(source.starts)) - 1)
        start, end = source.original_span(first, last)
        self.runs.append(Run(start, end, _PROSE, self._flags, self.block, token.content))

    def _code(self, token: Any) -> None:
        first = token.map[0] + (1 if token.type == "fence" else 0)
        placement = _line_up(token.content, self.source, first)
        if placement is None:
            self._whole(token)
            return
        self._place(placement, 0, len(token.content), _CODE, self._flags, None)

    def _html(self, token: Any) -> None:
        placement = _line_up(token.content, self.source, token.map[0])
        if placement is None:
            self._whole(token)
            return
        runs, links, following = html_runs(token.content, self._flags, self.block)
        for run in runs:
            self.block = run.block
            self._place(placement, run.start, run.end, run.kind, run.containers, run.text)
        self.block = following
        for link in links:
            first, last = self.source.original_span(*placement.span(link.start, link.end))
            self.links.append(Link(link.url, first, last, link.containers))


def _cells(src: str, start: int, end: int) -> list[tuple[str, _Placement]]:
    """A table row's cells as markdown-it cuts them (markdown_it/rules_block/table.py): the
    row trimmed, split at each ``|`` not escaped, the ``\\`` of an escaped one dropped,
    empty first and last cells dropped, each cell trimmed."""
    row = src[start:end]
    begin = start + len(row) - len(row.lstrip(_MD_TRIM))
    stop = start + len(row.rstrip(_MD_TRIM))
    cells: list[list[int]] = [[]]  # the source positions of each cell's characters
    for position in range(begin, stop):
        character = src[position]
        escaped = position > begin and src[position - 1] == "\\"
        if character == "|" and not escaped:
            cells.append([])
        elif character == "|":
            cells[-1][-1] = position  # "\\|" reads "|"
        else:
            cells[-1].append(position)
    if cells and not cells[0]:
        cells.pop(0)
    if cells and not cells[-1]:
        cells.pop()
    found = []
    for positions in cells:
        text = "".join(src[position] for position in positions)
        lead = len(text) - len(text.lstrip(_MD_TRIM))
        kept = positions[lead : lead + len(text.strip(_MD_TRIM))]
        found.append(("".join(src[p] for p in kept), _placement_of(kept)))
    return found


def _placement_of(positions: list[int]) -> _Placement:
    pieces: list[tuple[int, int, int, bool]] = []
    for index, position in enumerate(positions):
        if pieces and pieces[-1][1] + pieces[-1][2] == position:
            first, source, length, _ = pieces[-1]
            pieces[-1] = (first, source, length + 1, True)
        else:
            pieces.append((index, position, 1, True))
    return _Placement(pieces)


def markdown_layout(text: str, limits: Limits = LIMITS, shortcut: bool = True) -> Layout:
    """The runs of a Markdown text and the destinations it declares (SPEC §18).

    ``limits``: how much markdown-it is handed at once (``_pieces``); ``shortcut``: place a
    text no inline rule acts on without markdown-it's inline phase (``plain_inline``; the
    same layout, held to it by a differential test).
    """
    source = _Source(text)
    builder = _Builder(source, limits.inline)
    for part in parts(source.src, source.starts, limits):
        parse_inline(part.tokens, part.inline_env, limits.inline, shortcut)
        builder.env, builder.inline_env = part.env, part.inline_env
        builder.walk(part.tokens)
        _references(builder, part.env)
        for first, last in part.env.get(DEFINITIONS, ()):
            builder.covered[first:last] = b"\x01" * (last - first)
        if part.prose is not None:
            builder.prose(*part.prose)
    _uncovered(builder)
    builder.runs.sort(key=lambda run: run.start)
    builder.links.sort(key=lambda link: link.start)  # definitions among the links, in order
    return Layout(text, builder.runs, builder.links, builder.approximate)


def _uncovered(builder: _Builder) -> None:
    """Lines no block holds, whose text is more than container markers: prose, a paragraph
    each. markdown-it stops parsing a container nested deeper than its limit (20): what is
    inside is read rather than lost, so a rule reading prose sees it."""
    source, covered = builder.source, builder.covered
    src = source.src
    line = covered.find(0)
    while line >= 0:
        begin, end = source.starts[line], source.line_end(line)
        markers = _MARKERS.match(src, begin, end)
        start = markers.end() if markers else begin
        content = src[start:end]
        if content.strip(_MD_TRIM):
            builder.block += 1
            first, last = source.original_span(start, start + len(content.rstrip(_MD_TRIM)))
            builder.runs.append(Run(first, last, _PROSE, Container.PARAGRAPH, builder.block))
        line = covered.find(0, line + 1)


def _references(builder: _Builder, env: dict[str, Any]) -> None:
    """The destinations of reference definitions, cut from the lines markdown-it read them
    from as its reference rule does (markdown_it/rules_block/reference.py)."""
    from markdown_it.helpers import parseLinkDestination

    source, starts = builder.source, env.get(LINE_STARTS, {})
    parser = markdown_parser()
    for first, last in env.get(DEFINITIONS, ()):
        positions: list[int] = []
        for line in range(first, last):
            begin = starts.get(line)
            if begin is None:
                break
            end = min(source.line_end(line) + 1, len(source.src))
            positions.extend(range(begin, end))
        string = "".join(source.src[position] for position in positions)
        label_end = _definition_label_end(string)
        if label_end < 0 or not string.startswith(":", label_end + 1):
            continue
        position = _skip_space(string, label_end + 2)
        found = parseLinkDestination(string, position, len(string))
        if not found.ok or not parser.validateLink(parser.normalizeLink(found.str)):
            continue
        start, end = position, found.pos
        if string[start] == "<":
            start, end = start + 1, end - 1
        if start >= end:
            continue
        builder.block += 1
        placement = _placement_of(positions)
        written = string[start:end]
        decoded = None if found.str == written else found.str
        builder._place(placement, start, end, _URL, 0, decoded)
        first_at, last_at = source.original_span(*placement.span(start, end))
        builder.links.append(Link(found.str, first_at, last_at, _EVERY_CONTAINER))


def _definition_label_end(string: str) -> int:
    position = 1
    while position < len(string):
        character = string[position]
        if character == "[":
            return -1
        if character == "]":
            return position
        position += 2 if character == "\\" else 1
    return -1
