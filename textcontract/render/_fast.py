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

from functools import partial
from itertools import accumulate

from textcontract.model import BODY, Anchor, Document, FactValue, Surface, is_valid_unicode
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
    length, found = _region(texts, 0, len(texts), 0)
    if length != size:
        return None
    surface = _surface(BODY, "".join(texts), state, keys, values, found)
    return None if surface is None else Document((surface,))


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
        length, found = _region(texts, first, last, 0)
        end = claim + len(found)
        block = _surface(
            opening.name,
            "".join(texts[first:last]),
            opening.state or state,
            keys[claim:end],
            values[claim:end],
            found,
        )
        if block is None:
            return None
        blocks.append(block)
        size -= length
        following = marks[2 * number + 2] if 2 * number + 2 < len(marks) else len(texts)
        body_texts[-1] += texts[last]  # the body's text goes on after the block
        body_texts += texts[last + 1 : following]
        claim = end + (following - last - 1) // 2
        body_keys += keys[end:claim]
        body_values += values[end:claim]
    length, found = _region(body_texts, 0, len(body_texts), 0)
    if length != size:
        return None
    body = _surface(BODY, "".join(body_texts), state, body_keys, body_values, found)
    return _document(body, blocks, BODY in recorder.names)


def _region(texts: list[str], start: int, stop: int, base: int) -> tuple[int, list[Anchor]]:
    """Where the parts ``start`` to ``stop`` end, and the anchors of their claims, in a
    surface where they start at ``base``. The parts are the text before the first claim,
    then each claim's text and the text after it."""
    if stop - start == 3:  # one claim, as in most surface blocks: skip the bulk calls
        begin = base + len(texts[start])
        text = texts[start + 1]
        end = begin + len(text)
        return end + len(texts[start + 2]), [_anchor((begin, end, text))]
    region = texts[start:stop]
    offsets = list(accumulate(map(len, region), initial=base))
    return offsets[-1], list(
        map(_anchor, zip(offsets[1:-1:2], offsets[2::2], region[1::2], strict=True))
    )


def _surface(
    name: str,
    text: str,
    state: str,
    keys: list[str],
    values: list[FactValue],
    found: list[Anchor],
) -> Surface | None:
    """The surface, or None when its text holds U+0000 (not the separator: the text lies
    between separators) or a key is claimed on it with two values."""
    if RESERVED in text:
        return None
    if len(keys) < 2:  # most surface blocks: skip the bulk calls
        if not keys:
            return Surface(name, text, state, {}, {})
        return Surface(name, text, state, {keys[0]: values[0]}, {keys[0]: (found[0],)})
    claims = dict(zip(keys, values, strict=True))
    if len(claims) == len(keys):  # every key once: one anchor each
        return Surface(name, text, state, claims, dict(zip(keys, zip(found), strict=True)))
    claims, anchors = {}, {}
    for key, value, anchor in zip(keys, values, found, strict=True):
        if key not in claims:
            claims[key], anchors[key] = value, [anchor]
            continue
        known = claims[key]
        if type(known) is not type(value) or known != value:
            return None
        anchors[key].append(anchor)
    return Surface(name, text, state, claims, {key: tuple(a) for key, a in anchors.items()})


def _document(body: Surface | None, blocks: list[Surface], body_block: bool) -> Document | None:
    """The body first when it has anything to say, then the blocks (as ``_assemble``);
    ``body_block``: one of the blocks is ``{% surface "body" %}``."""
    if body is None:
        return None
    says_nothing = not body.claims and not body.text.strip()
    if body_block:
        if not says_nothing:
            return None  # a body block and body text: read() reports it
        explicit = next(index for index, block in enumerate(blocks) if block.name == BODY)
        return Document((blocks.pop(explicit), *blocks))
    return Document(tuple(blocks) if says_nothing else (body, *blocks))


def latin1(text: str) -> bool:
    """True when every code point is below U+0100 (so none is a lone surrogate); fast."""
    if text.isascii():
        return True
    try:
        text.encode("latin-1")
    except UnicodeEncodeError:
        return False
    return True
