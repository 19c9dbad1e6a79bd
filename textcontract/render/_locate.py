"""Where a claim's changed text was printed: the template line §22 asks a render error
to name, found by rendering the template once more, chunk by chunk.

The assembler sees the changed text only in the joined output, and a claim evaluated on
one line (``{% set m = claim(…) %}``) may be printed, sliced, on another (``{{ m[:15]
}}99.99…``). Jinja2 compiles a template into a generator that yields one chunk per printed
expression or piece of template text, so rendering it again through that generator, and
noting the template code each chunk came from, names the line that printed the first
character where the claim's text departs from what ``claim()`` printed. This runs only
after that error, never for a document that renders. A template whose second rendering
differs from the first (it reads a clock, a random number, state it changes) keeps the
line where ``claim()`` was evaluated, as does any failure of the second rendering.

A synchronous rendering follows ``yield from`` (blocks, includes, inheritance) to the
innermost template code; an asynchronous one sees the outermost only (Jinja2 loops over
the chunks of nested async generators, whose frames it does not expose), so a change
printed inside a block or an include is named by the line of the block or include there.
Macros and ``{% filter %}``/``{% call %}`` blocks print their whole output from the line
that calls them.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping
from itertools import accumulate
from types import AsyncGeneratorType, GeneratorType
from typing import Any

from jinja2 import Template
from markupsafe import escape

from textcontract.render._assemble import ClaimTextChanged
from textcontract.render._errors import Site, site_of
from textcontract.render._fast import printed_as
from textcontract.render._markers import claim_head
from textcontract.render._recorder import ACTIVE, CodePlace, Recorder, place_of

__all__ = ["located", "located_async"]


def located(
    error: ClaimTextChanged,
    template: Template,
    variables: Mapping[str, Any] | None,
    separator: str,
) -> ClaimTextChanged:
    """``error``, naming the line that printed the changed text when a second rendering
    with the first one's ``separator`` finds it (module docstring)."""
    if template.environment.is_async:
        return error
    recorder = Recorder(separator)
    token = ACTIVE.set(recorder)
    chunks: list[str] = []
    places: list[CodePlace] = []
    try:
        generator = template.root_render_func(template.new_context(dict(variables or {})))
        assert isinstance(generator, GeneratorType)
        for chunk in generator:
            chunks.append(chunk)
            places.append(_innermost(generator))
    except Exception:  # the second rendering failed: keep the first error
        return error
    finally:
        ACTIVE.reset(token)
    return _relocated(error, recorder, chunks, places)


async def located_async(
    error: ClaimTextChanged,
    template: Template,
    variables: Mapping[str, Any] | None,
    separator: str,
) -> ClaimTextChanged:
    """:func:`located` for a template of an environment with ``enable_async=True``."""
    recorder = Recorder(separator)
    token = ACTIVE.set(recorder)
    chunks: list[str] = []
    places: list[CodePlace] = []
    try:
        generator = template.root_render_func(template.new_context(dict(variables or {})))
        assert isinstance(generator, AsyncGeneratorType)
        async for chunk in generator:
            chunks.append(chunk)
            frame = generator.ag_frame
            places.append(place_of(frame, -1 if frame is None else frame.f_lasti))
    except Exception:
        return error
    finally:
        ACTIVE.reset(token)
    return _relocated(error, recorder, chunks, places)


def _innermost(generator: GeneratorType[Any, Any, Any]) -> CodePlace:
    """The template code a suspended generator's chunk came from: through ``yield from``
    (blocks, ``{% extends %}``) and through the loop ``for event in gen: yield event`` by
    which Jinja2 3.1 prints an included template."""
    frame = generator.gi_frame
    assert frame is not None  # suspended at a yield
    inner: object = generator.gi_yieldfrom
    while True:
        if inner is None:
            inner = frame.f_locals.get("gen")  # an {% include %} being printed
        if not isinstance(inner, GeneratorType) or inner.gi_frame is None:
            return place_of(frame, frame.f_lasti)
        frame, inner = inner.gi_frame, inner.gi_yieldfrom


def _relocated(
    error: ClaimTextChanged, recorder: Recorder, chunks: list[str], places: list[CodePlace]
) -> ClaimTextChanged:
    site = _changed_site(error, recorder, "".join(chunks), chunks, places)
    if site is None or site.template_line() is None:
        return error
    return ClaimTextChanged(error.ident, error.occurrence, error.shown, site)


def _changed_site(
    error: ClaimTextChanged,
    recorder: Recorder,
    output: str,
    chunks: list[str],
    places: list[CodePlace],
) -> Site | None:
    """The site of the chunk holding the first changed character of the first printing
    of the claim whose text is ``error.shown`` and departs from what it printed."""
    ident = error.ident
    if ident >= len(recorder.claims):
        return None
    key, _, _, _, rendered = recorder.claims[ident]
    if key != error.occurrence.key or rendered != error.occurrence.text:
        return None  # the second rendering is not the first
    opening = recorder.separator + claim_head(ident)
    start = output.find(opening)
    while start >= 0:
        begin = start + len(opening)
        end = output.find(recorder.separator, begin)
        if end < 0:
            return None
        shown = output[begin:end]
        if shown == error.shown and not printed_as(shown, rendered):
            position = begin + _agreeing(shown, rendered)
            ends = list(accumulate(map(len, chunks)))
            return site_of(*places[bisect_right(ends, position)])
        start = output.find(opening, end)
    return None


def _agreeing(shown: str, rendered: str) -> int:
    """How many code points ``shown`` has in common with what was printed, from its start."""
    return max(_common_start(shown, rendered), _common_start(shown, str(escape(rendered))))


def _common_start(one: str, other: str) -> int:
    for index, (a, b) in enumerate(zip(one, other, strict=False)):
        if a != b:
            return index
    return min(len(one), len(other))
