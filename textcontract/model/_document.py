"""The document under test: ordered, named surfaces with text, state, claims and anchors."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from functools import cached_property
from typing import Any

from textcontract.canonical import digest_streamed
from textcontract.errors import InputError, Location, Problem
from textcontract.model._anchors import Anchor, anchors_json, anchors_of_pieces, validate_anchors
from textcontract.model._context import DEFAULT_STATE
from textcontract.model._facts import (
    NAME_PATTERN,
    FactValue,
    is_valid_unicode,
    type_name,
    validate_facts,
)
from textcontract.model._location import TextOrigin

__all__ = [
    "BODY",
    "FORMATS",
    "PLAIN",
    "Document",
    "Surface",
    "new_document",
    "new_surface",
    "new_surface_from_pieces",
    "new_surface_with_deferred_anchors",
    "surface_format",
]

BODY = "body"
_DOCUMENT_KEYS = ("surfaces", "claims", "states", "anchors")
_SURFACE_KEYS = ("text", "state", "claims", "anchors", "format")
FORMATS = ("plain", "markdown", "html")
"""How a surface's text is written (SPEC §18); ``plain`` unless it says otherwise."""
PLAIN = "plain"
_PIECES = "_anchor_pieces"  # how to build a surface's anchors, until they are first read


@dataclass(frozen=True)
class Surface:
    """One named piece of the output and the snapshot it speaks about.

    ``anchors`` maps a claim key to where the renderer printed it (SPEC §15); the
    canonical form carries ``anchors`` only when there are some, so documents
    without anchors keep the digests they always had.

    ``origin`` says where the text stands in the file it was read from (SPEC §10). It is
    neither part of the canonical form nor of equality: the same content read from a
    markdown file and from a JSON file is the same surface.

    ``format`` says how the text is written (SPEC §18: ``plain``, ``markdown`` or
    ``html``); the canonical form carries it only when it is not ``plain``, so plain
    documents keep the digests they always had.
    """

    name: str
    text: str
    state: str = DEFAULT_STATE
    claims: Mapping[str, FactValue] = field(default_factory=dict)
    anchors: Mapping[str, tuple[Anchor, ...]] = field(default_factory=dict)
    origin: TextOrigin = field(default=TextOrigin(), compare=False)
    format: str = PLAIN

    def to_json(self) -> dict[str, Any]:
        canonical = {"text": self.text, "state": self.state, "claims": dict(self.claims)}
        if self.anchors:
            canonical["anchors"] = anchors_json(self.anchors)
        if self.format != PLAIN:
            canonical["format"] = self.format
        return canonical

    def __getstate__(self) -> dict[str, Any]:
        """What pickling and copying keep: the fields, anchors built (never the pieces)."""
        state = self.__dict__
        if _PIECES not in state:
            return state
        return {name: getattr(self, name) for name in _FIELDS}


class _AnchorsFromPieces:
    """``Surface.anchors`` of a surface made by :func:`new_surface_from_pieces`: built from
    its pieces when first read, then kept in the instance dictionary — where every other
    surface has its anchors, which come first (this is a non-data descriptor)."""

    def __get__(self, surface: Surface | None, owner: type | None = None) -> Any:
        if surface is None:
            raise AttributeError("type object 'Surface' has no attribute 'anchors'")
        state = surface.__dict__
        deferred = state.get(_PIECES)
        if deferred is None:
            raise AttributeError("'Surface' object has no attribute 'anchors'")
        anchors = state.get("anchors")
        if anchors is None:  # another thread may have built them meanwhile: they are equal
            build, arguments = deferred
            anchors = state["anchors"] = build(*arguments)
        return anchors


# set after the dataclass is made, so that it is no field default (type checkers see the field)
setattr(Surface, "anchors", _AnchorsFromPieces())  # noqa: B010
_FIELDS = tuple(f.name for f in fields(Surface))
_ORIGIN = next(f.default for f in fields(Surface) if f.name == "origin")
_new = object.__new__


def new_surface(
    name: str,
    text: str,
    state: str,
    claims: dict[str, FactValue],
    anchors: dict[str, tuple[Anchor, ...]],
    format: str = PLAIN,
) -> Surface:
    """``Surface(name, text, state, claims, anchors, format=format)``, made without the
    frozen dataclass's ``__init__`` (seven ``object.__setattr__`` calls): the same surface,
    for a renderer that makes one per surface block."""
    surface: Any = _new(Surface)
    surface.__dict__.update(
        name=name,
        text=text,
        state=state,
        claims=claims,
        anchors=anchors,
        origin=_ORIGIN,
        format=format,
    )
    return surface  # type: ignore[no-any-return]


def new_surface_from_pieces(
    name: str,
    text: str,
    state: str,
    claims: dict[str, FactValue],
    pieces: list[str],
    keys: list[str],
    format: str = PLAIN,
) -> Surface:
    """The surface :func:`new_surface` makes with ``anchors_of_pieces(pieces, keys)``
    (``text`` is the pieces joined, each key once), its anchors built when first read:
    a renderer need not build one anchor per claim for a document nobody reads them of.
    Equality, ``repr``, hashing, pickling and JSON build them first, so they see the same
    surface."""
    return new_surface_with_deferred_anchors(
        name, text, state, claims, anchors_of_pieces, (pieces, keys), format
    )


def new_surface_with_deferred_anchors(
    name: str,
    text: str,
    state: str,
    claims: dict[str, FactValue],
    build: Callable[..., dict[str, tuple[Anchor, ...]]],
    arguments: tuple[Any, ...],
    format: str = PLAIN,
) -> Surface:
    """The surface :func:`new_surface` makes with the anchors ``build(*arguments)``
    returns, built when first read (as :func:`new_surface_from_pieces`). ``build`` must
    not change its arguments: threads may read the anchors first at once."""
    surface: Any = _new(Surface)
    fields = surface.__dict__  # filled in place: no dictionary to copy from
    fields["name"] = name
    fields["text"] = text
    fields["state"] = state
    fields["claims"] = claims
    fields["origin"] = _ORIGIN
    fields["format"] = format
    fields[_PIECES] = (build, arguments)
    return surface  # type: ignore[no-any-return]


def new_document(surfaces: tuple[Surface, ...]) -> Document:
    """``Document(surfaces)`` without the frozen dataclass's ``__init__`` (as above)."""
    document: Any = _new(Document)
    document.__dict__["surfaces"] = surfaces
    return document  # type: ignore[no-any-return]


@dataclass(frozen=True)
class Document:
    """An ordered set of surfaces (SPEC §2.2)."""

    surfaces: tuple[Surface, ...]

    @cached_property
    def _by_name(self) -> dict[str, Surface]:
        return {surface.name: surface for surface in self.surfaces}

    def surface(self, name: str) -> Surface | None:
        return self._by_name.get(name)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(surface.name for surface in self.surfaces)

    def with_origins(self, origins: Mapping[str, TextOrigin]) -> Document:
        """This document with the given surfaces' origins set (the others keep theirs)."""
        if not origins:
            return self
        return Document(
            tuple(
                replace(surface, origin=origins[surface.name])
                if surface.name in origins
                else surface
                for surface in self.surfaces
            )
        )

    def to_json(self) -> dict[str, Any]:
        """The canonical document: every default filled in."""
        return {"surfaces": {s.name: s.to_json() for s in self.surfaces}}

    @cached_property
    def digest(self) -> str:
        """Independent of surface order and of the file format the document came from."""
        return digest_streamed(self.to_json())  # = digest(), without the one long text

    @classmethod
    def from_text(
        cls,
        text: str,
        claims: Mapping[str, FactValue] | None = None,
        state: str = DEFAULT_STATE,
        anchors: Mapping[str, Any] | None = None,
        format: str = PLAIN,
    ) -> Document:
        """A one-surface (``body``) document; ``anchors`` in the JSON form; ``format`` how
        the text is written (``plain``, ``markdown`` or ``html``)."""
        surface: dict[str, Any] = {"text": text, "state": state, "claims": dict(claims or {})}
        if anchors:
            surface["anchors"] = dict(anchors)
        if format != PLAIN:
            surface["format"] = format
        return cls.from_json({"surfaces": {BODY: surface}})

    @classmethod
    def from_json(cls, obj: object, source: str | None = None) -> Document:
        """Build from the JSON form; every problem of the input is reported at once."""
        if not isinstance(obj, Mapping):
            raise InputError(
                Problem(f"a document must be a JSON object, got {type_name(obj)}", Location(source))
            )
        problems: list[Problem] = []
        for key in obj:
            if key not in _DOCUMENT_KEYS:
                problems.append(
                    Problem(
                        "unknown key (expected surfaces, claims, states, anchors)",
                        Location.of_path(source, [key]),
                    )
                )
        raw_surfaces = obj.get("surfaces")
        if not isinstance(raw_surfaces, Mapping):
            problems.append(
                Problem(
                    f"'surfaces' must be an object of surfaces, got {type_name(raw_surfaces)}",
                    Location.of_path(source, ["surfaces"]),
                )
            )
            raise InputError(problems)
        if not raw_surfaces:
            # Nothing would be under test: text rules would silently yield no checks and the
            # report would be rejected for "no checks" instead of naming the real cause.
            problems.append(
                Problem(
                    "a document needs at least one surface", Location.of_path(source, ["surfaces"])
                )
            )
        fields: dict[str, dict[str, Any]] = {}
        for name, raw in raw_surfaces.items():
            where = Location.of_path(source, ["surfaces", name])
            if not isinstance(name, str) or not NAME_PATTERN.match(name):
                problems.append(
                    Problem(f"surface name {name!r} does not match [a-z0-9][a-z0-9_.-]*", where)
                )
                continue
            fields[name] = _surface_fields(raw, name, source, problems)
        for part in ("claims", "states", "anchors"):
            _merge_top_level(obj.get(part), part, fields, source, problems)
        _check_anchored_keys(obj.get("anchors"), fields, source, problems)
        if problems:
            raise InputError(problems)
        return cls(
            tuple(
                Surface(
                    name,
                    f["text"],
                    f.get("state", DEFAULT_STATE),
                    f.get("claims", {}),
                    f.get("anchors", {}),
                    format=f.get("format", PLAIN),
                )
                for name, f in fields.items()
            )
        )


def _surface_fields(
    raw: object, name: str, source: str | None, problems: list[Problem]
) -> dict[str, Any]:
    path: list[str | int] = ["surfaces", name]
    if isinstance(raw, str):
        return {"text": _text(raw, path, source, problems)}
    if not isinstance(raw, Mapping):
        problems.append(
            Problem(
                "a surface is a string or an object with text, state, claims, anchors, format; "
                f"got {type_name(raw)}",
                Location.of_path(source, path),
            )
        )
        return {"text": ""}
    result: dict[str, Any] = {}
    for key in raw:
        if key not in _SURFACE_KEYS:
            problems.append(
                Problem(
                    "unknown surface key (expected text, state, claims, anchors, format)",
                    Location.of_path(source, [*path, key]),
                )
            )
    result["text"] = _text(raw.get("text"), [*path, "text"], source, problems)
    if "state" in raw:
        result["state"] = _state_name(raw["state"], [*path, "state"], source, problems)
    if "claims" in raw:
        result["claims"] = validate_facts(raw["claims"], [*path, "claims"], source, problems)
    if "anchors" in raw:
        result["anchors"] = validate_anchors(raw["anchors"], [*path, "anchors"], source, problems)
    if "format" in raw:
        result["format"] = surface_format(raw["format"], [*path, "format"], source, problems)
    return result


def surface_format(
    value: object, path: list[str | int], source: str | None, problems: list[Problem]
) -> str:
    """A surface's ``format``: one of :data:`FORMATS` (else a problem, and ``plain``)."""
    if isinstance(value, str) and value in FORMATS:
        return value
    shown = repr(value) if isinstance(value, str) else type_name(value)
    problems.append(
        Problem(
            f"format must be plain, markdown or html, got {shown}", Location.of_path(source, path)
        )
    )
    return PLAIN


def _check_anchored_keys(
    top_level: object,
    fields: dict[str, dict[str, Any]],
    source: str | None,
    problems: list[Problem],
) -> None:
    """Anchors say where a claim was printed: each key must be a claim of its surface."""
    for name, found in fields.items():
        claims = found.get("claims", {})
        path: list[str | int] = (
            ["anchors", name]
            if isinstance(top_level, Mapping) and name in top_level
            else ["surfaces", name, "anchors"]
        )
        for key in found.get("anchors", {}):
            if key not in claims:
                problems.append(
                    Problem(
                        f"anchors given for {key!r}, which surface {name!r} does not claim",
                        Location.of_path(source, [*path, key]),
                    )
                )


def _text(value: object, path: list[str | int], source: str | None, problems: list[Problem]) -> str:
    if not isinstance(value, str):
        problems.append(
            Problem(
                f"'text' must be a string, got {type_name(value)}", Location.of_path(source, path)
            )
        )
        return ""
    if not is_valid_unicode(value):
        problems.append(
            Problem("text holds a lone surrogate (invalid Unicode)", Location.of_path(source, path))
        )
        return ""
    return value


def _state_name(
    value: object, path: list[str | int], source: str | None, problems: list[Problem]
) -> str:
    if isinstance(value, str) and value and is_valid_unicode(value):
        return value
    problems.append(
        Problem(
            f"a state must be a non-empty, valid Unicode snapshot name, got {type_name(value)}",
            Location.of_path(source, path),
        )
    )
    return DEFAULT_STATE


def _merge_top_level(
    value: object,
    part: str,
    fields: dict[str, dict[str, Any]],
    source: str | None,
    problems: list[Problem],
) -> None:
    """Fold top-level ``claims``/``states``/``anchors`` (surface -> …) into the surfaces."""
    if value is None:
        return
    if not isinstance(value, Mapping):
        problems.append(
            Problem(
                f"'{part}' must map surface names to {part}, got {type_name(value)}",
                Location.of_path(source, [part]),
            )
        )
        return
    field_name = "state" if part == "states" else part
    for name, item in value.items():
        where = Location.of_path(source, [part, name])
        if name not in fields:
            problems.append(
                Problem(f"{part} given for surface {name!r}, which does not exist", where)
            )
            continue
        if field_name in fields[name]:
            problems.append(
                Problem(f"the state of surface {name!r} is declared twice", where)
                if field_name == "state"
                else Problem(f"the {field_name} of surface {name!r} are declared twice", where)
            )
            continue
        if field_name == "claims":
            fields[name]["claims"] = validate_facts(item, [part, name], source, problems)
        elif field_name == "anchors":
            fields[name]["anchors"] = validate_anchors(item, [part, name], source, problems)
        else:
            fields[name]["state"] = _state_name(item, [part, name], source, problems)
