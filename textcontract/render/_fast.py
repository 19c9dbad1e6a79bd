"""The assembler's fast path: the usual output, read with a few calls of builtins.

The usual output holds exactly the markers the recorder recorded, in the order recorded
(each claim printed once, where it was evaluated), surface blocks one after another and
each once, no key claimed twice on a surface with two values, and no reserved code point
or lone surrogate besides the markers. For it, :func:`read_fast` builds the Document with
calls of builtins over all markers or all claims at once — ``split``, ``map``,
``accumulate``, ``zip``, ``dict`` — so Python code runs per surface block, never per
claim. For any other output it returns None, having raised nothing, and the
marker-by-marker reader of ``_assemble`` reads it and reports what is wrong. Tests hold
the two readers to the same Document on generated templates.

The output is cut at the separator; ``str.removeprefix`` takes each marker's head off the
part after it. A part that does not start with its head keeps it, so the length of the
texts proves that every part had its head: markers take ``recorder.marker_length()`` code
points, and the texts must take the rest.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from itertools import accumulate

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
from textcontract.render._recorder import STRIDE, Recorder

__all__ = ["latin1", "read_fast"]

_anchor = partial(tuple.__new__, Anchor)  # Anchor((start, end, text)) at C speed


def read_fast(output: str, recorder: Recorder, state: str) -> Document | None:
    """The Document of the usual ``output`` (module docstring), or None for any other."""
    heads = recorder.heads  # heads[0] is "": the text before the first marker has none
    parts = output.split(recorder.separator)
    if len(parts) != len(heads) or not (latin1(output) or is_valid_unicode(output)):
        return None
    texts = list(map(str.removeprefix, parts, heads))
    size = len(output) - recorder.marker_length()  # what the texts take when usual
    claims = recorder.claims
    keys, values = claims[0::STRIDE], claims[1::STRIDE]
    if recorder.openings:
        if not recorder.blocks_in_sequence():
            return None
        return _with_blocks(recorder, state, size, texts, keys, values)
    surface = _surface(BODY, texts, state, keys, values)
    if surface is None or len(surface.text) != size:
        return None
    return new_document((surface,))


def _with_blocks(
    recorder: Recorder,
    state: str,
    size: int,
    texts: list[str],
    keys: list[str],
    values: list[FactValue],
) -> Document | None:
    """:func:`read_fast` for output with surface blocks (one after another, each once)."""
    marks = recorder.surface_parts
    # the body's parts, as a surface's: text, claim, text, …, claim, text
    body_texts = texts[: marks[0]]
    claim = (marks[0] - 1) // 2  # the claims before the first block
    body_keys, body_values = keys[:claim], values[:claim]
    blocks: list[Surface] = []
    for number, opening in enumerate(recorder.openings):
        first, last = marks[2 * number], marks[2 * number + 1]
        end = claim + (last - first - 1) // 2
        block = _surface(
            opening.name,
            texts[first:last],
            opening.state or state,
            keys[claim:end],
            values[claim:end],
        )
        if block is None:
            return None
        blocks.append(block)
        size -= len(block.text)
        following = marks[2 * number + 2] if 2 * number + 2 < len(marks) else len(texts)
        body_texts[-1] += texts[last]  # the body's text goes on after the block
        body_texts += texts[last + 1 : following]
        claim = end + (following - last - 1) // 2
        body_keys += keys[end:claim]
        body_values += values[end:claim]
    body = _surface(BODY, body_texts, state, body_keys, body_values)
    if body is None or len(body.text) != size:
        return None
    return _document(body, blocks, BODY in recorder.names)


def _surface(
    name: str,
    region: list[str],
    state: str,
    keys: list[str],
    values: list[FactValue],
) -> Surface | None:
    """The surface of ``region`` — the text before its first claim, then each claim's
    text and the text after it —, or None when the text holds U+0000 (not the separator:
    the text lies between separators) or a key is claimed on it with two values."""
    text = "".join(region)
    if RESERVED in text:
        return None
    count = len(keys)
    if count < 2:  # most surface blocks: skip the bulk calls
        if not count:
            return new_surface(name, text, state, {}, {})
        begin = len(region[0])
        shown = region[1]
        anchor = _anchor((begin, begin + len(shown), shown))
        return new_surface(name, text, state, {keys[0]: values[0]}, {keys[0]: (anchor,)})
    claims = dict(zip(keys, values, strict=True))
    if len(claims) == count:  # every key once: one anchor each, built when first read
        return new_surface_from_pieces(name, text, state, claims, region, keys)
    ends = list(accumulate(map(len, region)))  # where each part ends: claims' starts, ends
    found = map(_anchor, zip(ends[0:-1:2], ends[1::2], region[1::2], strict=True))
    return _repeated(name, text, state, keys, values, found)


def _repeated(
    name: str,
    text: str,
    state: str,
    keys: list[str],
    values: list[FactValue],
    found: Iterable[Anchor],
) -> Surface | None:
    """:func:`_surface` for a surface where a key is claimed more than once."""
    claims: dict[str, FactValue] = {}
    anchors: dict[str, list[Anchor]] = {}
    for key, value, anchor in zip(keys, values, found, strict=True):
        if key not in claims:
            claims[key], anchors[key] = value, [anchor]
            continue
        known = claims[key]
        if type(known) is not type(value) or known != value:
            return None
        anchors[key].append(anchor)
    return new_surface(name, text, state, claims, {key: tuple(a) for key, a in anchors.items()})


def _document(body: Surface, blocks: list[Surface], body_block: bool) -> Document | None:
    """The body first when it has anything to say, then the blocks (as ``_assemble``);
    ``body_block``: one of the blocks is ``{% surface "body" %}``."""
    says_nothing = not body.claims and (not body.text or body.text.isspace())
    if body_block:
        if not says_nothing:
            return None  # a body block and body text: read() reports it
        explicit = next(index for index, block in enumerate(blocks) if block.name == BODY)
        return new_document((blocks.pop(explicit), *blocks))
    return new_document(tuple(blocks) if says_nothing else (body, *blocks))


def latin1(text: str) -> bool:
    """True when every code point is below U+0100 (so none is a lone surrogate); fast."""
    if text.isascii():
        return True
    try:
        text.encode("latin-1")
    except UnicodeEncodeError:
        return False
    return True
