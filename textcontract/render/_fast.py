"""The assembler's fast path: the usual output, read with a few calls of builtins.

The usual output holds exactly the markers the recorder recorded, in the order recorded
(each claim printed once, where it was evaluated), surface blocks one after another and
each once, no key claimed twice on a surface with two values, and no reserved code point
or lone surrogate besides the markers. For it, :func:`read_fast` builds the Document with
calls of builtins over all markers or all claims at once — ``split``, ``map``, ``join``,
``zip``, ``dict`` — so Python code runs per surface block, never per claim. For any other
output it returns None, having raised nothing, and the marker-by-marker reader of
``_assemble`` reads it and reports what is wrong. Tests hold the two readers to the same
Document on generated templates.

The output is cut at the separator; ``str.removeprefix`` takes each marker's head off the
part after it. A part that does not start with its head keeps it, so the length of the
texts proves that every part had its head: markers take ``recorder.marker_length()`` code
points, and the texts must take the rest.

A surface keeps its parts — the text before its first claim, then each claim's text and
the text after it — and its anchors are built from them when first read
(``new_surface_from_pieces``): the reader builds no object per claim. This code runs right
after Jinja2's, when little of it is still in the processor's caches, so it makes as few
calls as it can: each costs about twice what it costs in a loop of its own.
"""

from __future__ import annotations

from itertools import accumulate
from typing import TypeAlias

from textcontract.model import (
    BODY,
    Anchor,
    Document,
    FactValue,
    Surface,
    is_valid_unicode,
    new_document,
    new_surface,
    new_surface_from_pieces,
)
from textcontract.render._markers import RESERVED
from textcontract.render._recorder import CLAIM_HEADS_LENGTH, STRIDE, Recorder

__all__ = ["latin1", "read_fast"]


def read_fast(output: str, recorder: Recorder, state: str) -> Document | None:
    """The Document of the usual ``output`` (module docstring), or None for any other."""
    heads = recorder.heads  # heads[0] is "": the text before the first marker has none
    separator = recorder.separator
    parts = output.split(separator)
    if len(parts) != len(heads) or not (latin1(output) or is_valid_unicode(output)):
        return None
    texts = list(map(str.removeprefix, parts, heads))
    claims = recorder.claims
    keys, values = claims[0::STRIDE], claims[1::STRIDE]
    # what the texts take when usual: the output but its markers
    size = (
        len(output)
        - (len(heads) - 1) * len(separator)
        - len(keys) * CLAIM_HEADS_LENGTH
        - recorder.surface_chars
    )
    if not recorder.openings:
        regions = [(BODY, texts, state, keys, values)]
    elif recorder.in_sequence and not recorder.in_block:
        regions = _regions(recorder, state, texts, keys, values)
    else:
        return None
    surfaces: list[Surface] = []
    for name, region, region_state, region_keys, region_values in regions:
        text = "".join(region)
        if RESERVED in text:  # not the separator: the text lies between separators
            return None
        size -= len(text)
        claimed = dict(zip(region_keys, region_values, strict=True))
        if len(claimed) == len(region_keys):  # every key once: anchors built when first read
            surfaces.append(
                new_surface_from_pieces(name, text, region_state, claimed, region, region_keys)
            )
            continue
        repeated = _repeated(name, text, region_state, region_keys, region_values, region)
        if repeated is None:
            return None
        surfaces.append(repeated)
    if size:
        return None
    return _document(surfaces, BODY in recorder.names)


_Region: TypeAlias = tuple[str, list[str], str, list[str], list[FactValue]]


def _regions(
    recorder: Recorder, state: str, texts: list[str], keys: list[str], values: list[FactValue]
) -> list[_Region]:
    """The body's parts and claims, then each block's, when the blocks came one after
    another, each once. ``surface_parts`` gives, per block, the parts its opening and end
    markers start: the block's parts lie between, and the body's text goes on after the
    end. The body takes an odd number of parts before each block, a block an odd number."""
    marks = recorder.surface_parts
    body_texts = texts[: marks[0]]
    claim = marks[0] >> 1  # the claims before the first block
    body_keys, body_values = keys[:claim], values[:claim]
    regions = [(BODY, body_texts, state, body_keys, body_values)]
    for opening, first, last, following in zip(
        recorder.openings, marks[0::2], marks[1::2], [*marks[2::2], len(texts)], strict=True
    ):
        end = claim + ((last - first) >> 1)
        block_state = opening.state or state
        regions.append(
            (opening.name, texts[first:last], block_state, keys[claim:end], values[claim:end])
        )
        body_texts[-1] += texts[last]  # the body's text goes on after the block
        body_texts += texts[last + 1 : following]
        claim = end + ((following - last) >> 1)
        body_keys += keys[end:claim]
        body_values += values[end:claim]
    return regions


def _document(surfaces: list[Surface], body_block: bool) -> Document | None:
    """``body`` first when it has anything to say, then the blocks (as ``_assemble``);
    ``body_block``: one of the blocks is ``{% surface "body" %}``."""
    body = surfaces[0]
    if len(surfaces) == 1 or body.claims or (body.text and not body.text.isspace()):
        return None if body_block else new_document(tuple(surfaces))
    del surfaces[0]  # the body says nothing: the blocks, {% surface "body" %} first
    if body_block:
        explicit = next(index for index, block in enumerate(surfaces) if block.name == BODY)
        surfaces.insert(0, surfaces.pop(explicit))
    return new_document(tuple(surfaces))


def _repeated(
    name: str, text: str, state: str, keys: list[str], values: list[FactValue], parts: list[str]
) -> Surface | None:
    """:func:`_surface` for a surface where a key is claimed more than once."""
    ends = list(accumulate(map(len, parts)))  # where each part ends: claims' starts, ends
    claims: dict[str, FactValue] = {}
    anchors: dict[str, list[Anchor]] = {}
    for key, value, start, end, shown in zip(
        keys, values, ends[0:-1:2], ends[1::2], parts[1::2], strict=True
    ):
        anchor = Anchor(start, end, shown)
        if key not in claims:
            claims[key], anchors[key] = value, [anchor]
            continue
        known = claims[key]
        if type(known) is not type(value) or known != value:
            return None
        anchors[key].append(anchor)
    return new_surface(name, text, state, claims, {key: tuple(a) for key, a in anchors.items()})


def latin1(text: str) -> bool:
    """True when every code point is below U+0100 (so none is a lone surrogate); fast."""
    if text.isascii():
        return True
    try:
        text.encode("latin-1")
    except UnicodeEncodeError:
        return False
    return True
