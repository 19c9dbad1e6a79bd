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

from textcontract.text import LiteralRun, Profile, literal_runs, normalize

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


def _survives(text: str, flags: int, profile: Profile) -> tuple[bool, str]:
    """Whether literal ``text`` matches its own normalized form, and that form.

    Character by character: without full case folding (which the reader gives up on) a
    literal character matches exactly one character of the text, so this is what a
    ``fullmatch`` of the escaped text says — without regex's matcher, which takes time cubic
    in a literal's length when the match spans the whole string (8,000 characters: 30 s).
    """
    normalized = normalize(text, profile)
    if len(normalized) != len(text):
        return False, normalized
    alive = all(
        char == found or regex.fullmatch(regex.escape(char), found, flags) is not None
        for char, found in zip(text, normalized, strict=True)
    )
    return alive, normalized


def _dead_run(run: LiteralRun, profile: Profile) -> list[DeadLiteral]:
    flags = run.chars[0].flags  # the characters of a run share their case flags
    found = []
    for literal in run.chars:
        alive, becomes = _survives(literal.char, flags, profile)
        if not alive:
            found.append(DeadLiteral(literal.char, becomes, run.in_class, literal.offset))
    if found or len(run.chars) < 2:
        return found
    alive, becomes = _survives(run.text, flags, profile)
    if alive:
        return []
    return [DeadLiteral(run.text, becomes, False, run.chars[0].offset)]


def dead_literals(
    source: str, profile: Profile, flags: int = regex.IGNORECASE
) -> list[DeadLiteral]:
    """Every dead literal of pattern ``source`` (compiled with ``flags``) under ``profile``.

    In source order; none for a pattern the shared reader does not understand
    (:func:`textcontract.text.literal_runs`).
    """
    runs = literal_runs(source, flags) or ()
    found = [dead for run in runs for dead in _dead_run(run, profile)]
    return sorted(found, key=lambda dead: dead.offset)
