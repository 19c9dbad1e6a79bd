"""Text surgery shared by operators: insertion points, sentences, normalized spans mapped back.

Nothing here evaluates a contract: it places text, splits text, and finds where a pattern's
match in normalized text lies in the original (to delete it).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
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
class _Unit:
    original: tuple[int, int]
    normalized: tuple[int, int]


class TextMap:
    """Spans of a text's normalized form mapped back to the original text.

    The text is cut into units — a character and the combining marks after it — and each
    unit is normalized alone. When the units' normalized forms joined equal the normalized
    whole (true of nearly all text; Hangul jamo sequences are an exception), every normalized
    offset belongs to one unit; otherwise :meth:`build` returns ``None``.
    """

    def __init__(self, normalized: str, units: list[_Unit]) -> None:
        self.normalized = normalized
        self._units = units

    @classmethod
    def build(cls, text: str, profile: Profile) -> TextMap | None:
        whole = normalize(text, profile)
        if text.isascii():
            units = [_Unit((i, i + 1), (i, i + 1)) for i in range(len(text))]
            return cls(whole, units)
        units = []
        pieces = []
        position = 0
        for start, end in _clusters(text):
            piece = normalize(text[start:end], profile)
            pieces.append(piece)
            units.append(_Unit((start, end), (position, position + len(piece))))
            position += len(piece)
        if "".join(pieces) != whole:
            return None
        return cls(whole, units)

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """The original span covering the normalized span ``[start, end)`` (``end`` > ``start``)."""
        first = next(unit for unit in self._units if unit.normalized[1] > start)
        last = next(unit for unit in reversed(self._units) if unit.normalized[0] < end)
        return first.original[0], last.original[1]


def _clusters(text: str) -> Iterator[tuple[int, int]]:
    start = 0
    for index in range(1, len(text) + 1):
        if index == len(text) or not unicodedata.combining(text[index]):
            if index > start:
                yield start, index
            start = index
