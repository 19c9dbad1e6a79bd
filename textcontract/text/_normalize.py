"""The two normalization profiles of SPEC §4.

``folded`` drops a combining mark (general category Mn) only when its base — the nearest
preceding character that is not a mark (M*) — is of script Latin, Greek or Cyrillic, where
marks are accents. On other scripts marks carry meaning and stay: Japanese voicing marks
(``ド``), Thai and Indic vowel signs, Hebrew and Arabic points. General categories and scripts
are those of the ``regex`` package's Unicode database; decompositions are ``unicodedata``'s.
"""

from __future__ import annotations

import unicodedata
from enum import StrEnum

import regex

from textcontract.text._pieces import PIECE, piecewise

__all__ = ["Profile", "fold_text", "normalize"]

# A base whose marks are accents: a Latin, Greek or Cyrillic character that is not itself a
# mark (some marks, such as U+0487, are of script Cyrillic). Version 1 syntax for "--".
_ACCENTED_BASE = r"[[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}]--\p{M}]"
# Runs of Mn right after such a base: in NFD text, nearly every accent. Each pattern starts
# with the mark, so the search skips text without one, and looks back two characters at most,
# so it stays linear.
_ACCENTS = regex.compile(rf"\p{{Mn}}(?<={_ACCENTED_BASE}.)\p{{Mn}}*", regex.V1)
# Once those are gone, a mark right after such a base is of another kind (Mc, Me), and an Mn
# after it still has that base, which the pass above does not see. (One property as the
# first item scans several times faster than a class of two.)
_MARK_AFTER_BASE = regex.compile(rf"\p{{M}}(?<={_ACCENTED_BASE}.)", regex.V1)
_BASE_AND_MARKS = regex.compile(rf"{_ACCENTED_BASE}\p{{M}}+", regex.V1)
_MN = regex.compile(r"\p{Mn}+")


class Profile(StrEnum):
    """``text``: NFKC, casefold, NFC. ``folded``: also drops accents on Latin, Greek, Cyrillic."""

    TEXT = "text"
    FOLDED = "folded"


def normalize(text: str, profile: Profile) -> str:
    """Normalize ``text`` under ``profile``; idempotent for both profiles."""
    if text.isascii():
        # ASCII has no compatibility or canonical decompositions and no marks, and its case
        # folding is lowercasing: both profiles are ``lower()`` (tests prove it for all of ASCII).
        return text.lower()
    if len(text) > PIECE:  # a piece at a time: the same text, a bounded working memory
        return piecewise(lambda piece: _normalize(piece, profile), text, PIECE)
    return _normalize(text, profile)


def _normalize(text: str, profile: Profile) -> str:
    if text.isascii():
        return text.lower()
    folded = unicodedata.normalize("NFKC", text).casefold()
    if profile is Profile.TEXT:
        return unicodedata.normalize("NFC", folded)
    return _fold(folded)


def fold_text(text: str) -> str:
    """The ``folded`` profile of text already under the ``text`` profile.

    ``fold_text(normalize(s, TEXT)) == normalize(s, FOLDED)`` for every ``s``: NFD of the NFC
    form is the NFD form, so a surface's folded text can be derived from its cached text
    profile without repeating NFKC and case folding.
    """
    if len(text) > PIECE:
        return piecewise(_fold, text, PIECE)
    return _fold(text)


def _fold(text: str) -> str:
    if text.isascii():
        return text
    stripped = _ACCENTS.sub("", unicodedata.normalize("NFD", text))
    if _MARK_AFTER_BASE.search(stripped) is not None:
        stripped = _BASE_AND_MARKS.sub(_drop_mn, stripped)
    return unicodedata.normalize("NFC", stripped)


def _drop_mn(match: regex.Match[str]) -> str:
    """A base character and its marks, without the marks of category Mn."""
    cluster = match.group()
    return cluster[0] + _MN.sub("", cluster[1:])
