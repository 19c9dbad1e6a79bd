"""The assembler's fast path: the usual output, read with a few calls of builtins.

The usual output holds exactly the markers the recorder recorded, in the order recorded
(each claim printed once, where it was evaluated), surface blocks one after another and
each once, no key claimed twice on a surface with two values, and no reserved code point
or lone surrogate besides the markers. For it, :func:`read_fast` builds the Document with
calls of builtins over all markers at once — ``split``, ``map``, ``join`` — so Python
code runs per surface block, never per claim: each surface's claims come in the
dictionary the recorder put them in while recording. For any other
output it returns None, having raised nothing, and the marker-by-marker reader of
``_assemble`` reads it and reports what is wrong. Tests hold the two readers to the same
Document on generated templates.

The output is cut at the separator; ``str.removeprefix`` takes each marker's head off the
part after it. A part that does not start with its head keeps it, so the length of the
texts proves that every part had its head: markers take what ``recorder.marker_length()``
says (computed here from the numbers of claims and blocks), and the texts must take the
rest. A key claimed twice on a surface shows as a dictionary shorter than the surface's
claims; only then does Python code compare values and build that surface's anchors.

A surface keeps its parts — the text before its first claim, then each claim's text and
the text after it — and its anchors are built from them when first read
(``new_surface_with_deferred_anchors``): the reader builds no object per claim. This code
runs right after Jinja2's, when little of it is still in the processor's caches, so it makes as few
calls as it can: each costs about twice what it costs in a loop of its own.
"""

from __future__ import annotations

from itertools import accumulate

from textcontract.model import (
    BODY,
    Anchor,
    Document,
    FactValue,
    Surface,
    anchors_of_pieces,
    is_valid_unicode,
    new_document,
    new_surface,
    new_surface_with_deferred_anchors,
)
from textcontract.render._markers import (
    CLAIM_HEADS,
    MARKER_HEADS,
    RESERVED,
    SEPARATOR_LENGTH,
    SURFACE_CLOSE,
    claim_heads,
)
from textcontract.render._recorder import (
    CLAIM_MARKERS_LENGTH,
    SURFACE_OPEN_LENGTH,
    Claim,
    Recorder,
)

__all__ = ["latin1", "read_fast"]

_BLOCK_MARKERS = 2 * SEPARATOR_LENGTH + SURFACE_OPEN_LENGTH + len(SURFACE_CLOSE)
_TABLE = len(CLAIM_HEADS)


def read_fast(output: str, recorder: Recorder, state: str) -> Document | None:
    """The Document of the usual ``output`` (module docstring), or None for any other."""
    parts = output.split(recorder.separator)
    claims = recorder.claims
    count = len(claims)
    if len(parts) != count + count + len(recorder.surface_parts) + 1 or not (
        latin1(output) or is_valid_unicode(output)
    ):
        return None
    if recorder.surface_parts:
        return _with_blocks(output, recorder, state, parts)
    # map() stops at the last part: the table holds the heads of the first claims
    heads = MARKER_HEADS if count <= _TABLE else claim_heads(count)
    texts = list(map(str.removeprefix, parts, heads))
    text = "".join(texts)
    # a part that kept its head makes the text longer than the output without markers
    if len(output) - len(text) != count * CLAIM_MARKERS_LENGTH or RESERVED in text:
        return None
    surface = _surface(BODY, text, state, recorder.body_claims, texts, claims)
    return None if surface is None else new_document((surface,))


def _surface(
    name: str,
    text: str,
    state: str,
    claimed: dict[str, FactValue],
    pieces: list[str],
    claims: list[Claim],
) -> Surface | None:
    """The surface of ``claims``, recorded in ``claimed`` (the dictionary is shorter
    when a key is claimed again: only then are the claims read)."""
    if len(claimed) == len(claims):  # every key once: anchors built when first read
        keys = list(claimed)  # the surface's dictionary is its reader's to change
        return new_surface_with_deferred_anchors(
            name, text, state, claimed, anchors_of_pieces, (pieces, keys)
        )
    keys = [claim[0] for claim in claims]
    return _repeated(name, text, state, keys, [claim[1] for claim in claims], pieces)


def _with_blocks(output: str, recorder: Recorder, state: str, parts: list[str]) -> Document | None:
    """:func:`read_fast` for blocks rendered one after another, each once: the parts of
    block ``i`` lie between ``surface_parts[2 * i]`` and ``surface_parts[2 * i + 1]``, the
    parts it opens and ends, and the body's text goes on in the part its end starts."""
    if not recorder.in_sequence or recorder.in_block:
        return None
    heads = recorder.heads()
    texts = list(map(str.removeprefix, parts, heads))
    marks, before, claims = recorder.surface_parts, recorder.surface_claims_before, recorder.claims
    body = texts[: marks[0]]  # the body's parts, each text across a block one part
    body_claims = claims[: before[0]]
    size = len(output) - len(claims) * CLAIM_MARKERS_LENGTH
    blocks: list[Surface] = []
    for index, (name, claimed) in enumerate(recorder.blocks.items()):
        opening = index + index  # the block's opening marker among the surface markers
        first, last, end = marks[opening], marks[opening + 1], opening + 2
        region = texts[first:last]
        text = "".join(region)
        if RESERVED in text:
            return None
        size -= len(text) + _BLOCK_MARKERS
        block_state = recorder.openings[index][1] or state
        block_claims = claims[before[opening] : before[opening + 1]]
        block = _surface(name, text, block_state, claimed, region, block_claims)
        if block is None:
            return None
        blocks.append(block)
        body[-1] += texts[last]
        if end < len(marks):
            body += texts[last + 1 : marks[end]]
            body_claims += claims[before[opening + 1] : before[end]]
        else:
            body += texts[last + 1 :]
            body_claims += claims[before[opening + 1] :]
    text = "".join(body)
    if len(text) != size or RESERVED in text:
        return None
    return _with_body(blocks, text, state, body, recorder, body_claims)


def _with_body(
    blocks: list[Surface],
    text: str,
    state: str,
    pieces: list[str],
    recorder: Recorder,
    claims: list[Claim],
) -> Document | None:
    """``body`` first when it has anything to say, then the blocks (as ``_assemble``)."""
    claimed = recorder.body_claims
    body_block = BODY in recorder.blocks  # one of the blocks is {% surface "body" %}
    if not claimed and (not text or text.isspace()):
        if body_block:  # the body says nothing: the blocks, {% surface "body" %} first
            explicit = next(index for index, block in enumerate(blocks) if block.name == BODY)
            blocks.insert(0, blocks.pop(explicit))
        return new_document(tuple(blocks))
    if body_block:
        return None
    body = _surface(BODY, text, state, claimed, pieces, claims)
    return None if body is None else new_document((body, *blocks))


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
