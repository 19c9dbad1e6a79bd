"""A text a pattern matches, built from its parse tree and verified with the compiled pattern.

The tree comes from the one reader of pattern syntax, :func:`textcontract.text.parse_pattern`.
The walk takes literal characters as they are, one branch of each alternative, the minimum
count of each repeat (nothing for an optional part), nothing for anchors and look-arounds,
and the first listed member of a character class. Syntax that stands for a set of
characters it does not list (``\\d``, ``.``, ``[a-z]``, a negated class) becomes a slot,
filled with the first of a few characters for which the text so far can still become a
match (``regex``'s partial matching says so). Every candidate is then verified: normalized
with the rule's profile, it must be matched by the compiled pattern. A pattern the reader
does not understand, or whose candidates all fail, gives ``None``.

This is the generator checking its own construction against the pattern; it never runs a
rule or looks at a check.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import regex

from textcontract.mutate._choice import Chooser
from textcontract.text import (
    Atom,
    CharSet,
    Group,
    GroupKind,
    LiteralChar,
    PatternNode,
    Profile,
    normalize,
    parse_pattern,
)

__all__ = ["matching_text"]

_FILLERS = ("a", "1", " ", "x", "-", ".", "_", "/", "#")
_MAX_REPEAT = 64
_ATTEMPTS = 8
_SKIPPED_GROUPS = frozenset(
    {
        GroupKind.LOOKAHEAD,
        GroupKind.NEGATIVE_LOOKAHEAD,
        GroupKind.LOOKBEHIND,
        GroupKind.NEGATIVE_LOOKBEHIND,
    }
)


class _TooLong(Exception):
    """A repeat asks for more copies than a probe text should hold."""


@dataclass(frozen=True)
class _Slot:
    """A character the pattern leaves open; ``first`` (a listed class member) comes first."""

    first: str | None = None

    def options(self, attempt: int) -> tuple[str, ...]:
        """The characters to try: the listed member first on the first attempt, then the
        fillers, in an order that each later attempt rotates."""
        shift = max(attempt - 1, 0) % len(_FILLERS)
        fillers = (*_FILLERS[shift:], *_FILLERS[:shift])
        if self.first is None or attempt > 0:
            return fillers
        return (self.first, *fillers)


_Piece = str | _Slot
_Branch = Callable[[int, int], int]  # (number of branches, group counter) -> branch index


def _pieces(nodes: tuple[PatternNode, ...], choose: _Branch, counter: list[int]) -> list[_Piece]:
    out: list[_Piece] = []
    for node in nodes:
        out.extend(_node(node, choose, counter))
    return out


def _node(node: PatternNode, choose: _Branch, counter: list[int]) -> list[_Piece]:
    if isinstance(node, LiteralChar):
        return [node.char]
    if isinstance(node, CharSet):
        if node.negated or not node.members:
            return [_Slot()]
        if node.complete:
            return [node.members[0].char]
        return [_Slot(node.members[0].char)]
    if isinstance(node, Atom):
        return [] if node.zero_width else [_Slot()]
    if isinstance(node, Group):
        if node.kind in _SKIPPED_GROUPS:
            return []
        counter[0] += 1
        branch = node.branches[choose(len(node.branches), counter[0])]
        return _pieces(branch, choose, counter)
    if node.minimum > _MAX_REPEAT:
        raise _TooLong
    return [piece for _ in range(node.minimum) for piece in _node(node.item, choose, counter)]


def _fill(
    pieces: list[_Piece], pattern: regex.Pattern[str], profile: Profile, attempt: int
) -> str | None:
    """The pieces joined, each slot filled with a character that keeps a match possible."""
    text = ""
    for piece in pieces:
        if isinstance(piece, str):
            text += piece
            continue
        for option in piece.options(attempt):
            if _can_match(pattern, normalize(text + option, profile), partial=True):
                text += option
                break
        else:
            return None
    return text


def _can_match(pattern: regex.Pattern[str], text: str, *, partial: bool) -> bool:
    try:
        if partial:
            return pattern.fullmatch(text, partial=True, timeout=0.25) is not None
        return pattern.search(text, timeout=0.25) is not None
    except TimeoutError:
        return False


def matching_text(
    source: str, compiled: regex.Pattern[str], profile: Profile, chooser: Chooser, *labels: object
) -> str | None:
    """A text ``compiled`` matches once normalized with ``profile``, or ``None``.

    The first attempt takes the first branch of every alternative; later attempts (the seed
    picks their branches, and the fillers come in another order) are tried only when it
    fails.
    """
    parsed = parse_pattern(source, regex.IGNORECASE)
    if parsed is None:
        return None
    for attempt in range(_ATTEMPTS):

        def choose(count: int, group: int, attempt: int = attempt) -> int:
            if attempt == 0:
                return 0
            return chooser.index(count, "branch", attempt, group, *labels)

        top = choose(len(parsed.branches), 0)
        try:
            pieces = _pieces(parsed.branches[top], choose, [0])
        except _TooLong:
            return None
        candidate = _fill(pieces, compiled, profile, attempt)
        verified = (
            candidate is not None
            and not candidate.isspace()
            and _can_match(compiled, normalize(candidate, profile), partial=False)
        )
        if verified:
            return candidate
    return None
