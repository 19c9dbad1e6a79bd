"""A reader of ``regex`` pattern syntax: the literal characters of a pattern, or nothing.

The ``regex`` package has no public parser, so this module reads pattern sources itself. It is
the one reader behind the literal prefilter (``_prefilter.py``: which literal runs every match
must contain) and ``lint``'s dead-pattern check (which literal characters normalized text can
never hold). It follows the decisions of ``regex``'s own parser (``_regex_core.py``, version 0
syntax) step by step, and **gives up** — :func:`parse_pattern` returns ``None`` — on anything it
does not reproduce exactly:

* version 1 syntax, full case folding, locale matching and fuzzy constraints (``{e<=1}``);
* inline ``a``, ``u`` and ``L`` flags, conditionals, group calls and recursion, control verbs
  (``(*PRUNE)``), ``\\G``, ``\\K``, ``\\L<name>``, ``\\R``, ``\\X``, ``\\g<name>``, POSIX classes
  (``[[:alpha:]]``);
* groups nested more than 40 deep;
* a pattern that ``regex`` does not compile with the given flags.

What it does reproduce: literals and single-character escapes (``\\.``, ``\\é``, ``\\x41``,
``\\u00e9``, ``\\U000000e9``, ``\\N{…}``, octal ``\\0``, ``\\101``), ``{`` read as a quantifier
exactly when ``regex`` reads it so and as a literal otherwise (``dear {a|b}`` is the two
branches ``dear {a`` and ``b}``), character classes (members, ranges, class escapes,
negation), class escapes (``\\d``, ``\\p{L}``, ``\\pL``), anchors and word boundaries, groups
(capturing, named, non-capturing, atomic, branch reset, lookarounds), comments, backreferences,
quantifiers with their lazy and possessive forms, and the flags ``i``, ``m``, ``s``, ``w``,
``x`` and ``V0`` — inline, scoped (``(?x:…)``) or positional (``a(?x) b``: from there to the end
of the group), with verbose mode's whitespace and ``#`` comments.
The search-strategy flags ``b``, ``e``, ``p`` and ``r`` are accepted and have no effect here:
they change how matches are searched for, not how the pattern reads or what a literal matches.
(The literal prefilter still passes over patterns with them: it checks compiled flags first.)
"""

from __future__ import annotations

import string
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum

import regex

__all__ = [
    "Atom",
    "CharSet",
    "Group",
    "GroupKind",
    "LiteralChar",
    "LiteralRun",
    "ParsedPattern",
    "PatternNode",
    "Repeat",
    "literal_runs",
    "parse_pattern",
    "required_runs",
]

# Flags that change how a match is searched for — best fuzzy match, enhanced fuzzy match,
# leftmost longest, from the end — but neither how the pattern is read nor which characters
# a literal matches: the reader accepts them and ignores them.
_STRATEGY_FLAGS = regex.BESTMATCH | regex.ENHANCEMATCH | regex.POSIX | regex.REVERSE
# Flags this reader reproduces, given to ``compile`` or set inline.
_UNDERSTOOD_FLAGS = (
    regex.IGNORECASE
    | regex.MULTILINE
    | regex.DOTALL
    | regex.WORD
    | regex.VERBOSE
    | regex.ASCII
    | regex.UNICODE
    | regex.V0
    | _STRATEGY_FLAGS
)
_INLINE_FLAGS = {
    "i": regex.IGNORECASE,
    "m": regex.MULTILINE,
    "s": regex.DOTALL,
    "w": regex.WORD,
    "x": regex.VERBOSE,
    "V0": regex.V0,
    "b": regex.BESTMATCH,
    "e": regex.ENHANCEMATCH,
    "p": regex.POSIX,
    "r": regex.REVERSE,
}
# Every letter regex reads as an inline flag (a flag set ends at the first other character).
_REGEX_FLAG_NAMES = frozenset("abefiLmprsuwx") | {"V0", "V1"}
_CASE_FLAGS = regex.IGNORECASE | regex.ASCII

_DIGITS = frozenset(string.digits)
_OCTAL = frozenset(string.octdigits)
_HEX = frozenset(string.hexdigits)
_ALPHA = frozenset(string.ascii_letters)
_NAMED_CHAR_PART = _ALPHA | _DIGITS | frozenset(" -")
_PROPERTY_NAME_PART = _ALPHA | _DIGITS | frozenset(" &_-.")
_PROPERTY_VALUE_PART = _ALPHA | _DIGITS | frozenset(" &_-./")
_HEX_LENGTHS = {"x": 2, "u": 4, "U": 8}
# Deepest group nesting read: deeper patterns are given up on, so that reading them, and
# walking what was read, stays far below Python's recursion limit wherever it is called from.
_MAX_DEPTH = 40
_POSITION_ESCAPES = frozenset("AbBmMZz")
_CLASS_ESCAPES = frozenset("dDhsSwW")
_CONTROL_ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}
_REFUSED_ESCAPES = frozenset("gGKLRX")
_SHORT_PROPERTIES = frozenset("CLMNPSZ")
_QUANTIFIERS: dict[str, tuple[int, int | None]] = {"?": (0, 1), "*": (0, None), "+": (1, None)}
# After a "{" that is no quantifier, regex tries a fuzzy constraint; one can only start here.
_FUZZY_START = _DIGITS | frozenset("deis")


class GroupKind(StrEnum):
    CAPTURE = "capture"
    PLAIN = "non-capturing"
    ATOMIC = "atomic"
    BRANCH_RESET = "branch reset"
    LOOKAHEAD = "lookahead"
    NEGATIVE_LOOKAHEAD = "negative lookahead"
    LOOKBEHIND = "lookbehind"
    NEGATIVE_LOOKBEHIND = "negative lookbehind"


@dataclass(frozen=True, slots=True)
class LiteralChar:
    """One literal character; ``offset`` is where its syntax starts in the source.

    ``flags`` are the case flags in effect there (``regex.IGNORECASE``, ``regex.ASCII``).
    """

    char: str
    offset: int
    flags: int


@dataclass(frozen=True, slots=True)
class CharSet:
    """A character class ``[…]``: one character from a set.

    ``members`` are the single characters it lists; ``complete`` is false when it also holds
    ranges or class escapes, whose characters are not listed.
    """

    members: tuple[LiteralChar, ...]
    negated: bool
    complete: bool
    offset: int


@dataclass(frozen=True, slots=True)
class Atom:
    """Syntax that matches no literal text: ``.``, a class escape (``\\d``, ``\\p{L}``) or a
    backreference (``zero_width`` false); an anchor or word boundary (``zero_width`` true)."""

    offset: int
    zero_width: bool


@dataclass(frozen=True, slots=True)
class Group:
    kind: GroupKind
    branches: tuple[tuple[PatternNode, ...], ...]
    offset: int


@dataclass(frozen=True, slots=True)
class Repeat:
    """``item`` repeated ``minimum`` to ``maximum`` times (``None``: no limit)."""

    item: PatternNode
    minimum: int
    maximum: int | None


PatternNode = LiteralChar | CharSet | Atom | Group | Repeat


@dataclass(frozen=True, slots=True)
class ParsedPattern:
    """A pattern read into its alternatives, each a sequence of nodes."""

    source: str
    flags: int
    branches: tuple[tuple[PatternNode, ...], ...]


@dataclass(frozen=True, slots=True)
class LiteralRun:
    """Literal characters that stand side by side in the pattern (one, for a class member)."""

    chars: tuple[LiteralChar, ...]
    in_class: bool = False

    @property
    def text(self) -> str:
        return "".join(literal.char for literal in self.chars)


class _GiveUp(Exception):
    """The pattern uses syntax this reader does not reproduce."""


def parse_pattern(
    source: str, flags: int = regex.IGNORECASE, *, compiled: bool = False
) -> ParsedPattern | None:
    """``source`` read as ``regex.compile(source, flags)`` reads it; ``None`` when not understood.

    ``flags`` are those given to ``compile`` (the rules compile with ``regex.IGNORECASE``).
    ``compiled`` says the caller has compiled ``source`` with ``flags`` already, so it is
    not compiled again to learn whether it compiles (regex caches 500 patterns only).
    """
    if flags & ~_UNDERSTOOD_FLAGS or regex.DEFAULT_VERSION != regex.V0:
        return None
    if not compiled:
        try:
            regex.compile(source, flags)
        except Exception:
            return None
    try:
        branches = _Reader(source, flags).whole()
    except _GiveUp:
        return None
    return ParsedPattern(source, flags, branches)


def literal_runs(source: str, flags: int = regex.IGNORECASE) -> tuple[LiteralRun, ...] | None:
    """The literal runs of ``source``, in source order; ``None`` when not understood.

    A run is a maximal sequence of literal characters side by side under the same case flags;
    any syntax between two literals ends a run. A quantified character (``é?``, ``a{2}``) is a
    run of its own, and so is each listed member of a class that is not negated. Runs inside
    groups, alternatives and lookarounds are included.
    """
    parsed = parse_pattern(source, flags)
    if parsed is None:
        return None
    return tuple(_branch_runs(parsed.branches))


def required_runs(
    source: str, flags: int = regex.IGNORECASE, *, compiled: bool = False
) -> tuple[str, ...] | None:
    """Runs of literal characters that every match of ``source`` contains, each contiguous.

    Read from the pattern's only branch (none when it has several), through groups matched
    in place and the first repetition of a repeat; optional parts, alternatives, look-arounds,
    classes and anchors end a run. ``None`` when the pattern is not understood. A literal
    under case-insensitive matching may match in another case. ``compiled``: as for
    :func:`parse_pattern`.
    """
    parsed = parse_pattern(source, flags, compiled=compiled)
    if parsed is None:
        return None
    if len(parsed.branches) != 1:
        return ()
    collector = _RequiredRuns()
    collector.sequence(parsed.branches[0])
    collector.end()
    return tuple(collector.runs)


# Groups whose single branch is matched in place, so its literals join their neighbours'.
_IN_PLACE = frozenset(
    {GroupKind.CAPTURE, GroupKind.PLAIN, GroupKind.ATOMIC, GroupKind.BRANCH_RESET}
)


class _RequiredRuns:
    def __init__(self) -> None:
        self.runs: list[str] = []
        self._current: list[str] = []

    def end(self) -> None:
        if self._current:
            self.runs.append("".join(self._current))
            self._current = []

    def sequence(self, items: tuple[PatternNode, ...]) -> None:
        for item in items:
            if isinstance(item, LiteralChar):
                self._current.append(item.char)
            elif isinstance(item, Group) and item.kind in _IN_PLACE and len(item.branches) == 1:
                self.sequence(item.branches[0])
            elif isinstance(item, Repeat) and item.minimum >= 1:
                # The first repetition is required and follows what precedes it; what
                # follows the repeat is not next to it.
                self.sequence((item.item,))
                self.end()
            else:
                self.end()  # optional, alternative, look-around, class, anchor


def _branch_runs(branches: tuple[tuple[PatternNode, ...], ...]) -> Iterator[LiteralRun]:
    for branch in branches:
        yield from _sequence_runs(branch)


def _sequence_runs(items: tuple[PatternNode, ...]) -> Iterator[LiteralRun]:
    current: list[LiteralChar] = []
    for item in items:
        if isinstance(item, LiteralChar) and (not current or current[-1].flags == item.flags):
            current.append(item)
            continue
        if current:
            yield LiteralRun(tuple(current))
            current = []
        if isinstance(item, LiteralChar):
            current.append(item)
        else:
            yield from _node_runs(item)
    if current:
        yield LiteralRun(tuple(current))


def _node_runs(node: PatternNode) -> Iterator[LiteralRun]:
    if isinstance(node, LiteralChar):
        yield LiteralRun((node,))
    elif isinstance(node, CharSet):
        if not node.negated:
            yield from (LiteralRun((member,), in_class=True) for member in node.members)
    elif isinstance(node, Group):
        yield from _branch_runs(node.branches)
    elif isinstance(node, Repeat):
        yield from _node_runs(node.item)


class _Scanner:
    """The pattern source and a position, read as ``regex``'s ``Source`` reads it."""

    def __init__(self, source: str, flags: int) -> None:
        self.source = source
        self.pos = 0
        self.flags = flags
        self.depth = -1  # groups open around the position (the pattern itself is not one)

    @property
    def verbose(self) -> bool:
        return bool(self.flags & regex.VERBOSE)

    def _skip(self, pos: int) -> int:
        """Past whitespace and ``#`` comments at ``pos`` in verbose mode."""
        source = self.source
        while pos < len(source):
            if source[pos].isspace():
                pos += 1
            elif source[pos] == "#":
                end = source.find("\n", pos)
                pos = len(source) if end < 0 else end
            else:
                break
        return pos

    def get(self, raw: bool = False) -> str:
        """The next character (``""`` at the end); verbose mode skips space unless ``raw``."""
        pos = self._skip(self.pos) if self.verbose and not raw else self.pos
        if pos >= len(self.source):
            self.pos = len(self.source)
            return ""
        self.pos = pos + 1
        return self.source[pos]

    def peek(self) -> str:
        saved = self.pos
        char = self.get()
        self.pos = saved
        return char

    def match(self, text: str) -> bool:
        saved = self.pos
        for expected in text:
            if self.get() != expected:
                self.pos = saved
                return False
        return True

    def expect(self, text: str) -> None:
        if not self.match(text):
            raise _GiveUp

    def get_while(
        self, chars: frozenset[str], include: bool = True, keep_spaces: bool = False
    ) -> str:
        taken: list[str] = []
        while True:
            saved = self.pos
            char = self.get(raw=keep_spaces)
            if not char or (char in chars) != include:
                self.pos = saved
                return "".join(taken)
            taken.append(char)

    def at_end(self) -> bool:
        return self.peek() == ""

    def case_flags(self) -> int:
        return self.flags & _CASE_FLAGS


class _Reader(_Scanner):
    """Recursive descent over the pattern, one method per construct of ``regex``'s parser."""

    def whole(self) -> tuple[tuple[PatternNode, ...], ...]:
        branches = self.alternation()
        if not self.at_end():
            raise _GiveUp  # an unbalanced ")" (compile would have refused it)
        return branches

    def alternation(self) -> tuple[tuple[PatternNode, ...], ...]:
        self.depth += 1
        if self.depth > _MAX_DEPTH:
            raise _GiveUp
        branches = [self.sequence()]
        while self.match("|"):
            branches.append(self.sequence())
        self.depth -= 1
        return tuple(branches)

    def sequence(self) -> tuple[PatternNode, ...]:
        items: list[PatternNode | None] = [None]  # None: nothing a quantifier may repeat
        while True:
            start = self.pos
            char = self.get()
            if char in ("", ")", "|"):
                self.pos = start
                break
            if char in _QUANTIFIERS or char == "{":
                self.quantified(items, char, start)
            else:
                node = self.item(char, start)
                if node is not None:  # comments and positional flags add nothing
                    items.append(node)
        return tuple(item for item in items if item is not None)

    def item(self, char: str, start: int) -> PatternNode | None:
        if char == "\\":
            return self.escape(start, in_set=False)
        if char == "(":
            return self.paren(start)
        if char == "[":
            return self.char_set(start)
        if char == ".":
            return Atom(start, zero_width=False)
        if char in ("^", "$"):
            return Atom(start, zero_width=True)
        return LiteralChar(char, start, self.case_flags())

    def quantified(self, items: list[PatternNode | None], char: str, start: int) -> None:
        counts = _QUANTIFIERS.get(char) or self.counted()
        if counts is None:
            # regex then tries a fuzzy constraint, and failing that reads "{" as a literal.
            if self.peek() in _FUZZY_START:
                raise _GiveUp
            items.append(LiteralChar(char, start, self.case_flags()))
            return
        item = items.pop()
        if item is None or isinstance(item, Repeat):
            raise _GiveUp  # "nothing to repeat", "multiple repeat": compile refuses these
        saved = self.pos
        if self.get() not in ("?", "+"):  # lazy and possessive forms repeat the same
            self.pos = saved
        minimum, maximum = counts
        items.append(item if minimum == maximum == 1 else Repeat(item, minimum, maximum))
        items.append(None)

    def counted(self) -> tuple[int, int | None] | None:
        """The bounds of ``{m,n}`` after its ``{``, or ``None`` (position unchanged)."""
        saved = self.pos
        low = self.get_while(_DIGITS)
        if self.match(","):
            high = self.get_while(_DIGITS)
            counts = (int(low or 0), int(high) if high else None)
        elif low:
            counts = (int(low), int(low))
        else:
            self.pos = saved
            return None
        if not self.match("}"):
            self.pos = saved
            return None
        return counts

    # --- escapes ------------------------------------------------------------------------

    def escape(self, start: int, in_set: bool) -> PatternNode:
        char = self.get(raw=True)
        if not char or (char in _REFUSED_ESCAPES and not in_set):
            raise _GiveUp
        if char in _HEX_LENGTHS:
            return self.literal(self.hex_digits(_HEX_LENGTHS[char]), start)
        if char == "N":
            return self.named_char(start)
        if char in ("p", "P"):
            return self.property(char, start)
        if char in _ALPHA:
            return self.letter_escape(char, start, in_set)
        if char in _DIGITS:
            return self.numeric_escape(char, start, in_set)
        return self.literal(char, start)

    def literal(self, char: str, start: int) -> LiteralChar:
        return LiteralChar(char, start, self.case_flags())

    def hex_digits(self, count: int) -> str:
        digits = "".join(self.get() for _ in range(count))
        if len(digits) != count or not set(digits) <= _HEX or int(digits, 16) > 0x10FFFF:
            raise _GiveUp
        return chr(int(digits, 16))

    def named_char(self, start: int) -> LiteralChar:
        saved = self.pos
        if self.match("{"):
            name = self.get_while(_NAMED_CHAR_PART, keep_spaces=True)
            if self.match("}"):
                try:
                    return self.literal(unicodedata.lookup(name), start)
                except KeyError:
                    raise _GiveUp from None
        self.pos = saved
        return self.literal("N", start)

    def property(self, letter: str, start: int) -> PatternNode:
        saved = self.pos
        char = self.get()
        if char == "{":
            self.match("^")
            self.property_name()
            if self.match("}"):
                return Atom(start, zero_width=False)
        elif char and char in _SHORT_PROPERTIES:
            return Atom(start, zero_width=False)
        self.pos = saved  # not a property: the letter itself
        return self.literal(letter, start)

    def property_name(self) -> None:
        self.get_while(_PROPERTY_NAME_PART)
        saved = self.pos
        char = self.get()
        if char in (":", "=") and self.get_while(_PROPERTY_VALUE_PART).strip():
            saved = self.pos
        self.pos = saved

    def letter_escape(self, char: str, start: int, in_set: bool) -> PatternNode:
        if not in_set and char in _POSITION_ESCAPES:
            return Atom(start, zero_width=True)
        if char in _CLASS_ESCAPES:
            return Atom(start, zero_width=False)
        if char in _CONTROL_ESCAPES:  # regex gives these no case flags outside a class
            return LiteralChar(_CONTROL_ESCAPES[char], start, self.case_flags() if in_set else 0)
        raise _GiveUp  # a bad escape: compile refuses it

    def numeric_escape(self, char: str, start: int, in_set: bool) -> PatternNode:
        if in_set or char == "0":
            return self.octal([char], start)
        digits = char
        saved = self.pos
        following = self.get()
        if following in _DIGITS:
            digits += following
            saved = self.pos
            third = self.get()
            if set(digits) <= _OCTAL and third in _OCTAL and third:
                mask = 0xFF if self.flags & regex.ASCII else 0x1FF
                return self.literal(chr(int(digits + third, 8) & mask), start)
        self.pos = saved
        return Atom(start, zero_width=False)  # a backreference

    def octal(self, digits: list[str], start: int) -> LiteralChar:
        saved = self.pos
        char = self.get()
        while len(digits) < 3 and char and char in _OCTAL:
            digits.append(char)
            saved = self.pos
            char = self.get()
        self.pos = saved
        if not set(digits) <= _OCTAL:
            raise _GiveUp
        return self.literal(chr(int("".join(digits), 8)), start)

    # --- groups -------------------------------------------------------------------------

    def paren(self, start: int) -> PatternNode | None:
        saved = self.pos
        char = self.get(raw=True)
        if char == "?":
            return self.extension(start)
        if char == "*":
            raise _GiveUp  # a control verb
        self.pos = saved
        return self.group(GroupKind.CAPTURE, start)

    def extension(self, start: int) -> PatternNode | None:
        after_mark = self.pos
        char = self.get(raw=True)
        if char == "<":
            return self.angle_group(start)
        if char in ("=", "!"):
            kind = GroupKind.LOOKAHEAD if char == "=" else GroupKind.NEGATIVE_LOOKAHEAD
            return self.group(kind, start)
        if char == "P":
            return self.python_extension(start)
        if char == "#":
            self.comment()
            return None
        if char == ">":
            return self.group(GroupKind.ATOMIC, start)
        if char == "|":
            return self.branch_reset(start)
        self.pos = after_mark
        return self.flag_group(start)

    def angle_group(self, start: int) -> PatternNode:
        saved = self.pos
        char = self.get()
        if char in ("=", "!"):
            kind = GroupKind.LOOKBEHIND if char == "=" else GroupKind.NEGATIVE_LOOKBEHIND
            return self.group(kind, start)
        self.pos = saved
        self.name(">")
        return self.group(GroupKind.CAPTURE, start)

    def python_extension(self, start: int) -> PatternNode:
        char = self.get()
        if char == "<":
            self.name(">")
            return self.group(GroupKind.CAPTURE, start)
        if char == "=":
            self.name(")")
            return Atom(start, zero_width=False)  # a named backreference
        raise _GiveUp  # (?P>name): a group call

    def name(self, closing: str) -> None:
        if not self.get_while(frozenset(")>"), include=False):
            raise _GiveUp
        self.expect(closing)

    def comment(self) -> None:
        while True:
            saved = self.pos
            char = self.get(raw=True)
            if not char or char == ")":
                break
            if char == "\\":
                self.get(raw=True)
        self.pos = saved
        self.expect(")")

    def group(self, kind: GroupKind, start: int) -> Group:
        saved = self.flags
        try:
            branches = self.alternation()
            self.expect(")")
        finally:
            self.flags = saved
        return Group(kind, branches, start)

    def branch_reset(self, start: int) -> Group:
        # regex keeps positional flags set inside "(?|…)" after it: no save and restore here.
        branches = self.alternation()
        self.expect(")")
        return Group(GroupKind.BRANCH_RESET, branches, start)

    def flag_group(self, start: int) -> PatternNode | None:
        turned_on = self.flag_set()
        turned_off = self.flag_set() if self.match("-") else 0
        if self.match(":"):
            saved = self.flags
            self.flags = (self.flags | turned_on) & ~turned_off
            try:
                branches = self.alternation()
                self.expect(")")
            finally:
                self.flags = saved
            return Group(GroupKind.PLAIN, branches, start)
        self.expect(")")
        self.flags = (self.flags | turned_on) & ~turned_off  # to the end of the group
        return None

    def flag_set(self) -> int:
        flags = 0
        while True:
            saved = self.pos
            name = self.get()
            if name == "V":
                name += self.get()
            if name not in _REGEX_FLAG_NAMES:
                self.pos = saved
                return flags
            if name not in _INLINE_FLAGS:
                raise _GiveUp
            flags |= _INLINE_FLAGS[name] & ~regex.V0  # V0 is the version in use already

    # --- character classes --------------------------------------------------------------

    def char_set(self, start: int) -> CharSet:
        saved = self.flags
        self.flags &= ~regex.VERBOSE  # space is literal inside a class
        try:
            negated = self.match("^")
            members: list[LiteralChar] = []
            complete = self.set_member(members)
            while not self.match("]"):
                complete = self.set_member(members) and complete
        finally:
            self.flags = saved
        return CharSet(tuple(members), negated, complete, start)

    def set_member(self, members: list[LiteralChar]) -> bool:
        """Read one member (a character, a range or a class escape); false unless a character."""
        first = self.set_item()
        if not isinstance(first, LiteralChar):
            return False
        if not self.match("-"):
            members.append(first)
            return True
        after_dash = self.pos
        if self.match("]"):
            self.pos = after_dash
            members.extend((first, LiteralChar("-", after_dash - 1, first.flags)))
            return True
        last = self.set_item()
        if not isinstance(last, LiteralChar):
            members.extend((first, LiteralChar("-", after_dash - 1, first.flags)))
            return False
        if first.char == last.char:
            members.append(first)
            return True
        return False  # a range

    def set_item(self) -> PatternNode:
        start = self.pos
        if self.match("\\"):
            return self.escape(start, in_set=True)
        if self.source.startswith("[:", self.pos):
            raise _GiveUp  # a POSIX class, or a "[" that regex reads after trying one
        char = self.get()
        if not char:
            raise _GiveUp
        return LiteralChar(char, start, self.case_flags())
