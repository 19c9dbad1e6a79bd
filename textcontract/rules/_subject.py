"""What rules read during one check run, with each surface normalized at most once."""

from __future__ import annotations

from collections.abc import Sequence

from textcontract._lines import LineCounter
from textcontract.model import PLAIN, Context, Document, Surface, TextLocation
from textcontract.rules._patterns import Candidates, PatternTable
from textcontract.text import (
    WORDS,
    Layout,
    OffsetMap,
    Profile,
    ScriptShare,
    Segmenter,
    View,
    fold_text,
    layout_of,
    normalize,
    profiles,
    unspaced_share,
    unsupported_share,
)

__all__ = ["Subject", "ViewKey", "view_key"]

ViewKey = tuple[frozenset[str], frozenset[str]]
"""What a rule reads of a markup surface (SPEC §18): the kinds, and the containers prose
must be within (empty: anywhere). ``None`` stands for ``read: raw``, the text as written."""


def view_key(read: object, within: object) -> ViewKey | None:
    """The view a rule's ``read`` and ``within`` options name (None: the raw text)."""
    if read is None or read == "raw":
        return None
    assert isinstance(read, tuple)
    containers: tuple[str, ...] = tuple(within) if isinstance(within, tuple | list) else ()
    return frozenset(read), frozenset(containers)


class Subject:
    """A (document, context) pair plus per-run caches shared by every rule.

    SPEC §4 promises one normalization per surface and profile per check run, and §18 one
    markup parse per surface: the caches here are those promises. Every text a rule reads
    is a surface's raw text or one of its views (``view``: a :data:`ViewKey`, None for the
    raw text); each is normalized at most once per profile. A Subject lives for one run.
    """

    __slots__ = (
        "_candidates",
        "_history",
        "_layouts",
        "_lines",
        "_normalized",
        "_offset_maps",
        "_shares",
        "_token_sets",
        "_tokens",
        "_unsupported",
        "_views",
        "context",
        "document",
    )

    def __init__(self, document: Document, context: Context) -> None:
        self.document = document
        self.context = context
        self._normalized: dict[tuple[str, Profile, ViewKey | None], str] = {}
        self._tokens: dict[tuple[str, Segmenter, ViewKey | None], tuple[str, ...]] = {}
        self._token_sets: dict[tuple[str, Segmenter, ViewKey | None], frozenset[str]] = {}
        self._shares: dict[tuple[str, ViewKey | None], ScriptShare] = {}
        self._unsupported: dict[tuple[str, ViewKey | None], ScriptShare | None] = {}
        self._history: dict[Segmenter, dict[tuple[str, ...], int]] = {}
        self._offset_maps: dict[tuple[str, Profile, ViewKey | None], OffsetMap] = {}
        self._lines: dict[str, LineCounter] = {}
        self._candidates: dict[tuple[str, Profile, PatternTable, ViewKey | None], Candidates] = {}
        self._layouts: dict[str, Layout] = {}
        self._views: dict[tuple[str, ViewKey], View] = {}

    @staticmethod
    def reads(surface: Surface, view: ViewKey | None) -> ViewKey | None:
        """``view``, or None when it is the surface's raw text: a ``plain`` surface is all
        prose in one paragraph, so a view of its prose is its text."""
        if view is None:
            return None
        kinds, within = view
        if surface.format == PLAIN and "prose" in kinds and (not within or "paragraph" in within):
            return None
        return view

    def layout(self, surface: Surface) -> Layout:
        """The surface's markup, parsed once per run (and only when a view is read)."""
        found = self._layouts.get(surface.name)
        if found is None:
            found = self._layouts[surface.name] = layout_of(surface.text, surface.format)
        return found

    def view(self, surface: Surface, view: ViewKey) -> View:
        """The characters of ``view``'s kinds (and containers) with their map back."""
        key = (surface.name, view)
        found = self._views.get(key)
        if found is None:
            found = self._views[key] = self.layout(surface).view(*view)
        return found

    def text(self, surface: Surface, view: ViewKey | None = None) -> str:
        """The surface's raw text, or the view's text."""
        view = self.reads(surface, view)
        return surface.text if view is None else self.view(surface, view).text

    def normalized(self, surface: Surface, profile: Profile, view: ViewKey | None = None) -> str:
        view = self.reads(surface, view)
        key = (surface.name, profile, view)
        text = self._normalized.get(key)
        if text is None:
            text_key = (surface.name, Profile.TEXT, view)
            if profile is Profile.TEXT:
                text = normalize(self.text(surface, view), profile)
            elif text_key in self._normalized:
                # Derived from the text profile already there (the same result).
                text = fold_text(self._normalized[text_key])
            else:  # both at once, for the cost of one (token rules need the text profile)
                self._normalized[text_key], text = profiles(self.text(surface, view))
            self._normalized[key] = text
        return text

    def candidates(
        self,
        surface: Surface,
        profile: Profile,
        table: PatternTable,
        view: ViewKey | None = None,
    ) -> Candidates:
        """Which patterns of ``table`` can match the surface's ``profile`` text (or view).

        Asked once per surface, profile and table however many rules share the table (one
        per profile and view in a contract): the prefilter runs once over the text.
        """
        view = self.reads(surface, view)
        key = (surface.name, profile, table, view)
        if key in self._candidates:
            return self._candidates[key]
        found = table.candidates(self.normalized(surface, profile, view))
        self._candidates[key] = found
        return found

    def offset_map(
        self, surface: Surface, profile: Profile, view: ViewKey | None = None
    ) -> OffsetMap:
        """The normalized text (of the view) mapped back to the text it normalizes (built
        on demand).

        Only rules with located evidence ask for it, so a surface whose checks point at
        nothing never pays for it.
        """
        view = self.reads(surface, view)
        key = (surface.name, profile, view)
        found = self._offset_maps.get(key)
        if found is None:
            normalized = self.normalized(surface, profile, view)
            found = OffsetMap(self.text(surface, view), normalized, profile)
            self._offset_maps[key] = found
        return found

    def locate(
        self,
        surface: Surface,
        profile: Profile,
        spans: Sequence[tuple[int, int]],
        view: ViewKey | None = None,
    ) -> list[TextLocation]:
        """Where each normalized ``[start, end)`` of ``profile`` comes from (SPEC §10),
        through both maps for a view (SPEC §18: view → surface text → file)."""
        view = self.reads(surface, view)
        found = self.offset_map(surface, profile, view).spans(spans)
        if view is not None:
            back = self.view(surface, view).map
            found = [back.span(start, end) for start, end in found]
        return self.locate_original(surface, found)

    def locate_view(
        self, surface: Surface, view: ViewKey | None, spans: Sequence[tuple[int, int]]
    ) -> list[TextLocation]:
        """Where each ``[start, end)`` of the (unnormalized) view text comes from."""
        view = self.reads(surface, view)
        found = list(spans)
        if view is not None:
            back = self.view(surface, view).map
            found = [back.span(start, end) for start, end in found]
        return self.locate_original(surface, found)

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

    def tokens(
        self, surface: Surface, segmenter: Segmenter = WORDS, view: ViewKey | None = None
    ) -> tuple[str, ...]:
        """The surface's (view's) tokens under ``segmenter`` (text profile), cut once per run."""
        key = (surface.name, segmenter, self.reads(surface, view))
        tokens = self._tokens.get(key)
        if tokens is None:
            tokens = segmenter.tokens(self.normalized(surface, Profile.TEXT, view))
            self._tokens[key] = tokens
        return tokens

    def token_set(
        self, surface: Surface, segmenter: Segmenter = WORDS, view: ViewKey | None = None
    ) -> frozenset[str]:
        key = (surface.name, segmenter, self.reads(surface, view))
        found = self._token_sets.get(key)
        if found is None:
            found = frozenset(self.tokens(surface, segmenter, view))
            self._token_sets[key] = found
        return found

    def script_share(self, surface: Surface, view: ViewKey | None = None) -> ScriptShare:
        key = (surface.name, self.reads(surface, view))
        share = self._shares.get(key)
        if share is None:
            share = unspaced_share(self.normalized(surface, Profile.TEXT, view))
            self._shares[key] = share
        return share

    def unsupported_share(
        self, surface: Surface, view: ViewKey | None = None
    ) -> ScriptShare | None:
        """The surface's (view's) script share when it makes token rules undetermined."""
        key = (surface.name, self.reads(surface, view))
        if key in self._unsupported:
            return self._unsupported[key]
        share = self._shares.get(key)
        if share is not None:
            found = share if share.unsupported else None
        else:
            found = unsupported_share(self.normalized(surface, Profile.TEXT, view))
        self._unsupported[key] = found
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
