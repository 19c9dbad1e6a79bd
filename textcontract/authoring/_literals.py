"""The literal characters of a ``regex`` pattern, found by a small tokenizer.

The ``regex`` package has no public parser, so lint reads pattern sources with
this tokenizer. It returns *runs*: characters that must appear next to each
other, in order, in any text the pattern matches. A run ends at any syntax
(groups, alternation, anchors, ``.``, class escapes such as ``\\d``); a
quantified character (``a*``, ``a{2}``) is a run of its own, because it may be
repeated or absent. Every member of a character class is a one-character run
(``in_class``), except in negated classes (``[^é]`` matches nearly anything)
and ranges (``[à-ÿ]`` spans characters that do survive normalization).

Escapes that denote one character count as literals: ``\\é``, ``\\.``,
``\\xe9``, ``\\x{e9}``, ``\\u00e9``, ``\\U000000e9``, ``\\N{LATIN SMALL LETTER E
WITH ACUTE}``, octal ``\\0351``. What it does not understand, and skips:

* version-1 set operations inside classes (``[[a-z]--[aeiou]]``) and POSIX
  classes (``[[:alpha:]]``): the whole class is left unanalysed;
* scoped inline flags: ``(?-i:É)`` turns case-insensitivity off, but every
  literal is judged as if matching ignored case;
* verbose mode (``(?x)``) is honoured for whitespace and ``#`` comments outside
  classes, wherever the flag group appears;
* fuzzy constraints (``{e<=1}``) are skipped like quantifiers, although a fuzzy
  match could tolerate a dead character.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

__all__ = ["Literal", "literal_runs"]


@dataclass(frozen=True)
class Literal:
    """One literal character and its offset in the pattern source."""

    char: str
    offset: int
    in_class: bool = False


_QUANTIFIER = re.compile(r"\{\s*(?:\d+\s*(?:,\s*\d*\s*)?|,\s*\d+\s*)\}")
_FUZZY = re.compile(r"\{(?=[^{}]*\b[eisd]\b)[eisd0-9<=>+\-*,\s]+\}")
_VERBOSE_FLAG = re.compile(r"\(\?[a-zA-Z]*x[a-zA-Z]*\)")
_VERSION1_FLAG = re.compile(r"\(\?[a-zA-Z]*V1[a-zA-Z]*[):]")
_FLAGS = re.compile(r"[a-zA-Z01]*(?:-[a-zA-Z01]+)?(?=[):])")
_HEX = {"x": 2, "u": 4, "U": 8}
_CONTROL = {"a": "\a", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}
_OCTAL = re.compile(r"[0-7]{1,3}")
_DIGITS = re.compile(r"\d+")


def _skip_to(source: str, index: int, stop: str) -> int:
    """The index just after the first ``stop`` at or after ``index`` (or the end)."""
    found = source.find(stop, index)
    return len(source) if found < 0 else found + 1


def _escape(source: str, index: int) -> tuple[str | None, int]:
    """Decode the escape at ``index`` (a backslash): the character it denotes, or None."""
    end = len(source)
    if index + 1 >= end:
        return None, end
    letter = source[index + 1]
    after = index + 2
    if letter in _HEX:
        if letter == "x" and after < end and source[after] == "{":
            close = _skip_to(source, after, "}")
            digits = source[after + 1 : close - 1]
        else:
            close = after + _HEX[letter]
            digits = source[after:close]
        try:
            return chr(int(digits, 16)), close
        except ValueError:
            return None, close
    if letter == "N" and after < end and source[after] == "{":
        close = _skip_to(source, after, "}")
        try:
            return unicodedata.lookup(source[after + 1 : close - 1]), close
        except KeyError:
            return None, close
    if letter in "pP":
        if after < end and source[after] == "{":
            return None, _skip_to(source, after, "}")
        return None, after + 1
    if letter in "gL" and after < end and source[after] == "<":
        return None, _skip_to(source, after, ">")
    if letter.isdigit():
        # \0, \0NN and three octal digits are characters; anything else is a backreference
        octal = _OCTAL.match(source, index + 1)
        if octal is not None and (letter == "0" or len(octal.group()) == 3):
            return chr(int(octal.group(), 8)), octal.end()
        reference = _DIGITS.match(source, index + 1)
        return None, reference.end() if reference is not None else after
    if letter in _CONTROL:
        return _CONTROL[letter], after
    if letter.isascii() and letter.isalpha():
        return None, after  # \b \d \w \s \A \Z \G \K \m \M \X …: syntax, not a character
    return letter, after


def _character_class(source: str, index: int, version1: bool) -> tuple[list[Literal], int]:
    """The members worth judging in the class at ``index`` (a ``[``), and where it ends."""
    end = len(source)
    position = index + 1
    negated = position < end and source[position] == "^"
    if negated:
        position += 1
    members: list[Literal] = []
    opaque = negated
    first = True
    while position < end:
        char = source[position]
        if char == "]" and not first:
            position += 1
            break
        first = False
        if char == "[" and (version1 or source.startswith("[:", position)):
            # nested set or POSIX class: too much syntax to judge members safely,
            # so skip to the end of the outer class
            depth = 2
            position += 1
            while position < end and depth:
                if source[position] == "\\":
                    position += 2
                    continue
                if source.startswith("[:", position):
                    position = _skip_to(source, position, "]")
                    continue
                depth += {"[": 1, "]": -1}.get(source[position], 0)
                position += 1
            return [], position
        start = position
        if char == "\\":
            decoded, position = _escape(source, position)
        else:
            decoded, position = char, position + 1
        if (
            position < end - 1
            and source[position] == "-"
            and source[position + 1] != "]"
            and decoded is not None
        ):
            # a range: skip its upper bound too; the range spans live characters
            position += 1
            if source[position] == "\\":
                _, position = _escape(source, position)
            else:
                position += 1
            continue
        if decoded is not None:
            members.append(Literal(decoded, start, in_class=True))
    return ([] if opaque else members), position


def _group_open(source: str, index: int) -> int:
    """The index after the syntax that opens the group at ``index`` (a ``(``)."""
    end = len(source)
    if index + 1 >= end or source[index + 1] != "?":
        return index + 1
    position = index + 2
    rest = source[position:]
    if rest.startswith("#"):
        return _skip_to(source, position, ")")
    if rest.startswith(("P<", "<")) and not rest.startswith(("<=", "<!")):
        return _skip_to(source, position, ">")
    if rest.startswith(("P=", "P>", "&", "(")) or (
        rest[:1] == "R" or rest[:1].isdigit() or (rest[:1] in "+-" and rest[1:2].isdigit())
    ):
        return _skip_to(source, position, ")")
    for opener in ("<=", "<!", ":", "=", "!", ">", "|"):
        if rest.startswith(opener):
            return position + len(opener)
    flags = _FLAGS.match(source, position)
    if flags is not None:
        return flags.end() + 1
    return position


def literal_runs(source: str) -> list[tuple[Literal, ...]]:
    """The runs of literal characters in ``source`` (see the module docstring)."""
    verbose = _VERBOSE_FLAG.search(source) is not None
    version1 = _VERSION1_FLAG.search(source) is not None
    runs: list[tuple[Literal, ...]] = []
    current: list[Literal] = []

    def close_run() -> None:
        if current:
            runs.append(tuple(current))
            current.clear()

    def quantified() -> None:
        if current:
            last = current.pop()
            close_run()
            runs.append((last,))

    position = 0
    end = len(source)
    while position < end:
        char = source[position]
        if verbose and char.isspace():
            position += 1
        elif verbose and char == "#":
            position = _skip_to(source, position, "\n")
        elif char == "\\":
            decoded, position_after = _escape(source, position)
            if decoded is None:
                close_run()
            else:
                current.append(Literal(decoded, position))
            position = position_after
        elif char == "[":
            close_run()
            members, position = _character_class(source, position, version1)
            runs.extend((member,) for member in members)
        elif char == "(":
            close_run()
            position = _group_open(source, position)
        elif char in ")|^$.":
            close_run()
            position += 1
        elif char in "*+?":
            quantified()
            position += 1
            while position < end and source[position] in "?+":
                position += 1
        elif char == "{" and (
            (match := _QUANTIFIER.match(source, position) or _FUZZY.match(source, position))
            is not None
        ):
            quantified()
            position = match.end()
            while position < end and source[position] in "?+":
                position += 1
        else:
            current.append(Literal(char, position))
            position += 1
    close_run()
    return runs
