"""Text surgery shared by operators: insertion points, sentences, normalized spans mapped back.

Nothing here evaluates a contract: it places text, splits text, and finds where a pattern's
match in normalized text lies in the original (to delete it).
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass

import regex

from textcontract.mutate._choice import Chooser
from textcontract.text import Profile, normalize

__all__ = [
    "TextMap",
    "insert",
    "insertion_points",
    "paragraphs",
    "sentences",
]

_PARAGRAPH_BREAK = regex.compile(r"\n[ \t]*\n\s*")
_SENTENCE_END = regex.compile(r"(?<=[.!?])\s+(?=\S)")


def paragraphs(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each paragraph: runs of text between blank lines."""
    spans: list[tuple[int, int]] = []
    start = 0
    for found in _PARAGRAPH_BREAK.finditer(text):
        if found.start() > start:
            spans.append((start, found.start()))
        start = found.end()
    end = len(text.rstrip())
    if end > start:
        spans.append((start, end))
    return spans


def insertion_points(text: str) -> list[int]:
    """Where a new paragraph (or, in one-line text, a new sentence) may go: the start, the
    start of each later paragraph, and the end."""
    starts = [start for start, _ in paragraphs(text)]
    points = [0, *starts[1:], len(text)]
    return sorted(set(points))


def insert(text: str, snippet: str, chooser: Chooser, *labels: object) -> str:
    """``text`` with ``snippet`` added as a paragraph of its own (a sentence of its own in
    one-line text) at a seeded insertion point."""
    points = insertion_points(text)
    point = chooser.pick(points, "insert", *labels)
    if "\n" not in text.strip():
        if point == 0:
            return f"{snippet} {text}" if text else snippet
        body = text.rstrip()
        return f"{body} {snippet}{text[len(body) :]}" if body else snippet
    body = text.rstrip()
    if point >= len(body):
        return f"{body}\n\n{snippet}{text[len(body) :]}"
    return f"{text[:point]}{snippet}\n\n{text[point:]}"


def sentences(text: str) -> list[str]:
    """The sentences of ``text`` (split after ``.``, ``!`` or ``?`` and white space)."""
    return [part for part in _SENTENCE_END.split(text.strip()) if part]


@dataclass(frozen=True)
class _Segment:
    """A stretch of the original text and its normalized form: ``exact`` when every character
    maps to one (ASCII, lower-cased), else one unit (a character and its marks) mapped whole."""

    original: int
    normalized: int
    length: int
    exact: bool


# What is normalized unit by unit: a non-ASCII character or any character with marks after it.
_UNIT = regex.compile(r"[^\x00-\x7f]\p{M}*|[\x00-\x7f]\p{M}+")


class TextMap:
    """Spans of a text's normalized form mapped back to the original text.

    The text is cut into units — a character and the combining marks after it — and each
    non-ASCII unit is normalized alone (an ASCII character is its lower case under both
    profiles). When the units' normalized forms joined equal the normalized whole (true of
    nearly all text; Hangul jamo sequences are an exception), every normalized offset
    belongs to one unit; otherwise :meth:`build` returns ``None``.
    """

    def __init__(self, normalized: str, segments: list[_Segment]) -> None:
        self.normalized = normalized
        self._segments = segments
        self._starts = [segment.normalized for segment in segments]

    @classmethod
    def build(cls, text: str, profile: Profile) -> TextMap | None:
        whole = normalize(text, profile)
        if text.isascii():
            return cls(whole, [_Segment(0, 0, len(text), True)])
        segments: list[_Segment] = []
        pieces: list[str] = []
        position = 0
        done = 0
        for found in _UNIT.finditer(text):
            if found.start() > done:
                stretch = text[done : found.start()]
                segments.append(_Segment(done, position, len(stretch), True))
                pieces.append(stretch.lower())
                position += len(stretch)
            piece = normalize(found.group(), profile)
            segments.append(_Segment(found.start(), position, found.end() - found.start(), False))
            pieces.append(piece)
            position += len(piece)
            done = found.end()
        if done < len(text):
            segments.append(_Segment(done, position, len(text) - done, True))
            pieces.append(text[done:].lower())
        if "".join(pieces) != whole:
            return None
        return cls(whole, [segment for segment in segments if segment.length or not segment.exact])

    def _original(self, offset: int) -> tuple[int, int]:
        """The original span of the unit holding normalized ``offset``."""
        segment = self._segments[bisect.bisect_right(self._starts, offset) - 1]
        if segment.exact:
            start = segment.original + offset - segment.normalized
            return start, start + 1
        return segment.original, segment.original + segment.length

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """The original span covering the normalized span ``[start, end)`` (``end`` > ``start``)."""
        return self._original(start)[0], self._original(end - 1)[1]
