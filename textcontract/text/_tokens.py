"""Word tokens (SPEC §4): runs of ``\\w+(?:['’]\\w+)*`` holding at least one letter."""

from __future__ import annotations

import regex

__all__ = ["word_tokens"]

_WORD = regex.compile(r"\w+(?:['’]\w+)*")


def _has_letter(token: str) -> bool:
    return token.isalpha() or any(char.isalpha() for char in token)


def word_tokens(normalized: str) -> tuple[str, ...]:
    """Tokens of text already normalized with the ``text`` profile, repeats included."""
    return tuple(token for token in _WORD.findall(normalized) if _has_letter(token))
