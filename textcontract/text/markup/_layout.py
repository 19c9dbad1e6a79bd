"""Kinds, containers, and the layout of a markup text: which characters are what (SPEC §18).

A :class:`Layout` lists the **runs** of a text: stretches of original characters of one kind
(``prose``, ``code``, ``url``, ``comment``), in one block, within some containers. Every
character no run holds is ``markup``. A run either stands for its original characters as
they are, or for a decoded text (an HTML character reference, a Markdown entity) that the
whole stretch produces: such a stretch is one unit, which a match covers whole.

A :class:`View` is the characters of chosen kinds joined in text order, built from the runs
together with its map back to the original offsets (:class:`ViewMap`): nothing is searched.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntFlag, StrEnum

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
    "container_flags",
    "plain_layout",
]


class Format(StrEnum):
    """How a surface's text is written."""

    PLAIN = "plain"
    MARKDOWN = "markdown"
    HTML = "html"


class MarkupKind(StrEnum):
    """What a character of a markup text is (``markup``: syntax, never in a view)."""

    PROSE = "prose"
    CODE = "code"
    URL = "url"
    COMMENT = "comment"
    MARKUP = "markup"


KINDS: tuple[str, ...] = tuple(kind.value for kind in MarkupKind)


class Container(IntFlag):
    """The structures prose is within (a character is within every one that encloses it)."""

    HEADING = 1
    H1 = 1 << 1
    H2 = 1 << 2
    H3 = 1 << 3
    H4 = 1 << 4
    H5 = 1 << 5
    H6 = 1 << 6
    PARAGRAPH = 1 << 7
    LIST_ITEM = 1 << 8
    BLOCKQUOTE = 1 << 9
    TABLE = 1 << 10
    LINK_TEXT = 1 << 11


CONTAINERS: tuple[str, ...] = (
    "heading",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "paragraph",
    "list_item",
    "blockquote",
    "table",
    "link_text",
)
_FLAG_OF = {name: Container[name.upper()] for name in CONTAINERS}
LEVELS = (Container.H1, Container.H2, Container.H3, Container.H4, Container.H5, Container.H6)


def container_flags(names: Iterable[str]) -> int:
    """The union of the named containers as flags."""
    flags = 0
    for name in names:
        flags |= _FLAG_OF[name]
    return flags


_PROSE, _CODE, _URL, _COMMENT = (
    MarkupKind.PROSE,
    MarkupKind.CODE,
    MarkupKind.URL,
    MarkupKind.COMMENT,
)


@dataclass(frozen=True, slots=True)
class Run:
    """Original ``[start, end)`` of one kind, in block ``block``, within ``containers``.

    ``text`` is what the stretch reads as when it is not its own characters (a decoded
    reference); the stretch is then one unit.
    """

    start: int
    end: int
    kind: MarkupKind
    containers: int
    block: int
    text: str | None = None


@dataclass(frozen=True, slots=True)
class Link:
    """A destination the markup declares: its decoded text and original span."""

    url: str
    start: int
    end: int
    containers: int


class Layout:
    """The runs of one text, in text order, and the destinations its markup declares."""

    __slots__ = ("approximate", "links", "runs", "text")

    def __init__(
        self, text: str, runs: Sequence[Run], links: Sequence[Link] = (), approximate: int = 0
    ) -> None:
        self.text = text
        self.runs = tuple(runs)
        self.links = tuple(links)
        self.approximate = approximate
        """Blocks read whole, as one prose unit, because their tokens could not be lined up
        with their text (zero on every input the tests generate)."""

    def view(self, kinds: Iterable[str], within: Iterable[str] = ()) -> View:
        """The characters of ``kinds`` (prose only within ``within``, when given) in order.

        Between two chosen characters: nothing when only markup of the same kind was
        removed; one space when the kind changes or a stretch of another kind was removed;
        ``\\n\\n`` at a block boundary.
        """
        chosen = frozenset(MarkupKind(kind) for kind in kinds)
        flags = container_flags(within)
        return _build_view(self.text, self.runs, chosen, flags)

    def chosen_links(self, within: Iterable[str] = ()) -> list[Link]:
        """The declared destinations, those within ``within`` only when it is given."""
        flags = container_flags(within)
        if not flags:
            return list(self.links)
        return [link for link in self.links if link.containers & flags]


def plain_layout(text: str) -> Layout:
    """A ``plain`` text: all prose, in one paragraph."""
    runs = [Run(0, len(text), _PROSE, int(Container.PARAGRAPH), 0)] if text else []
    return Layout(text, runs)


def _build_view(text: str, runs: Sequence[Run], chosen: frozenset[MarkupKind], flags: int) -> View:
    parts: list[str] = []
    segments = _Segments()
    position = 0
    previous: Run | None = None
    skipped = False  # a stretch of another kind was removed since ``previous``
    for run in runs:
        if run.kind not in chosen or (flags and run.kind is _PROSE and not run.containers & flags):
            skipped = skipped or previous is not None
            continue
        if previous is not None:
            if run.block != previous.block:
                gap = "\n\n"
            elif skipped or run.kind is not previous.kind:
                gap = " "
            else:
                gap = ""
            if gap:
                parts.append(gap)
                segments.add(position, previous.end, run.start, verbatim=False)
                position += len(gap)
            elif run.start != previous.end:
                pass  # removed markup of the same kind: nothing between
        if run.text is None:
            parts.append(text[run.start : run.end])
            segments.add(position, run.start, run.end, verbatim=True)
            position += run.end - run.start
        else:
            parts.append(run.text)
            segments.add(position, run.start, run.end, verbatim=False)
            position += len(run.text)
        previous, skipped = run, False
    return View("".join(parts), ViewMap(segments, position))


class _Segments:
    """Pieces of a view: where each begins in the view and what original span it reads."""

    __slots__ = ("ends", "starts", "verbatim", "views")

    def __init__(self) -> None:
        self.views: list[int] = []
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.verbatim: list[bool] = []

    def add(self, view: int, start: int, end: int, *, verbatim: bool) -> None:
        # Two verbatim pieces that continue each other in both texts are one.
        if (
            verbatim
            and self.verbatim
            and self.verbatim[-1]
            and self.ends[-1] == start
            and self.views[-1] + (self.ends[-1] - self.starts[-1]) == view
        ):
            self.ends[-1] = end
            return
        self.views.append(view)
        self.starts.append(start)
        self.ends.append(end)
        self.verbatim.append(verbatim)


class ViewMap:
    """View offsets back to original offsets.

    A verbatim piece maps character for character; any other piece (a decoded reference,
    a gap left by removed characters) maps each of its characters to its whole original
    span, so a match covering part of it covers all of it.
    """

    __slots__ = ("_segments", "length")

    def __init__(self, segments: _Segments, length: int) -> None:
        self._segments = segments
        self.length = length

    def char(self, index: int) -> tuple[int, int]:
        """The original span of view character ``index``."""
        segments = self._segments
        at = bisect_right(segments.views, index) - 1
        start = segments.starts[at]
        if segments.verbatim[at]:
            offset = start + index - segments.views[at]
            return offset, offset + 1
        return start, segments.ends[at]

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original ``[start, end)`` of the view's ``[start, end)``: from the original
        start of its first character to the original end of its last."""
        if not 0 <= start <= end <= self.length:
            raise ValueError(f"span [{start}, {end}) is outside the view")
        if start == end:
            return self._position(start)
        return self.char(start)[0], self.char(end - 1)[1]

    def _position(self, index: int) -> tuple[int, int]:
        segments = self._segments
        if index == self.length:
            if not segments.views:
                return 0, 0
            last = self.char(index - 1)[1]
            return last, last
        first = self.char(index)[0]
        return first, first


@dataclass(frozen=True, slots=True)
class View:
    """The chosen characters of a text and their map back to it."""

    text: str
    map: ViewMap
