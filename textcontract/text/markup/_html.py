"""HTML -> runs, with the standard library's tokenizer (``html.parser``), positions kept.

The tokenizer reports each event at its (line, column); the column is turned into an offset
with the text's line starts, so every run is a stretch of the original. Text is read raw
(``convert_charrefs=False``): a character reference is reported on its own and becomes one
decoded unit. Attribute values are found in the start tag's own text with the tokenizer's
own attribute pattern, so ``href``/``src`` values are located exactly.

Open elements are counted per name, never kept on a stack, so 100,000 unclosed tags cost
what 100,000 closed ones do.

A text that ends inside a construct is read as browsers read it (HTML5's end-of-file rules):
an unclosed comment (``<!--``, or a bogus one: ``<!x``, ``<![x``, ``</ x``) runs to the end,
an unfinished tag (``<a href="…`` with no ``>``) is dropped, so what is left is markup. The
tokenizer's own ``close()`` (before Python 3.11.13, 3.12.11 and 3.13.4) reads such an end one
``<`` at a time, each rescanning the rest: quadratic in the length of the end (100,000 ``<a ``
took minutes); and later releases read it differently (SPEC §18: a pure function of the text).
"""

from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser

from textcontract.text.markup._layout import (
    LEVELS,
    Container,
    Layout,
    Link,
    MarkupKind,
    Run,
)

__all__ = ["html_layout", "html_runs"]

_HIDDEN = frozenset({"script", "style", "template", "head"})
_CODE = frozenset({"pre", "code"})
_CONTAINER_OF = {
    **{f"h{level}": int(Container.HEADING | LEVELS[level - 1]) for level in range(1, 7)},
    "p": int(Container.PARAGRAPH),
    "li": int(Container.LIST_ITEM),
    "blockquote": int(Container.BLOCKQUOTE),
    "td": int(Container.TABLE),
    "th": int(Container.TABLE),
    "a": int(Container.LINK_TEXT),
}
_TEXT_CONTAINERS = int(
    Container.HEADING
    | Container.PARAGRAPH
    | Container.LIST_ITEM
    | Container.BLOCKQUOTE
    | Container.TABLE
    | Container.LINK_TEXT
)
_PARAGRAPH, _LINK_TEXT = int(Container.PARAGRAPH), int(Container.LINK_TEXT)
_BLOCKS = frozenset(
    [
        "address",
        "article",
        "aside",
        "blockquote",
        "body",
        "br",
        "caption",
        "dd",
        "details",
        "dialog",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "head",
        "header",
        "hr",
        "html",
        "li",
        "main",
        "nav",
        "ol",
        "p",
        "pre",
        "section",
        "summary",
        "table",
        "tbody",
        "td",
        "tfoot",
        "th",
        "thead",
        "title",
        "tr",
        "ul",
    ]
)
_VOID = frozenset(
    [
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "param",
        "source",
        "track",
        "wbr",
    ]
)
_URL_ATTRIBUTES = frozenset({"href", "src"})
# What the tokenizer leaves unread when the text ends inside a tag or a comment.
_UNFINISHED_TAG = re.compile(r"</?[a-zA-Z]")
_UNFINISHED_COMMENT = re.compile(
    r"<!--|<!(?![Dd][Oo][Cc][Tt][Yy][Pp][Ee]|\[CDATA\[)|</(?=.)", re.DOTALL
)
_UNFINISHED_MARKUP = re.compile(r"<[!?]")  # a doctype, CDATA section or instruction
# The tokenizer's own patterns for a tag name and its attributes (html.parser).
_TAG_NAME = re.compile(r"([a-zA-Z][^\t\n\r\f />\x00]*)(?:\s|/(?!>))*")
_ATTRIBUTE = re.compile(
    r"((?<=[\'\"\s/])[^\s/>][^\s/=>]*)(\s*=+\s*"
    r"(\'[^\']*\'|\"[^\"]*\"|(?![\'\"])[^>\s]*))?(?:\s|/(?!>))*"
)


class _Reader(HTMLParser):
    def __init__(self, text: str, base: int, first_block: int) -> None:
        super().__init__(convert_charrefs=False)
        self._text = text
        self._lines = [0] + [found.end() for found in re.finditer("\n", text)]
        self._base = base  # containers every run is within (from the enclosing markup)
        self._open: dict[str, int] = {}
        self._flags = 0
        self._hidden = 0
        self._code = 0
        self.block = first_block
        self.runs: list[Run] = []
        self.links: list[Link] = []

    def parse_html_declaration(self, i: int) -> int:
        # "<![" that is no CDATA section is a bogus comment, as browsers read it (the
        # library's marked-section reader raises AssertionError on it).
        rawdata = self.rawdata
        if rawdata.startswith("<![", i) and not rawdata.startswith("<![CDATA[", i):
            return self.parse_bogus_comment(i)
        return super().parse_html_declaration(i)

    def _offset(self) -> int:
        line, column = self.getpos()
        return self._lines[line - 1] + column

    def _containers(self) -> int:
        flags = self._base | self._flags
        return flags if flags & _TEXT_CONTAINERS else flags | _PARAGRAPH

    def _add(self, start: int, end: int, kind: MarkupKind, text: str | None = None) -> None:
        if start < end:
            self.runs.append(Run(start, end, kind, self._containers(), self.block, text))

    def _text_kind(self) -> MarkupKind | None:
        if self._hidden:
            return None
        return MarkupKind.CODE if self._code else MarkupKind.PROSE

    def _count(self, tag: str, step: int) -> None:
        count = self._open.get(tag, 0)
        if step < 0 and not count:
            return
        self._open[tag] = count + step
        if tag in _HIDDEN:
            self._hidden += step
        elif tag in _CODE:
            self._code += step
        flag = _CONTAINER_OF.get(tag)
        if flag is not None and (count == 0 or count + step == 0):
            self._flags = self._flags | flag if step > 0 else self._flags & ~flag
            if tag in ("td", "th"):  # td and th share their flag
                both = self._open.get("td", 0) + self._open.get("th", 0)
                self._flags = self._flags | flag if both else self._flags & ~flag

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        del attrs
        start = self._offset()
        if tag in _BLOCKS:
            self.block += 1
        if tag not in _VOID:
            self._count(tag, 1)
        self._attributes(start, tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        del attrs
        start = self._offset()
        if tag in _BLOCKS:
            self.block += 1
        self._attributes(start, tag)

    def handle_endtag(self, tag: str) -> None:
        self._count(tag, -1)
        if tag in _BLOCKS:
            self.block += 1

    def _attributes(self, start: int, tag: str) -> None:
        raw = self.get_starttag_text()
        if raw is None or self._hidden:
            return
        name = _TAG_NAME.match(raw, 1)
        if name is None:
            return
        flags = self._containers() | (_LINK_TEXT if tag == "a" else 0)
        position = name.end()
        while position < len(raw):
            found = _ATTRIBUTE.match(raw, position)
            if found is None:
                break
            position = found.end()
            value = found.group(3)
            if found.group(1).lower() not in _URL_ATTRIBUTES or not value:
                continue
            first, last = found.start(3), found.end(3)
            if value[:1] == value[-1:] and value[:1] in ("'", '"') and len(value) > 1:
                first, last = first + 1, last - 1
            self._url(start + first, start + last, flags)

    def _url(self, start: int, end: int, flags: int) -> None:
        written = self._text[start:end]
        decoded = unescape(written) if "&" in written else written
        if not decoded.strip():
            return
        text = None if decoded == written else decoded
        self.runs.append(Run(start, end, MarkupKind.URL, flags, self.block, text))
        self.links.append(Link(decoded.strip(), start, end, flags))

    def handle_data(self, data: str) -> None:
        kind = self._text_kind()
        if kind is not None:
            start = self._offset()
            self._add(start, start + len(data), kind)

    def handle_entityref(self, name: str) -> None:
        self._reference(len(name) + 1)

    def handle_charref(self, name: str) -> None:
        self._reference(len(name) + 2)

    def _reference(self, length: int) -> None:
        kind = self._text_kind()
        if kind is None:
            return
        start = self._offset()
        end = start + length
        if self._text.startswith(";", end):
            end += 1
        written = self._text[start:end]
        decoded = unescape(written)
        self._add(start, end, kind, None if decoded == written else decoded)

    def finish(self) -> None:
        """The end of the text: what the tokenizer left unread, then its own ``close()``."""
        rest = self.rawdata
        if self.cdata_elem is None:  # (inside <script>/<style> the rest stays hidden)
            opener = _UNFINISHED_COMMENT.match(rest)
            if _UNFINISHED_TAG.match(rest) or (opener is None and _UNFINISHED_MARKUP.match(rest)):
                self.rawdata = ""
            elif opener is not None:
                self._comment(len(self._text) - len(rest) + opener.end(), len(self._text))
                self.rawdata = ""
        self.close()

    def _comment(self, start: int, end: int) -> None:
        if start < end:
            self.runs.append(Run(start, end, MarkupKind.COMMENT, self._containers(), self.block))

    def handle_comment(self, data: str) -> None:
        start = self._offset()
        for opener in ("<!--", "<!", "</", "<?"):
            if self._text.startswith(opener, start) and self._text.startswith(
                data, start + len(opener)
            ):
                begin = start + len(opener)
                self._comment(begin, begin + len(data))
                return


def html_runs(text: str, base: int = 0, first_block: int = 0) -> tuple[list[Run], list[Link], int]:
    """The runs and links of an HTML text (offsets into it), and the next free block number.

    ``base``: containers that enclose the whole text (from the markup around it).
    """
    reader = _Reader(text, base, first_block)
    reader.feed(text)
    reader.finish()
    return reader.runs, reader.links, reader.block + 1


def html_layout(text: str) -> Layout:
    runs, links, _ = html_runs(text)
    return Layout(text, runs, links)
