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

One prefilter serves every pattern rule of a contract that reads one normalization profile
(:mod:`textcontract.rules._patterns`): its RE2 sets are built on the first text it is asked
about, not when the contract loads, so commands that check nothing never pay for them; or
later, with ``build_after``: until the texts it was asked about add up to that many
pattern-characters (a text's length times the number of patterns), it answers "every
pattern" — the plain path, exact as always.

Soundness rests on three facts: a required run is read from the pattern's only branch, through
groups matched in place, never from an optional or alternative part; its characters are ASCII,
and for each of them RE2's case-insensitive literal accepts every character that ``regex``'s
``IGNORECASE`` accepts (tests/text/test_prefilter.py checks this against every code point);
and patterns with flags that change what a literal matches (full case folding, version 1,
fuzzy matching, ...) or how the pattern is read (verbose mode set outside the pattern) get no
literal. Property tests compare prefiltered and full searches on generated patterns and texts.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, NamedTuple

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
# The usual pattern: words and word boundaries, nothing else. Every character here stands for
# itself in regex's syntax outside a class (verbose mode is refused by the flags), so its runs
# are the pieces between the ``\b``s — what the reader finds, without reading (tested against
# it). Saves the reader's time for the thousands of patterns of a long word list.
_WORDS_AND_BOUNDARIES = re.compile(r"(?:\\b|[A-Za-z0-9 _,;:'\"!%&/=<>@~`-])+")


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
    if compiled.flags & ~_ALLOWED_FLAGS or regex.DEFAULT_VERSION != regex.V0:
        return None
    source = compiled.pattern
    if _WORDS_AND_BOUNDARIES.fullmatch(source):
        pieces = [piece for piece in source.split("\\b") if piece]
        return max(pieces, key=len) if pieces else None
    # The reader loads on first use (a few milliseconds): most checks never need it.
    from textcontract.text._regex_literals import required_runs

    runs = required_runs(source, compiled.flags, compiled=True)
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


class _Plan(NamedTuple):
    """A built prefilter: the patterns always searched and the RE2 sets for the others."""

    always: frozenset[int]
    sets: tuple[tuple[Any, tuple[int, ...]], ...]


class LiteralPrefilter:
    """Selects, for one text, the patterns of a list that can match it.

    The RE2 sets are built on first use, or, with ``build_after``, once the texts asked
    about (this one included) add up to that many pattern-characters (length times the
    number of patterns); until then every pattern is searched. ``candidates`` gives the
    indexes of the patterns that can match, or ``None`` when every pattern must be searched.
    """

    __slots__ = ("_build_after", "_patterns", "_plan", "_searched")

    def __init__(self, patterns: Sequence[regex.Pattern[str]], build_after: int = 0) -> None:
        self._patterns = tuple(patterns)
        self._plan: _Plan | None = None
        self._build_after = build_after
        self._searched = 0  # pattern-characters answered with "every pattern" so far

    def __reduce__(self) -> tuple[Any, ...]:
        # RE2 sets cannot be pickled (contracts travel to worker processes): rebuilt there.
        return (LiteralPrefilter, (self._patterns, self._build_after))

    def __len__(self) -> int:
        return len(self._patterns)

    @property
    def active(self) -> bool:
        """Whether any pattern can be skipped at all (builds the sets)."""
        return bool(self._built().sets)

    def _built(self) -> _Plan:
        plan = self._plan
        if plan is None:
            # Two threads may both build it: the plans are equal, either one is kept.
            plan = self._plan = _build(self._patterns)
        return plan

    def candidates(self, text: str) -> frozenset[int] | None:
        """Indexes of the patterns that can match ``text``; ``None``: every pattern."""
        if self._plan is None and self._build_after:
            searched = self._searched + len(text) * len(self._patterns)
            if searched < self._build_after:  # (two threads may both count: either is exact)
                self._searched = searched
                return None
        plan = self._built()
        if not plan.sets:
            return None
        try:
            encoded = text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: search everything
            return None
        chosen = set(plan.always)
        for matcher, indexes in plan.sets:
            found = matcher.Match(encoded)
            if found:
                chosen.update([indexes[position] for position in found])
        if len(chosen) == len(self._patterns):
            return None
        return frozenset(chosen)

    def select(self, items: Sequence[Any], text: str) -> Sequence[Any]:
        """The items of ``items`` (parallel to the pattern list) that can match ``text``."""
        chosen = self.candidates(text)
        if chosen is None:
            return items
        return [item for index, item in enumerate(items) if index in chosen]


def _build(patterns: tuple[regex.Pattern[str], ...]) -> _Plan:
    everything = frozenset(range(len(patterns)))
    if len(patterns) < _MIN_PATTERNS:
        return _Plan(everything, ())
    try:
        import re2
    except ImportError:  # without google-re2 every pattern is searched
        return _Plan(everything, ())
    literals = [required_literal(pattern) for pattern in patterns]
    always = frozenset(i for i, literal in enumerate(literals) if literal is None)
    with_literal = [(i, lit) for i, lit in enumerate(literals) if lit is not None]
    if not with_literal:
        return _Plan(always, ())
    options = re2.Options()
    options.case_sensitive = False
    chunks: list[list[tuple[int, str]]] = [[]]
    size = 0
    for item in with_literal:
        if chunks[-1] and size + len(item[1]) > _MAX_SET_CHARS:
            chunks.append([])
            size = 0
        chunks[-1].append(item)
        size += len(item[1])
    sets = []
    for chunk in chunks:
        matcher = _compile_set(re2, options, chunk)
        if matcher is None:  # too big for RE2's memory cap: these patterns are searched
            always |= {index for index, _ in chunk}
        else:
            sets.append((matcher, tuple(index for index, _ in chunk)))
    return _Plan(always, tuple(sets))


def _compile_set(re2: Any, options: Any, chunk: list[tuple[int, str]]) -> Any:
    """An RE2 set of the chunk's literals, or ``None`` when RE2 cannot build it."""
    matcher = re2.Set.SearchSet(options)
    try:
        for _, literal in chunk:
            matcher.Add(_re2_literal(literal))
        matcher.Compile()
    except re2.error:
        return None
    return matcher
