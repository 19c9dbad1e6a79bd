"""Long texts worked through a piece at a time, with the same result as all at once.

Case folding, Unicode normalization and the token search each allocate a multiple of their
input for their work: ``str.casefold`` twelve bytes per code point (room for three UCS-4
code points, the most one folds to), NFD/NFKC four, ``findall`` a string object per token.
On a 100 MB text that is gigabytes. Cut into pieces of about :data:`PIECE` code points,
the work costs that multiple of one piece; only the results add up.

The cuts are made just before a space or a line feed. Such a character is a starter
(canonical combining class 0) with no decomposition, and it is never the second character
of a canonical composition, so nothing before it composes or reorders with anything after
it: NFC, NFD, NFKC and NFKD of ``a + b`` are the normalizations of ``a`` and ``b`` joined
whenever ``b`` starts with one. Case folding is per code point; a mark after it has the
space as its base, in the piece and in the whole; and no word token holds one. A text with
no space or line feed for a long stretch is cut at the next one, however far.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

__all__ = ["PIECE", "pieces", "piecewise"]

PIECE = 1 << 20
"""Code points per piece, about: texts up to this long are worked on whole."""

_CUT = re.compile(r"[ \n]")


def pieces(text: str, size: int = PIECE) -> Iterator[str]:
    """``text`` in consecutive slices, each but the first starting with a space or line feed.

    Each slice holds at least ``size`` code points, except the last; joined, they are
    ``text``.
    """
    start = 0
    while len(text) - start > size:
        cut = _CUT.search(text, start + size)
        if cut is None:
            break
        yield text[start : cut.start()]
        start = cut.start()
    yield text[start:] if start else text


def piecewise(work: Callable[[str], str], text: str, size: int = PIECE) -> str:
    """``work(text)`` for a ``work`` that maps pieces independently (normalizations, folds)."""
    if len(text) <= size:
        return work(text)
    return "".join([work(piece) for piece in pieces(text, size)])
