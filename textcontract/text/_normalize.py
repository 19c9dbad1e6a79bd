"""The two normalization profiles of SPEC §4."""

from __future__ import annotations

import unicodedata
from enum import StrEnum

import regex

__all__ = ["Profile", "fold_text", "normalize"]

_COMBINING_MARKS = regex.compile(r"\p{Mn}+")


class Profile(StrEnum):
    """``text``: NFKC, casefold, NFC. ``folded``: also drops combining marks (accents)."""

    TEXT = "text"
    FOLDED = "folded"


def normalize(text: str, profile: Profile) -> str:
    """Normalize ``text`` under ``profile``; idempotent for both profiles."""
    if text.isascii():
        # ASCII has no compatibility or canonical decompositions and no marks, and its case
        # folding is lowercasing: both profiles are ``lower()`` (tests prove it for all of ASCII).
        return text.lower()
    folded = unicodedata.normalize("NFKC", text).casefold()
    if profile is Profile.TEXT:
        return unicodedata.normalize("NFC", folded)
    return fold_text(folded)


def fold_text(text: str) -> str:
    """The ``folded`` profile of text already under the ``text`` profile.

    ``fold_text(normalize(s, TEXT)) == normalize(s, FOLDED)`` for every ``s``: NFD of the NFC
    form is the NFD form, so a surface's folded text can be derived from its cached text
    profile without repeating NFKC and case folding.
    """
    if text.isascii():
        return text
    stripped = _COMBINING_MARKS.sub("", unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFC", stripped)
