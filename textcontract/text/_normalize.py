"""The two normalization profiles of SPEC §4.

``folded`` drops a combining mark (general category Mn) only when its base — the nearest
preceding character that is not a mark (M*) — is of script Latin, Greek or Cyrillic, where
marks are accents. On other scripts marks carry meaning and stay: Japanese voicing marks
(``ド``), Thai and Indic vowel signs, Hebrew and Arabic points. General categories and scripts
are those of the ``regex`` package's Unicode database; decompositions are ``unicodedata``'s.

Two ways to the same strings. The **plain path** is the definition: NFKC, case folding and
NFC, then NFD, the marks dropped and NFC for ``folded`` (each a pass of the standard library
or of ``regex`` over the whole text). The **per-character path** (texts of at least
:data:`_BY_CHAR_FROM` characters) uses :mod:`textcontract.text._separable`: where every
character of a text is separable, the text normalizes to the concatenation of its
characters' normalizations, and most characters are simple (both profiles give their case
fold). One ``re`` split finds the others; each one's forms come from the plain path applied
to that character alone (kept for the next time it occurs); the simple stretches between
them are case folded in one call each. A text holding a character that is not separable (a
combining mark, a Hangul jamo, a half-width voicing mark, an unassigned code point) takes the
plain path. Over W2's 2,111 documents both profiles took 131 ms this way against 345 ms on
the plain path (tests/text/test_fast_paths.py holds one to the other).
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from enum import StrEnum
from functools import cache, lru_cache
from operator import itemgetter

import regex

from textcontract.text import _separable
from textcontract.text._pieces import PIECE, pieces, piecewise

__all__ = ["Profile", "fold_text", "normalize", "profiles"]

# A base whose marks are accents: a Latin, Greek or Cyrillic character that is not itself a
# mark (some marks, such as U+0487, are of script Cyrillic). Version 1 syntax for "--".
_ACCENTED_BASE = r"[[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}]--\p{M}]"


@cache
def _accent_patterns() -> tuple[regex.Pattern[str], ...]:
    """The patterns of accent folding, compiled when a text beyond ASCII is first folded."""
    return (
        # Runs of Mn right after such a base: in NFD text, nearly every accent. Each pattern
        # starts with the mark, so the search skips text without one, and looks back two
        # characters at most, so it stays linear.
        regex.compile(rf"\p{{Mn}}(?<={_ACCENTED_BASE}.)\p{{Mn}}*", regex.V1),
        # Once those are gone, a mark right after such a base is of another kind (Mc, Me), and
        # an Mn after it still has that base, which the pass above does not see. (One property
        # as the first item scans several times faster than a class of two.)
        regex.compile(rf"\p{{M}}(?<={_ACCENTED_BASE}.)", regex.V1),
        regex.compile(rf"{_ACCENTED_BASE}\p{{M}}+", regex.V1),
        regex.compile(r"\p{Mn}+"),
    )


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


def profiles(text: str) -> tuple[str, str]:
    """``(normalize(text, TEXT), normalize(text, FOLDED))``, computed together."""
    if text.isascii():
        lowered = text.lower()
        return lowered, lowered
    if len(text) <= PIECE:
        return _profiles(text)
    texts: list[str] = []
    foldeds: list[str] = []
    for piece in pieces(text, PIECE):
        piece_text, piece_folded = _profiles(piece)
        texts.append(piece_text)
        foldeds.append(piece_folded)
    return "".join(texts), "".join(foldeds)


def _normalize(text: str, profile: Profile) -> str:
    if text.isascii():
        return text.lower()
    if len(text) >= _BY_CHAR_FROM:
        split = _by_char(text)
        if split is not None:
            return _joined(split, _FOLDED if profile is Profile.FOLDED else _TEXT)
    cased = unicodedata.normalize("NFKC", text).casefold()
    if profile is Profile.TEXT:
        return unicodedata.normalize("NFC", cased)
    return _plain_fold(cased)


def _profiles(text: str) -> tuple[str, str]:
    if text.isascii():
        lowered = text.lower()
        return lowered, lowered
    if len(text) >= _BY_CHAR_FROM:
        split = _by_char(text)
        if split is not None:
            parts, forms = split
            simple = _case_folded(parts[0::2])
            return _interleaved(simple, forms, _TEXT), _interleaved(simple, forms, _FOLDED)
    normalized = unicodedata.normalize("NFC", unicodedata.normalize("NFKC", text).casefold())
    return normalized, _fold(normalized)


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
    if len(text) >= _BY_CHAR_FROM:
        split = _by_char(text)
        if split is not None:
            return _joined(split, _FOLD)
    return _plain_fold(text)


def _plain_fold(text: str) -> str:
    accents, mark_after_base, base_and_marks, _ = _accent_patterns()
    stripped = accents.sub("", unicodedata.normalize("NFD", text))
    if mark_after_base.search(stripped) is not None:
        stripped = base_and_marks.sub(_drop_mn, stripped)
    return unicodedata.normalize("NFC", stripped)


def _drop_mn(match: regex.Match[str]) -> str:
    """A base character and its marks, without the marks of category Mn."""
    cluster = match.group()
    return cluster[0] + _accent_patterns()[3].sub("", cluster[1:])


# --- the per-character path ----------------------------------------------------------------

_BY_CHAR_FROM = 2048
"""Texts at least this long take the per-character path where they can. Below, the plain path
costs less than the first look-ups of a text's characters and compiling the pattern."""

_TEXT, _FOLDED, _FOLD = 0, 1, 2
"""Index of a form in :func:`_forms`' answer: the ``text`` profile, the ``folded`` profile,
and the folding of a character already under ``text``."""

CharForms = tuple[str, str, str]


def _literal(code: int) -> str:
    """A code point written into a character class as itself."""
    char = chr(code)
    return "\\" + char if char in "\\]^-[" else char


def _table(source: str) -> list[tuple[int, int]]:
    return [
        (int(first, 16), int(last, 16))
        for first, last in (item.split("-") for item in source.split())
    ]


@cache
def _special_chars() -> re.Pattern[str] | None:
    """One character that is not simple, captured (so that ``split`` keeps it); every code
    point beyond U+FFFF counts as one. None where ``unicodedata`` is of another version than
    the tables."""
    if unicodedata.unidata_version != _separable.UNICODE_VERSION:
        return None
    ranges = "".join(
        f"{_literal(first)}-{_literal(last)}" if last > first else _literal(first)
        for first, last in _table(_separable.SPECIAL_BMP_RANGES)
    )
    return re.compile(f"([{ranges}\U00010000-\U0010ffff])")


@cache
def _separable_firsts() -> tuple[list[int], list[int]]:
    table = _table(_separable.SEPARABLE_RANGES)
    return [first for first, _ in table], [last for _, last in table]


def _is_separable(char: str) -> bool:
    firsts, lasts = _separable_firsts()
    code = ord(char)
    at = bisect_right(firsts, code) - 1
    return at >= 0 and code <= lasts[at]


@lru_cache(maxsize=8192)
def _forms(char: str) -> CharForms | None:
    """The forms of one character, by the plain path (None when it is not separable)."""
    if not _is_separable(char):
        return None
    text = unicodedata.normalize("NFC", unicodedata.normalize("NFKC", char).casefold())
    return text, _plain_fold(text), _plain_fold(char)


def _by_char(text: str) -> tuple[list[str], list[CharForms]] | None:
    """The text split around its characters that are not simple, with their forms; None when
    one of them is not separable (or the tables do not hold)."""
    pattern = _special_chars()
    if pattern is None:
        return None
    parts = pattern.split(text)
    forms = list(map(_forms, parts[1::2]))
    if None in forms:
        return None
    return parts, forms  # type: ignore[return-value]  # (no None among them)


def _joined(split: tuple[list[str], list[CharForms]], form: int) -> str:
    """The text under ``form``: simple stretches case folded (as they are when folding text
    under ``text``), the other characters replaced by their forms."""
    parts, forms = split
    simple = parts[0::2] if form == _FOLD else _case_folded(parts[0::2])
    return _interleaved(simple, forms, form)


def _case_folded(stretches: list[str]) -> list[str]:
    # (Joining the stretches around a mark, case folding once and splitting again measured
    # slower: the mark widens every string to two bytes a character.)
    return [stretch.casefold() for stretch in stretches]


def _interleaved(simple: list[str], forms: list[CharForms], form: int) -> str:
    joined = [""] * (len(simple) + len(forms))
    joined[0::2] = simple
    joined[1::2] = map(itemgetter(form), forms)
    return "".join(joined)
