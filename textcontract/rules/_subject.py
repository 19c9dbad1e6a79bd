"""What rules read during one check run, with each surface normalized at most once."""

from __future__ import annotations

from collections.abc import Sequence

from textcontract._lines import LineCounter
from textcontract.model import Context, Document, Surface, TextLocation
from textcontract.rules._patterns import Candidates, PatternTable
from textcontract.text import (
    WORDS,
    OffsetMap,
    Profile,
    ScriptShare,
    Segmenter,
    fold_text,
    normalize,
    profiles,
    unspaced_share,
    unsupported_share,
)

__all__ = ["Subject"]


class Subject:
    """A (document, context) pair plus per-run caches shared by every rule.

    SPEC §4 promises one normalization per surface and profile per check run;
    the caches here are that promise. A Subject lives for one run only.
    """

    __slots__ = (
        "_candidates",
        "_history",
        "_lines",
        "_normalized",
        "_offset_maps",
        "_shares",
        "_token_sets",
        "_tokens",
        "_unsupported",
        "context",
        "document",
    )

    def __init__(self, document: Document, context: Context) -> None:
        self.document = document
        self.context = context
        self._normalized: dict[tuple[str, Profile], str] = {}
        self._tokens: dict[tuple[str, Segmenter], tuple[str, ...]] = {}
        self._token_sets: dict[tuple[str, Segmenter], frozenset[str]] = {}
        self._shares: dict[str, ScriptShare] = {}
        self._unsupported: dict[str, ScriptShare | None] = {}
        self._history: dict[Segmenter, dict[tuple[str, ...], int]] = {}
        self._offset_maps: dict[tuple[str, Profile], OffsetMap] = {}
        self._lines: dict[str, LineCounter] = {}
        self._candidates: dict[tuple[str, Profile, PatternTable], Candidates] = {}

    def normalized(self, surface: Surface, profile: Profile) -> str:
        key = (surface.name, profile)
        text = self._normalized.get(key)
        if text is None:
            if profile is Profile.TEXT:
                text = normalize(surface.text, profile)
            elif (surface.name, Profile.TEXT) in self._normalized:
                # Derived from the text profile already there (the same result).
                text = fold_text(self._normalized[(surface.name, Profile.TEXT)])
            else:  # both at once, for the cost of one (token rules need the text profile)
                self._normalized[(surface.name, Profile.TEXT)], text = profiles(surface.text)
            self._normalized[key] = text
        return text

    def candidates(self, surface: Surface, profile: Profile, table: PatternTable) -> Candidates:
        """Which patterns of ``table`` can match the surface's ``profile`` text.

        Asked once per surface, profile and table however many rules share the table (one
        per profile in a contract): the prefilter runs once over the text.
        """
        key = (surface.name, profile, table)
        if key in self._candidates:
            return self._candidates[key]
        found = self._candidates[key] = table.candidates(self.normalized(surface, profile))
        return found

    def offset_map(self, surface: Surface, profile: Profile) -> OffsetMap:
        """The surface's normalized text mapped back to its original text (built on demand).

        Only rules with located evidence ask for it, so a surface whose checks point at
        nothing never pays for it.
        """
        key = (surface.name, profile)
        found = self._offset_maps.get(key)
        if found is None:
            found = OffsetMap(surface.text, self.normalized(surface, profile), profile)
            self._offset_maps[key] = found
        return found

    def locate(
        self, surface: Surface, profile: Profile, spans: Sequence[tuple[int, int]]
    ) -> list[TextLocation]:
        """Where each normalized ``[start, end)`` of ``profile`` comes from (SPEC §10)."""
        return self.locate_original(surface, self.offset_map(surface, profile).spans(spans))

    def locate_original(
        self, surface: Surface, spans: Sequence[tuple[int, int]]
    ) -> list[TextLocation]:
        """The location of each ``[start, end)`` of the surface's original text.

        Lines are file lines when the surface's text is its file from a line on (a
        markdown body); otherwise they count from the surface text's first line.
        """
        places = self.line_counter(surface).positions(offset for span in spans for offset in span)
        origin = surface.origin
        shift = origin.line - 1 if origin.file_lines else 0
        name = surface.name
        return [
            TextLocation(
                name,
                start,
                end,
                places[start][0] + shift,
                places[start][1],
                places[end][0] + shift,
                places[end][1],
            )
            for start, end in spans
        ]

    def line_counter(self, surface: Surface) -> LineCounter:
        """Lines and columns of the surface's original text."""
        counter = self._lines.get(surface.name)
        if counter is None:
            counter = self._lines[surface.name] = LineCounter(surface.text)
        return counter

    def tokens(self, surface: Surface, segmenter: Segmenter = WORDS) -> tuple[str, ...]:
        """The surface's tokens under ``segmenter`` (text profile), cut once per run."""
        key = (surface.name, segmenter)
        tokens = self._tokens.get(key)
        if tokens is None:
            tokens = segmenter.tokens(self.normalized(surface, Profile.TEXT))
            self._tokens[key] = tokens
        return tokens

    def token_set(self, surface: Surface, segmenter: Segmenter = WORDS) -> frozenset[str]:
        key = (surface.name, segmenter)
        found = self._token_sets.get(key)
        if found is None:
            found = frozenset(self.tokens(surface, segmenter))
            self._token_sets[key] = found
        return found

    def script_share(self, surface: Surface) -> ScriptShare:
        share = self._shares.get(surface.name)
        if share is None:
            share = unspaced_share(self.normalized(surface, Profile.TEXT))
            self._shares[surface.name] = share
        return share

    def unsupported_share(self, surface: Surface) -> ScriptShare | None:
        """The surface's script share when it makes token rules undetermined, else None."""
        name = surface.name
        if name in self._unsupported:
            return self._unsupported[name]
        share = self._shares.get(name)
        if share is not None:
            found = share if share.unsupported else None
        else:
            found = unsupported_share(self.normalized(surface, Profile.TEXT))
        self._unsupported[name] = found
        return found

    def history_index(self, segmenter: Segmenter = WORDS) -> dict[tuple[str, ...], int]:
        """Each distinct token sequence of the context's history and its first index."""
        index = self._history.get(segmenter)
        if index is None:
            index = {}
            for position, text in enumerate(self.context.history):
                index.setdefault(segmenter.tokens(normalize(text, Profile.TEXT)), position)
            self._history[segmenter] = index
        return index
