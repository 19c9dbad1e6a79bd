"""Share of letters from scripts written without spaces (SPEC §4).

Word tokens mean nothing for those scripts, so token rules return
``undetermined`` when such letters are more than 5% of a surface's letters.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import regex

from textcontract.text._pieces import PIECE, pieces

__all__ = [
    "UNSPACED_SCRIPTS",
    "UNSPACED_THRESHOLD",
    "ScriptShare",
    "has_unspaced_letter",
    "unspaced_share",
    "unsupported_share",
]

UNSPACED_SCRIPTS = ("Han", "Hiragana", "Katakana", "Thai", "Lao", "Khmer", "Myanmar")
UNSPACED_THRESHOLD = 0.05

_NON_LETTERS = regex.compile(r"\P{L}+")
# The ASCII characters that are not letters (\p{L} in ASCII is exactly A-Z and a-z).
_ASCII_NON_LETTERS = bytes(c for c in range(128) if not chr(c).isalpha())
# A cheap superset of _unspaced_letter(): every letter of the seven scripts lies in one of
# these two ranges (tests/text/test_fast_paths.py checks it against every code point). Most
# text has no character there — curly quotes and dashes sit between them — so the exact
# property search, which costs as much as normalizing, runs only when it can find something.
# Two searches of one range each scan several times faster than one of a class of ranges.
_MAYBE_UNSPACED = (
    regex.compile("[\u2e80-\U0010ffff]"),  # CJK, kana and everything above
    regex.compile("[\u0e00-\u19ff]"),  # Thai and Lao to Khmer symbols, Myanmar between
)


@cache
def _unspaced_letter() -> regex.Pattern[str]:
    # Compiled on first use (property sets take a while to compile; most text never needs it).
    return regex.compile(
        "[[" + "".join(rf"\p{{{name}}}" for name in UNSPACED_SCRIPTS) + r"]&&\p{L}]", regex.V1
    )


@cache
def _by_script() -> dict[str, regex.Pattern[str]]:
    # Runs, not single letters: the letters are counted as the runs' summed lengths, so a
    # long text makes one string per run found, not one per letter.
    return {
        name: regex.compile(rf"[\p{{{name}}}&&\p{{L}}]+", regex.V1) for name in UNSPACED_SCRIPTS
    }


@dataclass(frozen=True)
class ScriptShare:
    """Letters of unspaced scripts over all letters; ``scripts`` names each one present."""

    letters: int
    unspaced: int
    scripts: tuple[tuple[str, int], ...]

    @property
    def share(self) -> float:
        return self.unspaced / self.letters if self.letters else 0.0

    @property
    def unsupported(self) -> bool:
        return self.share > UNSPACED_THRESHOLD

    def to_evidence(self) -> dict[str, object]:
        return {
            "scripts": dict(self.scripts),
            "share": round(self.share, 6),
            "letters": self.letters,
        }


def has_unspaced_letter(normalized: str) -> bool:
    """Whether ``normalized`` holds a letter of a script written without spaces."""
    return _maybe_unspaced(normalized) and _unspaced_letter().search(normalized) is not None


def _maybe_unspaced(text: str) -> bool:
    return any(blocks.search(text) is not None for blocks in _MAYBE_UNSPACED)


def _letter_count(text: str) -> int:
    if len(text) > PIECE:  # the letters of a long text are counted a piece at a time
        return sum(map(_letters, pieces(text, PIECE)))
    return _letters(text)


def _letters(text: str) -> int:
    if text.isascii():
        return len(text.encode("ascii").translate(None, _ASCII_NON_LETTERS))
    return len(_NON_LETTERS.sub("", text))


def unspaced_share(normalized: str) -> ScriptShare:
    """Measure a surface normalized with the ``text`` profile."""
    letters = _letter_count(normalized)
    if not has_unspaced_letter(normalized):
        return ScriptShare(letters=letters, unspaced=0, scripts=())
    counts = tuple(
        (name, count)
        for name, pattern in _by_script().items()
        if (count := sum(map(len, pattern.findall(normalized))))
    )
    return ScriptShare(letters=letters, unspaced=sum(c for _, c in counts), scripts=counts)


def unsupported_share(normalized: str) -> ScriptShare | None:
    """The share when it makes token rules undetermined, else None.

    Equal to ``share if (share := unspaced_share(normalized)).unsupported else None``,
    without counting letters when no letter of an unspaced script is present (the usual case).
    """
    if not has_unspaced_letter(normalized):
        return None
    share = unspaced_share(normalized)
    return share if share.unsupported else None
