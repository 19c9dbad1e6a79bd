"""A literal prefilter for pattern lists: one linear-time pass instead of one search per pattern.

Most patterns written for text rules contain a run of plain characters that every match must
include (``\\bguarantee[ds]?\\b`` cannot match without ``guarantee``). :func:`required_literal`
finds such a run by a deliberately small, conservative reading of the pattern; any construct it
does not fully understand makes it give up, and a pattern without a literal is always searched.
:class:`LiteralPrefilter` looks for every pattern's literal in one pass of an RE2 set
(``google-re2``: automaton-based, linear in the text, no backtracking) and returns the patterns
that can match; the ``regex`` search that follows is unchanged, so matches, counts, spans and
excerpts are exactly those of searching every pattern. Skipped patterns are those that cannot
match; only they are spared their search (and so can no longer run out of time on a text where
they could not have matched anyway).

Soundness rests on three facts: the literal characters are ASCII letters, digits and
punctuation; for each of them, RE2's case-insensitive literal accepts every character that
``regex``'s ``IGNORECASE`` accepts (tests/text/test_prefilter.py checks this against every
code point); and patterns with flags that change what a literal matches (full case folding,
verbose mode, version 1 syntax, ...) get no literal. A property test compares prefiltered
and full searches on generated patterns and texts.
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from typing import Any

import regex

__all__ = ["LiteralPrefilter", "required_literal"]

# Characters taken as literals: unambiguous in both engines, and with case pairs only among
# ASCII letters, the Kelvin sign, the long s and the Turkish i's (see _RE2_EXTRA).
_LITERAL_CHARS = frozenset(string.ascii_letters + string.digits + " !\"%&',-/:;<=>@_`~")
# Escapes standing for themselves: a backslash before ASCII punctuation.
_ESCAPED_LITERALS = frozenset(string.punctuation)
# Escapes that match no character or one character from a class, and take no argument.
_SIMPLE_ESCAPES = frozenset("bBdDwWsSAZGmMX")
# Flags under which a literal still matches exactly what RE2's case-insensitive literal does
# (or less); anything else (VERBOSE, FULLCASE, V1, fuzzy matching, LOCALE, ...) gives up.
_ALLOWED_FLAGS = (
    regex.IGNORECASE
    | regex.V0
    | regex.UNICODE
    | regex.ASCII
    | regex.WORD
    | regex.MULTILINE
    | regex.DOTALL
)
# Group openers after "(?" that start an ordinary or look-around group; inline flags and
# comments ("(?i)", "(?x:", "(?#") give up.
_GROUP_OPENERS = frozenset(":=!<>P|(")
# Bounds that keep an RE2 set's automaton small (its memory is capped; a set that ran out
# would report no match). Longer lists are split over several sets.
_MAX_SET_CHARS = 2000
# Below this many patterns the searches cost less than importing RE2 for a cold start (the
# prefilter saves about 2 µs per skipped pattern and surface).
_MIN_PATTERNS = 4


class _GiveUp(Exception):
    pass


def _skip_class(pattern: str, index: int) -> int:
    """Index after the character class opening at ``index``; gives up on nested sets."""
    index += 1
    if index < len(pattern) and pattern[index] == "^":
        index += 1
    if index < len(pattern) and pattern[index] == "]":
        index += 1
    while index < len(pattern):
        char = pattern[index]
        if char == "\\":
            index += 2
        elif char == "[":
            raise _GiveUp  # POSIX classes and nested sets: not worth reading
        elif char == "]":
            return index + 1
        else:
            index += 1
    raise _GiveUp


def _skip_group(pattern: str, index: int) -> int:
    """Index after the group opening at ``index``."""
    depth = 0
    while index < len(pattern):
        char = pattern[index]
        if char == "\\":
            index += 2
            continue
        if char == "[":
            index = _skip_class(pattern, index)
            continue
        if char == "(":
            if pattern.startswith("(?", index) and (
                index + 2 >= len(pattern) or pattern[index + 2] not in _GROUP_OPENERS
            ):
                raise _GiveUp
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return index + 1
        index += 1
    raise _GiveUp


def _runs(pattern: str) -> list[str]:
    """Runs of literal characters that every match contains, each contiguous."""
    runs: list[str] = []
    current: list[str] = []

    def end_run() -> None:
        if current:
            runs.append("".join(current))
            current.clear()

    index = 0
    while index < len(pattern):
        char = pattern[index]
        if char in "?*{":
            # The previous item is optional or repeated: drop it if it was a literal.
            if current:
                current.pop()
            end_run()
            if char == "{":
                close = pattern.find("}", index)
                if close < 0:
                    raise _GiveUp
                index = close + 1
            else:
                index += 1
            continue
        if char == "+":
            end_run()  # one or more: the item stays required, the next is not adjacent
            index += 1
            continue
        if char == "|":
            raise _GiveUp  # top-level alternation: no literal is required by every branch
        if char == "\\":
            if index + 1 >= len(pattern):
                raise _GiveUp
            follower = pattern[index + 1]
            if follower in _ESCAPED_LITERALS:
                current.append(follower)
            elif follower in _SIMPLE_ESCAPES:
                end_run()
            else:
                raise _GiveUp
            index += 2
            continue
        if char == "(":
            end_run()
            index = _skip_group(pattern, index)
            continue
        if char == "[":
            end_run()
            index = _skip_class(pattern, index)
            continue
        if char == ")":
            raise _GiveUp
        if char in _LITERAL_CHARS:
            current.append(char)
        else:
            end_run()  # ".", "^", "$", "]", "}", "#", non-ASCII, whitespace other than space
        index += 1
    end_run()
    return runs


def required_literal(compiled: regex.Pattern[str]) -> str | None:
    """The longest run of literal characters every match of ``compiled`` contains, if any.

    Matched case-insensitively; ``None`` when the pattern is outside the subset read here.
    """
    if compiled.flags & ~_ALLOWED_FLAGS:
        return None
    try:
        runs = _runs(compiled.pattern)
    except _GiveUp:
        return None
    return max(runs, key=len) if runs else None


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
        literals = [required_literal(pattern) for pattern in patterns]
        self._always = frozenset(i for i, literal in enumerate(literals) if literal is None)
        with_literal = [(i, lit) for i, lit in enumerate(literals) if lit is not None]
        if not with_literal:
            return
        try:
            import re2
        except ImportError:  # without google-re2 every pattern is searched
            self._always = frozenset(range(len(patterns)))
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
