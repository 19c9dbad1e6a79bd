"""Compiling a user's pattern without letting it take the process down.

``regex.compile`` raises more than ``regex.error`` on patterns a user can write: a pattern
nested a few hundred groups deep exhausts Python's recursion limit in regex's parser
(``RecursionError``), ``(?au)`` is a ``ValueError``, and a large counted repeat makes regex's
compiler allocate memory in proportion to its minimum count — about 260 bytes per copy, so
``a{100000000}`` asks for some 26 GB and is killed by the operating system before any
``MemoryError`` can be caught. :func:`compile_pattern` turns all of these into
:class:`PatternRejected`, which the contract loader reports at the pattern's place.

The repeat cost is estimated from the source before compiling (:func:`repeat_copies`):
the sum, over counted repeats, of the product of the minimum counts of the repeats it sits
in (``(?:a{1000}){1000}`` counts a million copies; ``a{1000}b{1000}`` two thousand; ``{0,n}``,
``*``, ``+`` and ``?`` none). The estimate never counts fewer copies than regex builds: where
the reader below cannot tell the structure for certain (verbose mode, version 1 sets), it
multiplies every minimum count together.
"""

from __future__ import annotations

import regex

__all__ = ["MAX_REPEAT_COPIES", "PatternRejected", "compile_pattern", "repeat_copies"]

MAX_REPEAT_COPIES = 100_000
"""Most repeat copies a pattern may make regex build (about 26 MB of compiled pattern)."""

_QUANTIFIER = regex.compile(r"\{(\d*)(?:,\d*)?\}")
# An inline flag group that turns on verbose mode or version 1 syntax, where ``#`` comments
# and nested sets hide parentheses from the plain reading below.
_HARD_FLAGS = regex.compile(r"\(\?[a-zA-Z0-9^-]*(?:x|V1)")
_POSIX_CLASS = regex.compile(r"\[:\^?[A-Za-z_]*:\]")


class PatternRejected(Exception):
    """A pattern that cannot be compiled, with the reason in words."""


def compile_pattern(source: str, flags: int = regex.IGNORECASE) -> regex.Pattern[str]:
    """``source`` compiled with ``flags``, or :class:`PatternRejected` saying why not."""
    copies = repeat_copies(source, flags)
    if copies > MAX_REPEAT_COPIES:
        raise PatternRejected(
            f"its counted repeats would make the regex package build over {MAX_REPEAT_COPIES} "
            "copies of what they repeat (the minimum counts of nested repeats multiply); "
            "lower the minimum counts"
        )
    try:
        return regex.compile(source, flags)
    except regex.error as exc:
        raise PatternRejected(str(exc)) from None
    except RecursionError:
        raise PatternRejected("groups are nested too deeply for the regex package") from None
    except MemoryError:
        raise PatternRejected("the regex package ran out of memory compiling it") from None
    except (ValueError, OverflowError, TypeError) as exc:
        raise PatternRejected(str(exc) or type(exc).__name__) from None


def repeat_copies(source: str, flags: int = 0) -> int:
    """An upper estimate of the repeat copies regex builds for ``source`` (see the module),
    at most ``MAX_REPEAT_COPIES + 1``."""
    if _QUANTIFIER.search(source) is None:
        return 0
    if flags & (regex.VERBOSE | regex.V1) or _HARD_FLAGS.search(source):
        copies = _all_nested(source)
    else:
        copies = _Reader(source).copies()
    return min(copies, MAX_REPEAT_COPIES + 1)


def _all_nested(source: str) -> int:
    """Every minimum count multiplied together, as if each repeat held all the earlier ones."""
    copies = 0
    for found in _QUANTIFIER.finditer(source):
        copies = max(int(found.group(1) or 0), 1) * (copies + 1)
        if copies > MAX_REPEAT_COPIES:
            break
    return copies


class _Reader:
    """Groups and counted repeats of a version-0, non-verbose pattern.

    Escapes, ``(?#…)`` comments and character classes are skipped (a class ends at its first
    unescaped ``]`` after the first member, as in version 0), so their parentheses and braces
    do not count; every ``{m}``, ``{m,}`` or ``{m,n}`` outside them counts as a repeat of what
    precedes it, even where regex would read it as literal text (an over-estimate).
    """

    def __init__(self, source: str) -> None:
        self._source = source
        # Per open group: copies counted inside it so far, and the copies of its last item.
        self._stack: list[list[int]] = [[0, 0]]

    def copies(self) -> int:
        source, pos = self._source, 0
        while pos < len(source):
            pos = self._step(source, pos)
        while len(self._stack) > 1:
            self._close()
        return self._stack[0][0]

    def _step(self, source: str, pos: int) -> int:
        char = source[pos]
        if char == "\\":
            self._item(0)
            return pos + 2
        if char == "[":
            self._item(0)
            return _class_end(source, pos)
        if source.startswith("(?#", pos):
            return _comment_end(source, pos + 3)
        if char == "(":
            self._stack.append([0, 0])
            return pos + 1
        if char == ")":
            self._close()
            return pos + 1
        found = _QUANTIFIER.match(source, pos) if char == "{" else None
        if found is not None:
            self._repeat(max(int(found.group(1) or 0), 1))
            return found.end()
        self._item(0)
        return pos + 1

    def _item(self, copies: int) -> None:
        top = self._stack[-1]
        top[0] += copies
        top[1] = copies

    def _repeat(self, count: int) -> None:
        top = self._stack[-1]
        last = top[1]
        repeated = min(count * (last + 1), MAX_REPEAT_COPIES + 1)
        top[0] += repeated - last
        top[1] = repeated

    def _close(self) -> None:
        if len(self._stack) == 1:  # an unmatched ")": treat what precedes it as one group
            self._stack.insert(0, [0, 0])
        inner = self._stack.pop()[0]
        self._item(inner)


def _comment_end(source: str, pos: int) -> int:
    """The position after the ``)`` ending a comment whose text starts at ``pos``."""
    while pos < len(source) and source[pos] != ")":
        pos += 2 if source[pos] == "\\" else 1
    return pos + 1


def _class_end(source: str, start: int) -> int:
    """The position after the class opening at ``start`` (its end, or the text's end)."""
    pos = start + 1
    if source.startswith("^", pos):
        pos += 1
    if source.startswith("]", pos):
        pos += 1
    while pos < len(source):
        char = source[pos]
        if char == "\\":
            pos += 2
            continue
        if char == "]":
            return pos + 1
        posix = _POSIX_CLASS.match(source, pos) if char == "[" else None
        pos = posix.end() if posix is not None else pos + 1
    return len(source)
