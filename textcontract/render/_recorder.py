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
from types import CodeType
from typing import Any, NamedTuple, TypeAlias

from textcontract.model import FactValue
from textcontract.render._errors import RenderError, Site, site_of
from textcontract.render._markers import (
    CLAIM_CLOSE,
    MAX_ID,
    SURFACE_CLOSE,
    SURFACE_OPEN,
    encode_id,
    new_separator,
)

__all__ = ["ACTIVE", "CodePlace", "Occurrence", "Opening", "Recorder"]

CodePlace: TypeAlias = tuple[Mapping[str, Any] | None, CodeType | None, int]
"""Where template code was running: its frame's globals, code object and instruction
offset (free to read, unlike a frame's line number); :func:`site_of` maps it to a line."""


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

    Claims are kept in three parallel lists (``claim()`` runs once per printed claim).
    ``heads`` lists, in the order they were printed, what follows the separator in each
    marker; when the output holds exactly these markers in this order (the usual case),
    the assembler takes its fast path.
    """

    __slots__ = (
        "claim_close",
        "heads",
        "keys",
        "openings",
        "places",
        "separator",
        "surface_heads",
        "values",
    )

    def __init__(self) -> None:
        self.separator = separator = new_separator()
        self.claim_close = separator + CLAIM_CLOSE
        self.keys: list[str] = []
        self.values: list[FactValue] = []
        self.places: list[CodePlace] = []
        self.openings: list[Opening] = []
        self.heads: list[str] = []
        self.surface_heads: list[int] = []  # where in heads the surface markers are

    def occurrence(self, ident: int) -> Occurrence:
        return Occurrence(self.keys[ident], self.values[ident], self.places[ident])

    def claimed(self, key: str, value: FactValue, place: CodePlace, text: str) -> str:
        """``text`` between the markers of a newly recorded occurrence."""
        keys = self.keys
        ident = len(keys)
        if ident > MAX_ID:
            raise RenderError(f"more than {MAX_ID + 1:,} claims in one rendering", site_of(*place))
        keys.append(key)
        self.values.append(value)
        self.places.append(place)
        head = f"1{ident:07d}"  # CLAIM_OPEN and the id
        self.heads += (head, CLAIM_CLOSE)
        return f"{self.separator}{head}{text}{self.claim_close}"

    def opened(self, opening: Opening) -> str:
        """The marker that starts a surface block."""
        ident = len(self.openings)
        if ident > MAX_ID:
            raise RenderError(f"more than {MAX_ID + 1:,} surface blocks", opening.site)
        self.openings.append(opening)
        head = SURFACE_OPEN + encode_id(ident)
        self.surface_heads.append(len(self.heads))
        self.heads.append(head)
        return self.separator + head

    def closed(self) -> str:
        """The marker that ends the surface block open at this point of the output."""
        self.surface_heads.append(len(self.heads))
        self.heads.append(SURFACE_CLOSE)
        return self.separator + SURFACE_CLOSE


ACTIVE: ContextVar[Recorder | None] = ContextVar("textcontract_render_recorder", default=None)
