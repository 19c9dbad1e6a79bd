"""The two normalization profiles of SPEC §4."""

from __future__ import annotations

import unicodedata
from enum import StrEnum

import regex

__all__ = ["Profile", "normalize"]

_COMBINING_MARKS = regex.compile(r"\p{Mn}+")


class Profile(StrEnum):
    """``text``: NFKC, casefold, NFC. ``folded``: also drops combining marks (accents)."""

    TEXT = "text"
    FOLDED = "folded"


def normalize(text: str, profile: Profile) -> str:
    """Normalize ``text`` under ``profile``; idempotent for both profiles."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    if profile is Profile.TEXT:
        return unicodedata.normalize("NFC", folded)
    stripped = _COMBINING_MARKS.sub("", unicodedata.normalize("NFD", folded))
    return unicodedata.normalize("NFC", stripped)
