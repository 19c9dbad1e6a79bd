"""Segmenters: how text under the ``text`` profile is cut into tokens (SPEC §4, §19).

``words`` (the default) is §4's word token. ``icu`` is ICU's word-break iterator
(dictionary-based for Han, kana, Thai, Lao, Khmer and Myanmar), from the optional
``icu4py`` package: a token is an ICU word segment holding at least one letter (general
category L*, as ``str.isalpha`` reads it). ``icu4py`` is imported by :func:`icu_segmenter`
alone, when a contract asks for it, never by importing textcontract.

ICU counts offsets in UTF-16 code units, which differ from Python's code points past the
BMP (an emoji, U+20000). Segments are taken from ICU as strings, cut by ICU itself, and
never by its offsets, so nothing has to be converted and nothing can be cut in two.
"""

from __future__ import annotations

import importlib
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import ClassVar

from textcontract.text._pieces import PIECE
from textcontract.text._tokens import word_tokens

__all__ = [
    "ICU_EXTRA",
    "LOCALE_SYNTAX",
    "SEGMENTER_NAMES",
    "WORDS",
    "IcuSegmenter",
    "Segmenter",
    "SegmenterUnavailable",
    "WordSegmenter",
    "icu_segmenter",
]

ICU_EXTRA = "icu"
"""The optional extra that brings the ``icu`` segmenter: ``pip install 'textcontract[icu]'``."""

LOCALE_SYNTAX = re.compile(r"(?:root|[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*)\Z")
"""A locale id as ICU reads it: ``root``, or a language with optional script, region and
variant subtags (``ja``, ``zh_Hant``, ``th-TH``)."""


class SegmenterUnavailable(Exception):
    """A segmenter's library cannot be imported (its optional extra is not installed)."""


class Segmenter(ABC):
    """Cuts text already under the ``text`` profile into tokens, repeats included."""

    name: ClassVar[str]
    every_script: ClassVar[bool]
    """Whether its tokens are right in every script; when not, token rules measure the
    share of scripts written without spaces and refuse a surface where it is high (§4)."""

    @abstractmethod
    def tokens(self, normalized: str) -> tuple[str, ...]:
        """The tokens of ``normalized``, in text order."""

    @property
    def icu_version(self) -> str | None:
        """The version of ICU whose data the tokens depend on, if any (``engine.icu``)."""
        return None


@dataclass(frozen=True)
class WordSegmenter(Segmenter):
    """§4's word tokens: runs of ``\\w+(?:['’]\\w+)*`` holding a letter."""

    name: ClassVar[str] = "words"
    every_script: ClassVar[bool] = False

    def tokens(self, normalized: str) -> tuple[str, ...]:
        return word_tokens(normalized)


WORDS = WordSegmenter()

SEGMENTER_NAMES = (WordSegmenter.name, "icu")


@dataclass(frozen=True)
class IcuSegmenter(Segmenter):
    """ICU word-break segments holding a letter, for one locale (``root`` by default)."""

    name: ClassVar[str] = "icu"
    every_script: ClassVar[bool] = True

    locale: str
    version: str
    breaker: Callable[[str, str], Iterable[str]] = field(compare=False, repr=False)
    """``icu4py.breakers.WordBreaker``: called with a text and a locale, it yields the text's
    segments as strings."""
    piece: int = field(default=PIECE, compare=False, repr=False)

    @property
    def icu_version(self) -> str | None:
        return self.version

    def tokens(self, normalized: str) -> tuple[str, ...]:
        if len(normalized) <= self.piece:
            return tuple(self._tokens(normalized))
        # A long text a piece at a time, equal tokens sharing one string (as word tokens do).
        shared: dict[str, str] = {}
        return tuple(
            shared.setdefault(token, token)
            for piece in line_pieces(normalized, self.piece)
            for token in self._tokens(piece)
        )

    def _tokens(self, text: str) -> list[str]:
        try:
            segments = self.breaker(text, self.locale)
        except UnicodeEncodeError:
            # icu4py reads text as UTF-8, which has no lone surrogates. A lone surrogate
            # (category Cs) is no letter and breaks as "any other character" would: in its
            # place U+FFFD, also no letter, leaves every token that holds a letter as it is.
            segments = self.breaker(_without_lone_surrogates(text), self.locale)
        # Most segments are a word (all letters) or one space or punctuation mark (no letter):
        # a segment of several characters, not all letters, is the rare one looked into.
        return [
            segment
            for segment in segments
            if segment.isalpha() or (len(segment) > 1 and _has_letter(segment))
        ]


def _has_letter(segment: str) -> bool:
    return any(map(str.isalpha, segment))


@cache
def _lone_surrogate() -> re.Pattern[str]:
    # compiled on first use: a class of 2,048 code points is slow to compile, and only ICU's
    # segmenter needs it
    return re.compile("[\ud800-\udfff]")


def _without_lone_surrogates(text: str) -> str:
    return _lone_surrogate().sub("\ufffd", text)


def line_pieces(text: str, size: int) -> Iterator[str]:
    """``text`` in consecutive slices, each but the last ending with a line feed.

    Each slice holds at least ``size`` code points, except the last. ICU's word breaks
    always fall both before and after a line feed (rules WB3a and WB3b of UAX #29 come
    before every rule that joins characters, and a dictionary run never holds one), and a
    cut right after it never splits CR LF, so the segments of the slices are those of the
    whole text.
    """
    start = 0
    while len(text) - start > size:
        cut = text.find("\n", start + size - 1)
        if cut < 0:
            break
        yield text[start : cut + 1]
        start = cut + 1
    if start < len(text) or start == 0:
        yield text[start:]


def icu_segmenter(locale: str = "root") -> IcuSegmenter:
    """The ``icu`` segmenter for ``locale``; :class:`SegmenterUnavailable` without icu4py."""
    try:
        breakers = importlib.import_module("icu4py.breakers")
        version = importlib.import_module("icu4py._version").icu_version
    except ImportError:
        raise SegmenterUnavailable(
            "the icu segmenter needs icu4py, which cannot be imported here: install the"
            f" optional extra {ICU_EXTRA!r} (pip install 'textcontract[{ICU_EXTRA}]')"
        ) from None
    return IcuSegmenter(locale=locale, version=str(version), breaker=breakers.WordBreaker)
