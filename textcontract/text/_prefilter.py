"""A literal prefilter for pattern lists: one linear-time pass instead of one search per pattern.

Most patterns written for text rules contain a run of plain characters that every match must
include (``\\bguarantee[ds]?\\b`` cannot match without ``guarantee``). :func:`required_literal`
finds such a run in the pattern as read by :mod:`textcontract.text._regex_literals`, the one
reader of pattern syntax (shared with ``lint``), which gives up on anything it does not
reproduce exactly; a pattern without a literal is always searched. :class:`LiteralPrefilter`
looks for every pattern's literal in one pass of an RE2 set (``google-re2``: automaton-based,
linear in the text, no backtracking) and returns the patterns that can match; the ``regex``
search that follows is unchanged, so matches, counts, spans and excerpts are exactly those of
searching every pattern. Skipped patterns are those that cannot match; only they are spared
their search (and so can no longer run out of time on a text where they could not have matched
anyway). Without google-re2 every pattern is searched.

Soundness rests on three facts: a required run is read from the pattern's only branch, through
groups matched in place, never from an optional or alternative part; its characters are ASCII,
and for each of them RE2's case-insensitive literal accepts every character that ``regex``'s
``IGNORECASE`` accepts (tests/text/test_prefilter.py checks this against every code point);
and patterns with flags that change what a literal matches (full case folding, version 1,
fuzzy matching, ...) or how the pattern is read (verbose mode set outside the pattern) get no
literal. Property tests compare prefiltered and full searches on generated patterns and texts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import regex

__all__ = ["LiteralPrefilter", "required_literal"]

# Characters a literal run may hold: ASCII, whose case pairs are ASCII letters, the Kelvin sign,
# the long s and the Turkish i's (see _RE2_EXTRA).
_LITERAL_CHARS = frozenset(chr(code) for code in range(128))
# Flags under which a literal matches no more than RE2's case-insensitive literal does. Verbose
# mode is refused because a compiled pattern's flags do not tell whether it was given to
# ``compile`` or set inline from some point on (``a b(?x)`` is not ``(?x)a b``).
_ALLOWED_FLAGS = (
    regex.IGNORECASE
    | regex.V0
    | regex.UNICODE
    | regex.ASCII
    | regex.WORD
    | regex.MULTILINE
    | regex.DOTALL
)
# Bounds that keep an RE2 set's automaton small (its memory is capped; a set that ran out
# would report no match). Longer lists are split over several sets.
_MAX_SET_CHARS = 2000
# Below this many patterns the searches cost less than importing RE2 for a cold start (the
# prefilter saves about 2 µs per skipped pattern and surface).
_MIN_PATTERNS = 4


def _ascii_pieces(run: str) -> list[str]:
    """The parts of a required run between its non-ASCII characters (each still required)."""
    pieces: list[str] = []
    current: list[str] = []
    for char in run:
        if char in _LITERAL_CHARS:
            current.append(char)
        elif current:
            pieces.append("".join(current))
            current = []
    if current:
        pieces.append("".join(current))
    return pieces


def required_literal(compiled: regex.Pattern[str]) -> str | None:
    """The longest run of ASCII literal characters every match of ``compiled`` contains.

    Matched case-insensitively; ``None`` when the pattern is outside what the shared reader
    understands, has an alternation at its top level, or has no such run.
    """
    if compiled.flags & ~_ALLOWED_FLAGS:
        return None
    # The reader loads on first use (a few milliseconds): most checks never need it.
    from textcontract.text._regex_literals import required_runs

    runs = required_runs(compiled.pattern, compiled.flags)
    pieces = [piece for run in runs or () for piece in _ascii_pieces(run)]
    return max(pieces, key=len) if pieces else None


# regex's IGNORECASE also matches "I" with dotless ı and "i" with dotted İ, which RE2 does not
# fold onto i; those letters become a class (tests compare both engines on every code point).
_RE2_EXTRA = {"i": "[i\\x{130}\\x{131}]", "I": "[i\\x{130}\\x{131}]"}


def _re2_literal(literal: str) -> str:
    return "".join(
        _RE2_EXTRA.get(char, char) if char.isalnum() else f"\\x{{{ord(char):x}}}"
        for char in literal
    )


class LiteralPrefilter:
    """Selects, for one text, the patterns of a list that can match it."""

    __slots__ = ("_always", "_patterns", "_sets")

    def __init__(self, patterns: Sequence[regex.Pattern[str]]) -> None:
        self._patterns = tuple(patterns)
        self._sets: list[tuple[Any, list[int]]] = []
        if len(self._patterns) < _MIN_PATTERNS:
            self._always = frozenset(range(len(self._patterns)))
            return
        try:
            import re2
        except ImportError:  # without google-re2 every pattern is searched
            self._always = frozenset(range(len(self._patterns)))
            return
        literals = [required_literal(pattern) for pattern in patterns]
        self._always = frozenset(i for i, literal in enumerate(literals) if literal is None)
        with_literal = [(i, lit) for i, lit in enumerate(literals) if lit is not None]
        if not with_literal:
            return
        options = re2.Options()
        options.case_sensitive = False
        chunk: list[tuple[int, str]] = []
        size = 0
        for item in with_literal:
            if chunk and size + len(item[1]) > _MAX_SET_CHARS:
                self._sets.append(_compile_set(re2, options, chunk))
                chunk, size = [], 0
            chunk.append(item)
            size += len(item[1])
        self._sets.append(_compile_set(re2, options, chunk))

    def __reduce__(self) -> tuple[Any, ...]:
        # RE2 sets cannot be pickled (contracts travel to audit worker processes): rebuild.
        return (LiteralPrefilter, (self._patterns,))

    @property
    def active(self) -> bool:
        """Whether any pattern can be skipped at all."""
        return bool(self._sets)

    def select(self, patterns: Sequence[Any], text: str) -> Sequence[Any]:
        """The items of ``patterns`` (parallel to the compiled list) that can match ``text``."""
        if not self._sets:
            return patterns
        try:
            encoded = text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: search everything
            return patterns
        chosen = set(self._always)
        for matcher, indexes in self._sets:
            found = matcher.Match(encoded)
            if found:
                chosen.update(indexes[position] for position in found)
        if len(chosen) == len(patterns):
            return patterns
        return [pattern for index, pattern in enumerate(patterns) if index in chosen]


def _compile_set(re2: Any, options: Any, chunk: list[tuple[int, str]]) -> tuple[Any, list[int]]:
    matcher = re2.Set.SearchSet(options)
    for _, literal in chunk:
        matcher.Add(_re2_literal(literal))
    matcher.Compile()
    return matcher, [index for index, _ in chunk]
