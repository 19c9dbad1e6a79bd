"""Which literals of a pattern normalized text can never contain.

Patterns are matched (ignoring case) against normalized text. A literal
character is *dead* when normalizing it gives something the character itself
does not match ignoring case: ``é`` under accent folding becomes ``e``, ``ﬁ``
becomes ``fi``, ``Ａ`` becomes ``a``, ``ß`` becomes ``ss``. Uppercase letters
stay alive: ``É`` becomes ``é`` under the ``text`` profile, which ``É``
matches. A run of live characters can still be dead as a whole: ``e`` followed
by a combining acute accent is composed to ``é`` by NFC, so the text never
holds the two side by side.
"""

from __future__ import annotations

from dataclasses import dataclass

import regex

from textcontract.authoring._literals import Literal, literal_runs
from textcontract.text import Profile, normalize

__all__ = ["DeadLiteral", "dead_literals"]


@dataclass(frozen=True)
class DeadLiteral:
    """Literal text in a pattern that normalization turns into ``becomes``."""

    text: str
    becomes: str
    in_class: bool
    offset: int

    def describe(self) -> str:
        what = "class member" if self.in_class else "literal"
        points = " ".join(f"U+{ord(char):04X}" for char in self.text)
        shown = f"{what} {self.text!r} ({points})"
        if not self.becomes:
            return f"{shown} is removed"
        return f"{shown} becomes {self.becomes!r}"


def _survives(text: str, profile: Profile) -> tuple[bool, str]:
    normalized = normalize(text, profile)
    matcher = regex.compile(regex.escape(text), regex.IGNORECASE)
    return matcher.fullmatch(normalized) is not None, normalized


def _dead_run(run: tuple[Literal, ...], profile: Profile) -> list[DeadLiteral]:
    found = []
    for literal in run:
        alive, becomes = _survives(literal.char, profile)
        if not alive:
            found.append(DeadLiteral(literal.char, becomes, literal.in_class, literal.offset))
    if found or len(run) < 2:
        return found
    text = "".join(literal.char for literal in run)
    alive, becomes = _survives(text, profile)
    if alive:
        return []
    return [DeadLiteral(text, becomes, False, run[0].offset)]


def dead_literals(source: str, profile: Profile) -> list[DeadLiteral]:
    """Every dead literal of pattern ``source`` under ``profile``, in source order."""
    found = [dead for run in literal_runs(source) for dead in _dead_run(run, profile)]
    return sorted(found, key=lambda dead: dead.offset)
