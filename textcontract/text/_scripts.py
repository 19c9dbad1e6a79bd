"""Share of letters from scripts written without spaces (SPEC §4).

Word tokens mean nothing for those scripts, so token rules return
``undetermined`` when such letters are more than 5% of a surface's letters.
"""

from __future__ import annotations

from dataclasses import dataclass

import regex

__all__ = ["UNSPACED_SCRIPTS", "UNSPACED_THRESHOLD", "ScriptShare", "unspaced_share"]

UNSPACED_SCRIPTS = ("Han", "Hiragana", "Katakana", "Thai", "Lao", "Khmer", "Myanmar")
UNSPACED_THRESHOLD = 0.05

_LETTER = regex.compile(r"\p{L}")
_UNSPACED_LETTER = regex.compile(
    "[[" + "".join(rf"\p{{{name}}}" for name in UNSPACED_SCRIPTS) + r"]&&\p{L}]", regex.V1
)
_BY_SCRIPT = {
    name: regex.compile(rf"[\p{{{name}}}&&\p{{L}}]", regex.V1) for name in UNSPACED_SCRIPTS
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


def unspaced_share(normalized: str) -> ScriptShare:
    """Measure a surface normalized with the ``text`` profile."""
    letters = len(_LETTER.findall(normalized))
    if _UNSPACED_LETTER.search(normalized) is None:
        return ScriptShare(letters=letters, unspaced=0, scripts=())
    counts = tuple(
        (name, count)
        for name, pattern in _BY_SCRIPT.items()
        if (count := len(pattern.findall(normalized)))
    )
    return ScriptShare(letters=letters, unspaced=sum(c for _, c in counts), scripts=counts)
