"""The markers that carry claims and surfaces through a Jinja2 rendering.

``claim()`` prints its value between an opening and a closing marker, and
``{% surface %}`` prints a marker before and after its body. After rendering,
the output is split at the markers: what lies between them is the final text —
after autoescaping, whitespace control and any filter that left the markers
alone — so spans are exact by construction.

Every marker starts with the rendering's **separator**: U+0000 (NUL) followed by
a nonce of six decimal digits drawn at random per rendering. NUL is reserved while
rendering: e-mail, HTML, Markdown and prompts never carry it, and a template,
variable or claimed value that puts one in the text is a render error. Because
the output is cut at the whole separator, a NUL from anywhere else is never read
as a marker: it stays in the text and is refused there. Markers stay ASCII, so a
Latin-1 output stays a one-byte string through every step.

After the separator comes the marker's kind (``1`` claim opening, ``2`` claim end,
``3`` surface opening, ``4`` surface end) and, for an opening, its id as seven
decimal digits. Markers are made of characters that have no case and are no
whitespace, so filters such as ``upper``, ``title``, ``striptags`` or ``center``
leave them whole.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from typing import Final

__all__ = [
    "CLAIM_CLOSE",
    "CLAIM_HEADS",
    "CLAIM_OPEN",
    "ID_LENGTH",
    "MARKER_HEADS",
    "MAX_ID",
    "RESERVED",
    "SEPARATOR_LENGTH",
    "SURFACE_CLOSE",
    "SURFACE_HEADS",
    "SURFACE_MARKER_HEADS",
    "SURFACE_OPEN",
    "claim_head",
    "claim_heads",
    "decode_id",
    "encode_id",
    "first_reserved",
    "new_separator",
    "surface_head",
    "surface_marker_head",
]

RESERVED: Final = "\x00"
"""The code point textcontract.render reserves while rendering."""

CLAIM_OPEN: Final = "1"
CLAIM_CLOSE: Final = "2"
SURFACE_OPEN: Final = "3"
SURFACE_CLOSE: Final = "4"
ID_LENGTH: Final = 7
SEPARATOR_LENGTH: Final = 7
"""U+0000 and six digits (:func:`new_separator`)."""
MAX_ID: Final = 10**ID_LENGTH - 1

_NONCE_BASE: Final = 1 << 24
# os.getrandom (Linux) reads the kernel's secure source as os.urandom does there, without
# releasing and taking back the GIL around the system call; os.urandom elsewhere
_random_bytes: Final = getattr(os, "getrandom", os.urandom)
_ID: Final = re.compile(r"[0-9]{7}")

CLAIM_HEADS: Final = tuple(f"{CLAIM_OPEN}{ident:07d}" for ident in range(1024))
"""What follows the separator in the opening markers of the first claims of a rendering
(a tuple index costs a twentieth of formatting the id)."""


MARKER_HEADS: Final = ("", *(head for opening in CLAIM_HEADS for head in (opening, CLAIM_CLOSE)))
"""What follows the separator in each marker of the first claims of a rendering, in
order (claim ``i`` prints ``MARKER_HEADS[2 * i + 1]`` and ``MARKER_HEADS[2 * i + 2]``),
after a first ``""`` for the text before the first marker."""


def new_separator() -> str:
    """U+0000 and a nonce of six decimal digits from the system's secure random source:
    three bytes, 2**24 added, the last six digits (each digit string comes of 16 or 17 of
    the 16,777,216 draws, none noticeably more likely). Built with the calls a rendering
    makes anyway (``str`` of an int, a slice, an f-string): code run once per rendering,
    right before Jinja2's, costs what it evicts from the processor's caches."""
    try:
        drawn = _random_bytes(3)
    except OSError:  # a kernel without getrandom(2): os.urandom reads /dev/urandom
        drawn = os.urandom(3)
    return f"{RESERVED}{str(_NONCE_BASE + int.from_bytes(drawn))[-6:]}"


def encode_id(value: int) -> str:
    return f"{value:07d}"


SURFACE_HEADS: Final = tuple(f"{SURFACE_OPEN}{ident:07d}" for ident in range(64))
"""What follows the separator in the opening markers of the first surface blocks."""

SURFACE_MARKER_HEADS: Final = tuple(
    head for opening in SURFACE_HEADS for head in (opening, SURFACE_CLOSE)
)
"""What follows the separator in each surface marker of the first blocks, in order."""


def surface_head(ident: int) -> str:
    """What follows the separator in the opening marker of surface block ``ident``."""
    return SURFACE_HEADS[ident] if ident < len(SURFACE_HEADS) else SURFACE_OPEN + encode_id(ident)


def surface_marker_head(index: int) -> str:
    """What follows the separator in the surface marker ``index`` of a rendering whose
    blocks came one after another (block ``index // 2``'s opening or end)."""
    if index < len(SURFACE_MARKER_HEADS):
        return SURFACE_MARKER_HEADS[index]
    return SURFACE_CLOSE if index % 2 else surface_head(index // 2)


def claim_head(ident: int) -> str:
    """What follows the separator in the opening marker of claim ``ident``."""
    return CLAIM_HEADS[ident] if ident < len(CLAIM_HEADS) else CLAIM_OPEN + encode_id(ident)


def claim_heads(count: int) -> Sequence[str]:
    """:data:`MARKER_HEADS` for ``count`` claims (and ``""`` first)."""
    if count <= len(CLAIM_HEADS):
        return MARKER_HEADS[: 2 * count + 1]
    more = (
        head
        for ident in range(len(CLAIM_HEADS), count)
        for head in (claim_head(ident), CLAIM_CLOSE)
    )
    return (*MARKER_HEADS, *more)


def decode_id(digits: str) -> int:
    """The id seven decimal digits encode, or -1 when they are not such digits."""
    return int(digits) if _ID.fullmatch(digits) else -1


def first_reserved(text: str) -> int | None:
    """The index of the first reserved code point in ``text``, or None."""
    index = text.find(RESERVED)
    return None if index < 0 else index
