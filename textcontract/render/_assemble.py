"""From marked output to a Document: strip the markers, record spans in the final text.

The rendered output is cut at the rendering's separator and read once, left to right.
Text between markers goes to the surface open at that point (``body`` outside
surface blocks); a claim's anchor is the text between its two markers, at the
offsets it has in its surface once every marker is gone. Markers that do not
pair up (a filter such as ``truncate`` cut one off), reserved code points that
are no marker of this rendering, and claims evaluated but never printed are
render errors, never a silently wrong span.

Two readers give the same Document: :meth:`_Assembly.read`, here, marker by marker, for
any output, and ``_fast.read_fast`` for the usual output — exactly the recorded markers
in the recorded order — which handles all markers at once with calls of builtins and
declines anything else. Tests hold the second against the first on generated templates.
"""

from __future__ import annotations

from functools import partial
from itertools import islice
from typing import Any

from textcontract.model import (
    BODY,
    PLAIN,
    Anchor,
    Document,
    FactValue,
    Surface,
    describe_value,
    is_valid_unicode,
    new_document,
    new_surface,
)
from textcontract.render._errors import RenderError, Site
from textcontract.render._fast import latin1, printed_as, read_fast
from textcontract.render._markers import (
    CLAIM_CLOSE,
    CLAIM_OPEN,
    ID_LENGTH,
    RESERVED,
    SURFACE_CLOSE,
    SURFACE_OPEN,
    decode_id,
)
from textcontract.render._recorder import Occurrence, Opening, Recorder

__all__ = ["ClaimTextChanged", "assemble", "checked_text"]

_AFTER_OPENING = 1 + ID_LENGTH
_anchor = partial(tuple.__new__, Anchor)  # Anchor((start, end, text)) at C speed


class _Builder:
    """One surface being put together."""

    __slots__ = (
        "anchors",
        "claims",
        "first",
        "format",
        "length",
        "more",
        "name",
        "opening",
        "pieces",
        "state",
    )

    def __init__(self, name: str, state: str, format: str, opening: Opening | None = None) -> None:
        self.name = name
        self.state = state
        self.format = format
        self.opening = opening
        self.pieces: list[str] = []
        self.length = 0
        self.claims: dict[str, FactValue] = {}
        self.first: dict[str, int] = {}  # the id of each key's first occurrence
        self.anchors: dict[str, tuple[Anchor, ...]] = {}  # a key's first anchor
        self.more: dict[str, list[Anchor]] = {}  # every anchor, for keys printed again

    def add(self, text: str) -> None:
        if text:
            self.pieces.append(text)
            self.length += len(text)

    def text(self) -> str:
        """The whole text, once reading is done (the pieces are joined into one)."""
        if len(self.pieces) != 1:
            self.pieces = ["".join(self.pieces)]
        return self.pieces[0]

    def says_nothing(self) -> bool:
        return not self.claims and not self.text().strip()

    def surface(self, site: Site) -> Surface:
        text = checked_text(self.text(), self.name, site)
        anchors = self.anchors
        for key, found in self.more.items():
            anchors[key] = tuple(found)
        return Surface(self.name, text, self.state, self.claims, anchors, format=self.format)


class _Assembly:
    def __init__(self, recorder: Recorder, state: str, template: Any, format: str = PLAIN) -> None:
        self.recorder = recorder
        self.state = state
        self.format = format
        self.template = template
        self.body = _Builder(BODY, state, format)
        self.current = self.body
        self.opened: dict[str, _Builder] = {}
        self.claim = -1  # after read(): the id of a claim whose output never ended, or -1
        self.printed: list[bool] = []  # read() only: which claims it has seen printed

    @property
    def site(self) -> Site:
        """The rendered template, for errors that no single claim or block is to blame for."""
        return Site(self.template)

    def read_fast(self, output: str) -> Document | None:
        """The fast path (``_fast.read_fast``): the Document of the usual output, else None."""
        return read_fast(output, self.recorder, self.state, self.format)

    # -- the general path -------------------------------------------------------------

    def read(self, output: str) -> Document:
        """Any output, one marker at a time."""
        parts = output.split(self.recorder.separator)
        count = self.recorder.count
        keys, values, texts = self.recorder.keys, self.recorder.values, self.recorder.texts
        self.printed = [False] * count
        self.current.add(parts[0])
        claim, piece, start = -1, 0, 0
        for part in islice(parts, 1, None):
            kind = part[:1]
            builder = self.current
            if kind == CLAIM_OPEN:
                ident = _ident(part)
                if claim >= 0 or not 0 <= ident < count:
                    raise self._misplaced(claim, ident, count)
                claim, piece, start = ident, len(builder.pieces), builder.length
                builder.add(part[_AFTER_OPENING:])
            elif kind == CLAIM_CLOSE:
                if claim < 0:
                    raise self._misplaced(claim, 0, count)
                text = "".join(builder.pieces[piece:])
                if not printed_as(text, texts[claim]):
                    raise ClaimTextChanged(claim, self.recorder.occurrence(claim), text)
                anchor = _anchor((start, builder.length, text))
                self._add_claim(builder, claim, keys[claim], values[claim], anchor)
                self.printed[claim] = True
                claim = -1
                builder.add(part[1:])
            elif kind in (SURFACE_OPEN, SURFACE_CLOSE):
                if claim >= 0:
                    raise _broken(self.recorder.occurrence(claim))
                self._surface_marker(kind, part)
            else:
                raise foreign(self.site)
        self.claim = claim
        return self._finish()

    def _surface_marker(self, kind: str, part: str) -> None:
        if kind == SURFACE_OPEN:
            ident = _ident(part)
            if not 0 <= ident < len(self.recorder.openings):
                raise foreign(self.site)
            self._open_surface(self.recorder.opening(ident))
            self.current.add(part[_AFTER_OPENING:])
        else:
            self._close_surface()
            self.current.add(part[1:])

    def _misplaced(self, claim: int, ident: int, count: int) -> RenderError:
        if claim >= 0:
            return _broken(self.recorder.occurrence(claim))
        if 0 <= ident < count:
            return RenderError(
                "the end of a claim appears where none is open: a filter moved or repeated "
                "part of a claim's output",
                self.site,
            )
        return foreign(self.site)

    # -- claims and surfaces ----------------------------------------------------------

    def _add_claim(
        self, builder: _Builder, ident: int, key: str, value: FactValue, anchor: Anchor
    ) -> None:
        claims = builder.claims
        if key not in claims:
            claims[key] = value
            builder.first[key] = ident
            builder.anchors[key] = (anchor,)
        else:
            known = claims[key]
            if type(known) is not type(value) or known != value:
                raise self._conflict(builder, ident)
            more = builder.more.get(key)
            if more is None:
                builder.more[key] = [*builder.anchors[key], anchor]
            else:
                more.append(anchor)

    def _conflict(self, builder: _Builder, ident: int) -> RenderError:
        occurrence = self.recorder.occurrence(ident)
        key = occurrence.key
        first = self.recorder.occurrence(builder.first[key])
        return RenderError(
            f"claim {key!r} = {describe_value(occurrence.value)} on surface {builder.name!r} "
            f"conflicts with {describe_value(first.value)} claimed at {first.site.describe()}",
            occurrence.site,
        )

    def _open_surface(self, opening: Opening) -> None:
        if self.current is not self.body:
            raise RenderError(
                f"surface {opening.name!r} opens inside surface {self.current.name!r}: "
                "surface blocks do not nest",
                opening.site,
            )
        earlier = self.opened.get(opening.name)
        if earlier is not None and earlier.opening is not None:
            raise RenderError(
                f"surface {opening.name!r} is rendered twice "
                f"(first at {earlier.opening.site.describe()})",
                opening.site,
            )
        builder = _Builder(
            opening.name, opening.state or self.state, opening.format or self.format, opening
        )
        self.opened[opening.name] = builder
        self.current = builder

    def _close_surface(self) -> None:
        if self.current is self.body:
            raise RenderError(
                "the end of a surface block appears where none is open: a filter moved or "
                "repeated the output of a {% surface %} block",
                self.site,
            )
        self.current = self.body

    def _finish(self) -> Document:
        if self.claim >= 0:
            raise _broken(self.recorder.occurrence(self.claim))
        if self.current is not self.body:
            opening = self.current.opening
            raise RenderError(
                f"surface {self.current.name!r} never ends: a filter cut off the end of its "
                "{% surface %} block",
                opening.site if opening is not None else self.site,
            )
        if not all(self.printed):
            occurrence = self.recorder.occurrence(self.printed.index(False))
            raise RenderError(
                f"claim {occurrence.key!r} was evaluated but its output is not in the "
                "rendered text (a filter, test or unprinted variable consumed it); "
                "a claim must be printed",
                occurrence.site,
            )
        site = self.site
        return Document(tuple(builder.surface(site) for builder in self._builders()))

    def _builders(self) -> list[_Builder]:
        """``body`` first (when it has anything to say), then surface blocks in order."""
        blocks = [builder for name, builder in self.opened.items() if name != BODY]
        explicit = self.opened.get(BODY)
        if explicit is not None:
            if not self.body.says_nothing():
                assert explicit.opening is not None
                raise RenderError(
                    'a {% surface "body" %} block and text outside surface blocks both '
                    "render surface 'body': put the body's text inside the block",
                    explicit.opening.site,
                )
            return [explicit, *blocks]
        if blocks and self.body.says_nothing():
            return blocks
        return [self.body, *blocks]


def _ident(part: str) -> int:
    """The id an opening marker's part carries after its kind, or -1 when it is no id."""
    return decode_id(part[1:_AFTER_OPENING])


class ClaimTextChanged(RenderError):
    """A filter or slice changed the text between a claim's markers (SPEC §22): the
    document would say something other than what was claimed. The error names the line
    where ``claim()`` was evaluated; ``render()`` then looks for the line that printed
    the changed text (``_locate``) and names that one instead."""

    def __init__(
        self, ident: int, occurrence: Occurrence, shown: str, site: Site | None = None
    ) -> None:
        super().__init__(
            f"the text of claim {occurrence.key!r} was changed after claim() printed it: "
            f"{_excerpt(occurrence.text)} became {_excerpt(shown)}; a claim's text must stand "
            "as claim() printed it (or HTML-escaped) — apply the filter or slice to the "
            "value inside claim(), or drop it",
            occurrence.site if site is None else site,
        )
        self.ident = ident
        self.occurrence = occurrence
        self.shown = shown


def _excerpt(text: str, limit: int = 60) -> str:
    return repr(text) if len(text) <= limit else repr(text[: limit - 1] + "…")


def _broken(occurrence: Occurrence) -> RenderError:
    return RenderError(
        f"the output of claim({occurrence.key!r}) was cut, moved or nested by a filter "
        "(truncate, wordwrap, reverse, …), so its place in the text is lost; apply such "
        "filters to the value inside claim(), or drop them",
        occurrence.site,
    )


def foreign(site: Site) -> RenderError:
    return RenderError(
        "the rendered text contains U+0000 (NUL), which textcontract.render reserves for its "
        "markers, outside any marker of this rendering: a variable holds it, or a filter "
        "broke a marker apart",
        site,
    )


def checked_text(text: str, surface: str, site: Site) -> str:
    """``text``, refused when it holds a reserved code point or a lone surrogate."""
    if RESERVED in text:
        raise foreign(site)
    if not latin1(text) and not is_valid_unicode(text):
        raise RenderError(
            f"the text of surface {surface!r} holds a lone surrogate (invalid Unicode)", site
        )
    return text


def assemble(
    output: str,
    recorder: Recorder,
    state: str,
    template: Any,
    *,
    format: str = PLAIN,
    fast: bool = True,
) -> Document:
    """The document ``output`` renders, with every claim and its anchors (module docstring).

    ``state`` and ``format`` are those of every surface whose block sets none.
    ``fast=False`` skips the fast path (the differential tests compare both).
    """
    if not recorder.claims and not recorder.surface_parts:  # nothing printed a marker
        if RESERVED in output or not latin1(output):  # the site only for an error message
            output = checked_text(output, BODY, Site(template))
        return new_document((new_surface(BODY, output, state, {}, {}, format),))
    if fast:
        document = read_fast(output, recorder, state, format)
        if document is not None:
            return document
    return _Assembly(recorder, state, template, format).read(output)
