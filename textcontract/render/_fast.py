"""The assembler's fast path: the usual output, read with a few calls of builtins.

The usual output holds exactly the markers the recorder recorded, in the order recorded
(each claim printed once, where it was evaluated), surface blocks one after another and
each once, no key claimed twice on a surface with two values, and no reserved code point
or lone surrogate besides the markers. For it, :func:`read_fast` builds the Document with
calls of builtins over all markers at once — ``split``, ``map``, ``join`` — so Python code
runs per surface block, never per claim: each surface's claims come in the dictionary the
recorder put them in while recording. For any other output it returns None, having raised
nothing, and the marker-by-marker reader of ``_assemble`` reads it and reports what is
wrong. Tests hold the two readers to the same Document on generated templates.

The output is cut at the separator; ``str.removeprefix`` takes each marker's head off the
part after it. The heads follow from the recording: claim ``i``'s are
``MARKER_HEADS[2 * i + 1]`` and ``MARKER_HEADS[2 * i + 2]``, and the surface markers'
(``SURFACE_MARKER_HEADS``) stand in the parts ``recorder.surface_parts`` names. A part
that does not start with its head keeps it, so the length of the texts proves that every
part had its head: the markers take what ``recorder.marker_length()`` says (computed here
from the numbers of claims and blocks), and the texts must take the rest. A key claimed
twice on a surface shows as a dictionary shorter than the surface's claims; only then does
Python code compare values and build that surface's anchors.

The text between each claim's markers must be the text ``claim()`` printed, kept in the
claim's record, or that text HTML-escaped (SPEC §22): the claims' texts, every other part,
are compared with the recorded ones as two lists; only when they differ does Python code
look for an escaped one, and any other difference declines the output (the other reader
names it).

A surface keeps its parts — the text before its first claim, then each claim's text and
the text after it — and its anchors are built from them when first read
(``new_surface_with_deferred_anchors``): the reader builds no object per claim. This code
runs right after Jinja2's, when little of it is still in the processor's caches: each call,
and each builtin it reaches that Jinja2 does not, costs a few cache misses, so it makes as
few as it can.
"""

from __future__ import annotations

from itertools import accumulate, pairwise
from operator import itemgetter

from markupsafe import escape

from textcontract.model import (
    BODY,
    PLAIN,
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
    SURFACE_MARKER_HEADS,
    claim_heads,
    surface_marker_head,
)
from textcontract.render._recorder import (
    CLAIM_MARKERS_LENGTH,
    SURFACE_OPEN_LENGTH,
    Claim,
    Recorder,
)

__all__ = ["latin1", "printed_as", "read_fast"]

_BLOCK_MARKERS = 2 * SEPARATOR_LENGTH + SURFACE_OPEN_LENGTH + len(SURFACE_CLOSE)
_TABLE = len(CLAIM_HEADS)
_SURFACE_TABLE = len(SURFACE_MARKER_HEADS)
_printed = itemgetter(4)  # a recorded claim's printed text


def read_fast(output: str, recorder: Recorder, state: str, format: str = PLAIN) -> Document | None:
    """The Document of the usual ``output`` (module docstring), or None for any other;
    ``state`` and ``format`` are those of every surface that does not set its own."""
    parts = output.split(recorder.separator)
    if not (output.isascii() or latin1(output) or is_valid_unicode(output)):
        return None  # a lone surrogate
    if recorder.surface_parts:
        return _with_blocks(output, recorder, state, format, parts)
    claims = recorder.claims
    count = len(claims)
    if len(parts) != count + count + 1:
        return None
    # map() stops at the last part: the table holds the heads of the first claims' markers
    heads = MARKER_HEADS if count <= _TABLE else claim_heads(count)
    texts = list(map(str.removeprefix, parts, heads))
    text = "".join(texts)
    # a part that kept its head makes the text longer than the output without markers
    if len(output) - len(text) != count * CLAIM_MARKERS_LENGTH or RESERVED in text:
        return None
    # the text between each claim's markers is what claim() printed, or it HTML-escaped (what
    # autoescaping and |e print): §22 refuses a document a filter or slice changed after
    shown, printed = texts[1::2], list(map(_printed, claims))
    if shown != printed and not all(map(printed_as, shown, printed)):
        return None
    claimed = recorder.body_claims
    if len(claimed) == count:  # every key once: anchors built when first read
        keys = list(claimed)  # (the surface's dictionary is its reader's to change)
        body = new_surface_with_deferred_anchors(
            BODY, text, state, claimed, anchors_of_pieces, (texts, keys), format
        )
        return new_document((body,))
    repeated = _repeated(BODY, text, state, format, claims, texts)
    return None if repeated is None else new_document((repeated,))


def _with_blocks(
    output: str, recorder: Recorder, state: str, format: str, parts: list[str]
) -> Document | None:
    """:func:`read_fast` for blocks rendered one after another, each once: the parts of
    a block lie between the two parts its markers start (``surface_parts``), and the
    body's text goes on in the part its end starts."""
    marks, count = recorder.surface_parts, len(recorder.claims)
    if len(parts) != count + count + len(marks) + 1 or recorder.in_block:
        return None
    if not recorder.in_sequence:  # a block inside another, or a name again
        return None
    heads = list(MARKER_HEADS[: count + count + 1] if count <= _TABLE else claim_heads(count))
    for index, part in enumerate(marks):  # in order: each where it stands
        heads.insert(
            part,
            SURFACE_MARKER_HEADS[index] if index < _SURFACE_TABLE else surface_marker_head(index),
        )
    texts = list(map(str.removeprefix, parts, heads))
    body = texts[: marks[0]]  # the body's parts, the text across each block one part
    size = len(output) - count * CLAIM_MARKERS_LENGTH - len(recorder.openings) * _BLOCK_MARKERS
    blocks: list[Surface] = []
    marker = 0
    for name, (claimed, block_state, block_format) in recorder.blocks.items():
        first, last = marks[marker], marks[marker + 1]
        region = texts[first:last]
        text = "".join(region)
        if RESERVED in text:
            return None
        size -= len(text)
        if len(claimed) + len(claimed) + 1 == last - first:  # every key once
            block = new_surface_with_deferred_anchors(
                name,
                text,
                block_state or state,
                claimed,
                anchors_of_pieces,
                (region, list(claimed)),
                block_format or format,
            )
        else:
            found = _repeated(
                name,
                text,
                block_state or state,
                block_format or format,
                _claims_between(recorder, first, last),
                region,
            )
            if found is None:
                return None
            block = found
        blocks.append(block)
        body[-1] += texts[last]
        marker += 2
        body += texts[last + 1 : marks[marker] if marker < len(marks) else len(texts)]
    text = "".join(body)
    if len(text) != size or RESERVED in text:  # a part kept its head, or a foreign U+0000
        return None
    shown, printed = _claim_texts(texts, marks), list(map(_printed, recorder.claims))
    if shown != printed and not all(map(printed_as, shown, printed)):
        return None
    return _with_body(blocks, text, state, format, body, recorder)


def _with_body(
    blocks: list[Surface],
    text: str,
    state: str,
    format: str,
    pieces: list[str],
    recorder: Recorder,
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
    if len(claimed) + len(claimed) + 1 == len(pieces):  # every key once
        body = new_surface_with_deferred_anchors(
            BODY, text, state, claimed, anchors_of_pieces, (pieces, list(claimed)), format
        )
        return new_document((body, *blocks))
    repeated = _repeated(BODY, text, state, format, _body_claims(recorder), pieces)
    return None if repeated is None else new_document((repeated, *blocks))


def _claim_texts(texts: list[str], marks: list[int]) -> list[str]:
    """The texts between each claim's markers, in order: between two surface markers (and
    before the first, after the last), the parts alternate claim text, text after it."""
    if len(marks) == 2:  # one block: the usual case, in three slices
        first, last = marks
        return texts[1:first:2] + texts[first + 1 : last : 2] + texts[last + 1 :: 2]
    found = texts[1 : marks[0] : 2]
    for start, end in pairwise(marks):
        found += texts[start + 1 : end : 2]
    return found + texts[marks[-1] + 1 :: 2]


def printed_as(shown: str, rendered: str) -> bool:
    """Whether ``shown`` is ``rendered`` as printed: itself, or HTML-escaped once."""
    return shown == rendered or shown == escape(rendered)


def _claims_between(recorder: Recorder, first: int, last: int) -> list[Claim]:
    """The claims of the block whose markers start parts ``first`` and ``last``."""
    marks = recorder.surface_parts
    before = (first - 1 - marks.index(first)) // 2  # two markers per claim before it
    return recorder.claims[before : before + (last - first - 1) // 2]


def _body_claims(recorder: Recorder) -> list[Claim]:
    """The claims recorded outside blocks, in order."""
    claims, marks = recorder.claims, recorder.surface_parts
    found: list[Claim] = []
    start = 0  # the first claim of the body's text now read
    for index, part in enumerate(marks):
        claimed = (part - 1 - index) // 2  # the claims before the surface marker
        if index % 2 == 0:  # a block opens: the body's text so far ends
            found += claims[start:claimed]
        start = claimed
    return found + claims[start:]


def _repeated(
    name: str, text: str, state: str, format: str, claims: list[Claim], parts: list[str]
) -> Surface | None:
    """The surface of ``claims`` when a key is claimed more than once; None when a key
    is claimed with two values (the marker-by-marker reader reports it)."""
    ends = list(accumulate(map(len, parts)))  # where each part ends: claims' starts, ends
    claimed: dict[str, FactValue] = {}
    anchors: dict[str, list[Anchor]] = {}
    for (key, value, _, _, _), start, end, shown in zip(
        claims, ends[0:-1:2], ends[1::2], parts[1::2], strict=True
    ):
        anchor = Anchor(start, end, shown)
        if key not in claimed:
            claimed[key], anchors[key] = value, [anchor]
            continue
        known = claimed[key]
        if type(known) is not type(value) or known != value:
            return None
        anchors[key].append(anchor)
    return new_surface(
        name, text, state, claimed, {key: tuple(a) for key, a in anchors.items()}, format
    )


def latin1(text: str) -> bool:
    """True when every code point is below U+0100 (so none is a lone surrogate); fast."""
    if text.isascii():
        return True
    try:
        text.encode("latin-1")
    except UnicodeEncodeError:
        return False
    return True
