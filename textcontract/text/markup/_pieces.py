"""A long Markdown text handed to markdown-it a piece at a time (SPEC §18, §22).

markdown-it holds every token of the text it parses at once (a table makes eight per row
before its cells are read), so a text of many megabytes would hold tens of millions of
objects. A text longer than :attr:`Limits.piece` characters is parsed in pieces of whole
lines, each read and let go before the next:

- a piece keeps its block tokens up to the start of its last top-level block that the rest
  of the text cannot change, and the next piece starts there. markdown-it's block rules
  decide where a block ends from the lines up to the one that ends it, so the blocks before
  such a start are those of the whole text. The one rule that reads further is a reference
  definition's (its title may run on to the next blank line), so a start that no blank line
  separates from an earlier definition of the piece is not taken;
- the inline phase of every piece sees the definitions of the whole text: when the text
  holds any (every definition contains ``]:``), a first pass of the block phase collects
  those of each piece's kept part.

A stretch with no such start (one table, list or paragraph of megabytes) doubles its piece
while the piece is shorter than :attr:`Limits.chars` and makes fewer than
:attr:`Limits.tokens` block tokens. Past that bound the stretch is read as markdown-it reads
the piece it was given, and the rest of it, up to the next blank line, is read as prose as
written (:attr:`Part.prose`): never dropped, never handed to markdown-it.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from textcontract.text.markup._parser import DEFINITIONS, LINE_STARTS, REFERENCES, block_tokens

__all__ = ["LIMITS", "Limits", "Part", "parts"]

_BLANK_LINE = re.compile(r"^[ \t]*$", re.MULTILINE)
_BLANK_LINE_BREAK = re.compile(r"^[ \t]*\n", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class Limits:
    """How much markdown-it is handed at once: a piece's first size and its bound in
    characters, its bound in block tokens, and the characters of one inline text."""

    piece: int = 1 << 16
    chars: int = 1 << 22
    tokens: int = 1 << 18
    inline: int = 1 << 18


LIMITS = Limits()


@dataclass(slots=True)
class Part:
    """The block tokens of some whole lines of the text (lines counted in the whole text),
    what the block rules recorded (``env``), what the inline phase reads (``inline_env``:
    the references), and the lines ``[first, stop)`` read as prose past the bound."""

    tokens: list[Any]
    env: dict[str, Any]
    inline_env: dict[str, Any]
    prose: tuple[int, int] | None = None


def parts(src: str, starts: Sequence[int], limits: Limits = LIMITS) -> Iterator[Part]:
    """The text ``src`` (lines starting at ``starts``) in parts, in text order."""
    if len(src) <= limits.piece:
        env: dict[str, Any] = {}
        yield Part(block_tokens(src, env), env, env)
        return
    references = _references(src, starts, limits) if "]:" in src else {}
    for part in _pieces(src, starts, limits):
        part.inline_env = {REFERENCES: references}
        yield part


def _references(src: str, starts: Sequence[int], limits: Limits) -> dict[str, Any]:
    """The reference definitions of the whole text, the first of each label winning."""
    found: dict[str, Any] = {}
    for part in _pieces(src, starts, limits):
        for label, reference in part.env.get(REFERENCES, {}).items():
            found.setdefault(label, reference)
    return found


def _pieces(src: str, starts: Sequence[int], limits: Limits) -> Iterator[Part]:
    line = 0
    while line < len(starts):
        part, line = _piece(src, starts, line, limits)
        yield part


def _piece(src: str, starts: Sequence[int], line: int, limits: Limits) -> tuple[Part, int]:
    """The part that starts at ``line``, and the line the next one starts at."""
    begin = starts[line]
    size = limits.piece
    while True:
        stop = max(line + 1, bisect_left(starts, begin + size))
        if stop >= len(starts):
            env: dict[str, Any] = {}
            tokens = block_tokens(src[begin:], env)
            return _shifted(tokens, env, line, begin), len(starts)
        env = {}
        tokens = block_tokens(src[begin : starts[stop]], env)
        cut = _cut(tokens, env, src, starts, line)
        if cut is not None:
            index, at = cut
            return _shifted(tokens[:index], _before(env, at), line, begin), line + at
        if size < limits.chars and 2 * len(tokens) < limits.tokens:
            size = min(2 * size, limits.chars)
            continue
        blank = _BLANK_LINE.search(src, starts[stop])
        after = len(starts) if blank is None else bisect_right(starts, blank.start()) - 1
        part = _shifted(tokens, env, line, begin)
        part.prose = (stop, after)
        return part, after


def _cut(
    tokens: list[Any], env: dict[str, Any], src: str, starts: Sequence[int], line: int
) -> tuple[int, int] | None:
    """The last top-level block start of the piece at ``line`` that the rest of the text
    cannot change: its token's index and its line in the piece; None when there is none."""
    definitions = sorted(first for first, _ in env.get(DEFINITIONS, ()))
    for index in range(len(tokens) - 1, 0, -1):
        token = tokens[index]
        if token.level or token.nesting < 0 or token.map is None:
            continue
        at = token.map[0]
        if at == 0:
            return None
        earlier = bisect_left(definitions, at)
        if not earlier:
            return index, at
        after = starts[line + definitions[earlier - 1] + 1]
        if _BLANK_LINE_BREAK.search(src, after, starts[line + at]):
            return index, at
    return None


def _before(env: dict[str, Any], at: int) -> dict[str, Any]:
    """What the block rules recorded on the lines before ``at``."""
    kept: dict[str, Any] = {}
    if LINE_STARTS in env:
        kept[LINE_STARTS] = {line: start for line, start in env[LINE_STARTS].items() if line < at}
    if DEFINITIONS in env:
        kept[DEFINITIONS] = [lines for lines in env[DEFINITIONS] if lines[0] < at]
    if REFERENCES in env:
        kept[REFERENCES] = {
            label: found for label, found in env[REFERENCES].items() if found["map"][0] < at
        }
    return kept


def _shifted(tokens: list[Any], env: dict[str, Any], line: int, begin: int) -> Part:
    """The part with its lines and offsets counted in the whole text."""
    if line:
        for token in tokens:
            if token.map is not None:
                token.map = [token.map[0] + line, token.map[1] + line]
        if LINE_STARTS in env:
            env[LINE_STARTS] = {
                first + line: start + begin for first, start in env[LINE_STARTS].items()
            }
        if DEFINITIONS in env:
            env[DEFINITIONS] = [(first + line, last + line) for first, last in env[DEFINITIONS]]
    return Part(tokens, env, env)
