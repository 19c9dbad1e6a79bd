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
    SEPARATOR_LENGTH,
    SURFACE_CLOSE,
    SURFACE_HEADS,
    SURFACE_OPEN,
    claim_head,
    encode_id,
    new_separator,
    surface_head,
)

__all__ = [
    "ACTIVE",
    "CLAIM_HEADS_LENGTH",
    "CLAIM_MARKERS_LENGTH",
    "SURFACE_OPEN_LENGTH",
    "Claim",
    "CodePlace",
    "Occurrence",
    "Opening",
    "OpeningRecord",
    "Recorder",
    "place_of",
]

CodePlace: TypeAlias = tuple[Mapping[str, Any] | None, CodeType | None, int]
"""Where template code was running: its frame's globals, code object and instruction
offset (free to read, unlike a frame's line number); :func:`site_of` maps it to a line."""

CLAIM_HEADS_LENGTH: Final = len(claim_head(0)) + len(CLAIM_CLOSE)
"""What the two markers of a claim take after their separators."""

_SURFACE_TABLE: Final = len(SURFACE_HEADS)

CLAIM_MARKERS_LENGTH: Final = 2 * SEPARATOR_LENGTH + CLAIM_HEADS_LENGTH
"""What the two markers of a claim take."""

SURFACE_OPEN_LENGTH: Final = len(SURFACE_OPEN + encode_id(0))
"""What the marker opening a surface block takes after its separator."""

Claim: TypeAlias = tuple[str, FactValue, FrameType | None, int, str]
"""A claim as recorded: key, value, the template's frame (or None), the frame's
instruction offset then, and the text claim() printed between the markers."""

OpeningRecord: TypeAlias = tuple[str, str | None, str | None, CodePlace]
"""A ``{% surface %}`` block entered, as recorded (an :class:`Opening`'s fields)."""


def place_of(frame: FrameType | None, offset: int) -> CodePlace:
    """The place of template code from its frame and an instruction offset it ran at."""
    if frame is None:
        return (None, None, -1)
    return (frame.f_globals, frame.f_code, offset)


class Occurrence(NamedTuple):
    """One evaluation of ``claim()``: the key, the value as passed, where, and the text
    it printed."""

    key: str
    value: FactValue
    place: CodePlace
    text: str

    @property
    def site(self) -> Site:
        return site_of(*self.place)


class Opening(NamedTuple):
    """One ``{% surface %}`` block entered: its name, its snapshot and its format (None:
    the rendering's), where."""

    name: str
    state: str | None
    format: str | None
    place: CodePlace

    @property
    def site(self) -> Site:
        return site_of(*self.place)


class Recorder:
    """What one rendering claimed and opened, indexed by the ids its markers carry.

    ``claims`` lists the claims (:data:`Claim`) and ``openings`` the surface blocks
    (:data:`OpeningRecord`) in the order recorded, as plain tuples: ``claim()`` runs
    once per printed claim. Claim ``i``'s markers carry ``claim_head(i)`` and
    ``CLAIM_CLOSE`` after the separator, block ``i``'s ``surface_head(i)`` and
    ``SURFACE_CLOSE``; so the heads of all markers follow from the number of claims and
    ``surface_parts``, the part of the output each surface marker starts (parts are what
    lies between separators; the first is the text before the first marker). When the
    output holds exactly these markers in this order (the usual case), the assembler
    takes its fast path, which reads each surface's claims from the dictionary they were
    recorded in: ``body_claims`` outside blocks, ``blocks[name]`` (with the block's
    state and format) for each block; ``surface_claims`` is the one of the surface being rendered.
    A key claimed twice on a surface shows as a dictionary shorter than its claims.
    """

    __slots__ = (
        "blocks",
        "body_claims",
        "claim_close",
        "claims",
        "in_block",
        "in_sequence",
        "openings",
        "separator",
        "surface_claims",
        "surface_parts",
    )

    def __init__(self, separator: str | None = None) -> None:
        """``separator``: another rendering's, to render the same output again (the
        default, a fresh one, is what a rendering uses)."""
        self.separator = separator = new_separator() if separator is None else separator
        self.claim_close = f"{separator}{CLAIM_CLOSE}"
        self.claims: list[Claim] = []
        self.body_claims: dict[str, FactValue] = {}  # the claims outside blocks
        self.surface_claims = self.body_claims
        self.openings: list[OpeningRecord] = []
        self.surface_parts: list[int] = []
        # the blocks opened, in order: their claims, state and format
        self.blocks: dict[str, tuple[dict[str, FactValue], str | None, str | None]] = {}
        self.in_block = False  # a surface block is open
        self.in_sequence = True  # so far, blocks one after another, each once

    @property
    def count(self) -> int:
        """How many claims were recorded."""
        return len(self.claims)

    @property
    def keys(self) -> list[str]:
        return [claim[0] for claim in self.claims]

    @property
    def values(self) -> list[FactValue]:
        return [claim[1] for claim in self.claims]

    @property
    def texts(self) -> list[str]:
        """The text each claim printed between its markers."""
        return [claim[4] for claim in self.claims]

    def marker_length(self) -> int:
        """How many code points the markers recorded so far take."""
        openings = len(self.openings)
        return (
            len(self.claims) * CLAIM_MARKERS_LENGTH
            + len(self.surface_parts) * SEPARATOR_LENGTH
            + openings * SURFACE_OPEN_LENGTH
            + (len(self.surface_parts) - openings) * len(SURFACE_CLOSE)
        )

    def occurrence(self, ident: int) -> Occurrence:
        key, value, frame, offset, text = self.claims[ident]
        return Occurrence(key, value, place_of(frame, offset), text)

    def opening(self, ident: int) -> Opening:
        return Opening(*self.openings[ident])

    def claimed(
        self, key: str, value: FactValue, frame: FrameType | None, offset: int, text: str
    ) -> str:
        """``text`` between the markers of a newly recorded occurrence.

        ``claim()``'s usual path records inline, the same way (see ``_claim``)."""
        ident = len(self.claims)
        if ident > MAX_ID:
            raise RenderError(
                f"more than {MAX_ID + 1:,} claims in one rendering",
                site_of(*place_of(frame, offset)),
            )
        self.claims.append((key, value, frame, offset, text))
        self.surface_claims[key] = value
        return f"{self.separator}{claim_head(ident)}{text}{self.claim_close}"

    def opened(self, name: str, state: str | None, format: str | None, place: CodePlace) -> str:
        """The marker that starts a surface block."""
        openings = self.openings
        ident = len(openings)
        if ident > MAX_ID:
            raise RenderError(f"more than {MAX_ID + 1:,} surface blocks", site_of(*place))
        openings.append((name, state, format, place))
        blocks = self.blocks
        if self.in_block or name in blocks:
            self.in_sequence = False
        self.in_block = True
        claimed: dict[str, FactValue] = {}
        self.surface_claims = claimed
        blocks[name] = (claimed, state, format)
        parts, claims = self.surface_parts, len(self.claims)
        # the part it starts: after the text before the first marker, two markers per
        # claim and one per surface marker so far
        parts.append(claims + claims + len(parts) + 1)
        head = SURFACE_HEADS[ident] if ident < _SURFACE_TABLE else surface_head(ident)
        return f"{self.separator}{head}"

    def closed(self) -> str:
        """The marker that ends the surface block open at this point of the output."""
        if not self.in_block:
            self.in_sequence = False
        self.in_block = False
        self.surface_claims = self.body_claims
        parts, claims = self.surface_parts, len(self.claims)
        parts.append(claims + claims + len(parts) + 1)
        return f"{self.separator}{SURFACE_CLOSE}"


ACTIVE: ContextVar[Recorder | None] = ContextVar("textcontract_render_recorder", default=None)
