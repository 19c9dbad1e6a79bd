"""The per-render recorder, scoped by a context variable.

:func:`textcontract.render.render` installs a fresh :class:`Recorder` in the
context variable for the duration of one rendering and resets it afterwards.
Threads each have their own context, and asyncio tasks run in a copy of the
context they were created in, so concurrent renderings never share a recorder.
Outside a rendering the variable holds None, and ``claim()`` and
``{% surface %}`` render as plain Jinja2 would (no markers, nothing recorded).
"""

from __future__ import annotations

from collections.abc import Mapping
from contextvars import ContextVar
from types import CodeType, FrameType
from typing import Any, Final, NamedTuple, TypeAlias

from textcontract.model import FactValue
from textcontract.render._errors import RenderError, Site, site_of
from textcontract.render._markers import (
    CLAIM_CLOSE,
    MAX_ID,
    SURFACE_CLOSE,
    SURFACE_OPEN,
    claim_head,
    encode_id,
    new_separator,
)

__all__ = ["ACTIVE", "STRIDE", "CodePlace", "Occurrence", "Opening", "Recorder", "place_of"]

CodePlace: TypeAlias = tuple[Mapping[str, Any] | None, CodeType | None, int]
"""Where template code was running: its frame's globals, code object and instruction
offset (free to read, unlike a frame's line number); :func:`site_of` maps it to a line."""

CLAIM_HEADS_LENGTH: Final = len(claim_head(0)) + len(CLAIM_CLOSE)
"""What the two markers of a claim take after their separators."""

STRIDE: Final = 4
"""``Recorder.claims`` holds four items per claim: key, value, the template's frame (or
None) and the frame's instruction offset then."""


def place_of(frame: FrameType | None, offset: int) -> CodePlace:
    """The place of template code from its frame and an instruction offset it ran at."""
    if frame is None:
        return (None, None, -1)
    return (frame.f_globals, frame.f_code, offset)


class Occurrence(NamedTuple):
    """One evaluation of ``claim()``: the key, the value as passed, and where."""

    key: str
    value: FactValue
    place: CodePlace

    @property
    def site(self) -> Site:
        return site_of(*self.place)


class Opening(NamedTuple):
    """One ``{% surface %}`` block entered: its name, its snapshot (None: default), where."""

    name: str
    state: str | None
    place: CodePlace

    @property
    def site(self) -> Site:
        return site_of(*self.place)


class Recorder:
    """What one rendering claimed and opened, indexed by the ids its markers carry.

    ``claims`` is one flat list, :data:`STRIDE` items per claim — key, value, the
    template's frame and its instruction offset — so recording a claim is one list
    extension (``claim()`` runs once per printed claim) and the assembler takes every
    key or every value with one slice. ``heads`` lists what follows the separator in
    each marker, in the order recorded, after a first ``""`` for the text before the
    first marker. When the output holds exactly these markers in this order (the usual
    case), the assembler takes its fast path.
    """

    __slots__ = (
        "claim_close",
        "claims",
        "heads",
        "in_block",
        "in_sequence",
        "names",
        "openings",
        "separator",
        "surface_chars",
        "surface_parts",
    )

    def __init__(self) -> None:
        self.separator = separator = new_separator()
        self.claim_close = separator + CLAIM_CLOSE
        self.claims: list[Any] = []
        self.openings: list[Opening] = []
        self.heads: list[str] = [""]
        self.surface_parts: list[int] = []  # where in heads the surface markers are
        self.surface_chars = 0  # how many code points the heads of surface markers take
        self.names: set[str] = set()  # the surface blocks opened
        self.in_block = False  # a surface block is open
        self.in_sequence = True  # so far, blocks one after another, each once

    @property
    def count(self) -> int:
        """How many claims were recorded."""
        return len(self.claims) // STRIDE

    @property
    def keys(self) -> list[str]:
        return self.claims[0::STRIDE]

    @property
    def values(self) -> list[FactValue]:
        return self.claims[1::STRIDE]

    def printed_markers(self) -> bool:
        """Whether anything printed a marker: a claim or a surface block."""
        return len(self.heads) > 1

    def marker_length(self) -> int:
        """How many code points the markers recorded so far take."""
        markers = len(self.heads) - 1
        return markers * len(self.separator) + self.count * CLAIM_HEADS_LENGTH + self.surface_chars

    def blocks_in_sequence(self) -> bool:
        """Whether the surface blocks were rendered one after another (none inside
        another, each closed), each name once."""
        return self.in_sequence and not self.in_block

    def occurrence(self, ident: int) -> Occurrence:
        key, value, frame, offset = self.claims[ident * STRIDE : (ident + 1) * STRIDE]
        return Occurrence(key, value, place_of(frame, offset))

    def claimed(
        self, key: str, value: FactValue, frame: FrameType | None, offset: int, text: str
    ) -> str:
        """``text`` between the markers of a newly recorded occurrence.

        ``claim()``'s usual path records inline, the same way (see ``_claim``)."""
        ident = self.count
        if ident > MAX_ID:
            raise RenderError(
                f"more than {MAX_ID + 1:,} claims in one rendering",
                site_of(*place_of(frame, offset)),
            )
        self.claims += (key, value, frame, offset)
        head = claim_head(ident)
        self.heads += (head, CLAIM_CLOSE)
        return f"{self.separator}{head}{text}{self.claim_close}"

    def opened(self, opening: Opening) -> str:
        """The marker that starts a surface block."""
        ident = len(self.openings)
        if ident > MAX_ID:
            raise RenderError(f"more than {MAX_ID + 1:,} surface blocks", opening.site)
        self.openings.append(opening)
        names = self.names
        if self.in_block or opening.name in names:
            self.in_sequence = False
        self.in_block = True
        names.add(opening.name)
        head = SURFACE_OPEN + encode_id(ident)
        self.surface_parts.append(len(self.heads))
        self.heads.append(head)
        self.surface_chars += len(head)
        return self.separator + head

    def closed(self) -> str:
        """The marker that ends the surface block open at this point of the output."""
        if not self.in_block:
            self.in_sequence = False
        self.in_block = False
        self.surface_parts.append(len(self.heads))
        self.heads.append(SURFACE_CLOSE)
        self.surface_chars += len(SURFACE_CLOSE)
        return self.separator + SURFACE_CLOSE


ACTIVE: ContextVar[Recorder | None] = ContextVar("textcontract_render_recorder", default=None)
