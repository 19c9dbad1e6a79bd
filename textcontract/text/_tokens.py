"""Word tokens (SPEC §4): runs of ``\\w+(?:['’]\\w+)*`` holding at least one letter."""

from __future__ import annotations

import re

import regex

from textcontract.text._pieces import PIECE, pieces

__all__ = ["word_tokens"]

_WORD = regex.compile(r"\w+(?:['’]\w+)*")

# ASCII text: the same runs, keeping only those with a letter, in one pass of the standard
# library's engine (faster than ``regex`` here). On ASCII, ``\w`` of both engines is
# [A-Za-z0-9_] and the letters are [A-Za-z]. The lookahead walks the characters the run
# from this position covers (word characters, and an apostrophe followed by one) and
# requires a letter among them; a run without letters fails at each of its positions, since
# every suffix of a run ends where the run does. Equivalence with the definition is a
# property test (tests/text/test_fast_paths.py).
_ASCII_WORD_WITH_LETTER = re.compile(
    r"(?<!\w)(?<!\w')(?=(?:\w|'(?=\w))*?[A-Za-z])\w+(?:'\w+)*", re.ASCII
)


def _has_letter(token: str) -> bool:
    return any(map(str.isalpha, token))


def word_tokens(normalized: str) -> tuple[str, ...]:
    """Tokens of text already normalized with the ``text`` profile, repeats included."""
    if len(normalized) > PIECE:
        return tokens_in_pieces(normalized, PIECE)
    return _word_tokens(normalized)


def tokens_in_pieces(normalized: str, size: int = PIECE) -> tuple[str, ...]:
    """:func:`word_tokens` of a long text, searched a piece at a time (``text._pieces``).

    Equal tokens share one string object: a word repeated a million times is one string
    and a million references (8 bytes each), not a million strings (about 60 bytes each).
    """
    shared: dict[str, str] = {}
    found: list[str] = []
    for piece in pieces(normalized, size):
        found.extend([shared.setdefault(token, token) for token in _word_tokens(piece)])
    return tuple(found)


def _word_tokens(normalized: str) -> tuple[str, ...]:
    if normalized.isascii():
        return tuple(_ASCII_WORD_WITH_LETTER.findall(normalized))
    return tuple(
        [token for token in _WORD.findall(normalized) if token.isalpha() or _has_letter(token)]
    )
