"""Type-preserving canonical JSON and the digests taken over it (SPEC §3).

The form follows RFC 8785 (sorted keys, no insignificant whitespace, minimal
string escaping) except for numbers: integers are plain digits of any size and
floats are Python's shortest round-trip ``repr`` (always with ``.`` or ``e``),
so ``1`` and ``1.0`` keep distinct digests. A plain RFC 8785 library would
serialise both as ``1``; that is why this is not delegated to one.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from typing import Any

__all__ = ["canonical_json", "digest", "digest_bytes", "digest_streamed"]

_ENCODER = json.JSONEncoder(
    ensure_ascii=False,
    sort_keys=True,
    separators=(",", ":"),
    allow_nan=False,
    check_circular=False,
)


def canonical_json(value: Any) -> bytes:
    """Return the canonical UTF-8 bytes of a JSON value.

    ``value`` must hold only dicts with string keys, lists/tuples, strings,
    integers, finite floats, booleans and ``None``. Python sorts ``str`` keys by
    code point, which is the order SPEC §3 asks for.
    """
    return _ENCODER.encode(value).encode("utf-8")


def digest_bytes(data: bytes) -> str:
    """``sha256:`` + lowercase hex of ``data``."""
    return "sha256:" + hashlib.sha256(data).hexdigest()


def digest(value: Any) -> str:
    """Digest of the canonical JSON of ``value``."""
    return digest_bytes(canonical_json(value))


_LONG = 256
"""Strings at least this long are escaped as UTF-8 bytes by :func:`digest_streamed`."""
_ESCAPED = re.compile(rb'[\x00-\x1f"\\]')
_RARE = bytes(0 if byte < 0x20 and byte not in b"\t\n\r" else 1 for byte in range(256))
"""Maps the control characters that JSON escapes other than by ``\\n``, ``\\r`` and ``\\t``
to 0, every other byte to 1 (``bytes.translate`` and a search for 0 scan several times
faster than a regular expression's class)."""


def digest_streamed(value: Any) -> str:
    """:func:`digest` of ``value``, the same string, hashing the canonical JSON piece by
    piece: long strings (a document's texts) are escaped as UTF-8 bytes — a few fast
    replacements where the JSON encoder escapes character by character — and never
    joined into one text. Anything this does not walk (non-string keys, other types) is
    left to the encoder, which raises as :func:`digest` would."""
    found = hashlib.sha256()
    _feed(value, found.update)
    return "sha256:" + found.hexdigest()


def _feed(value: Any, update: Callable[[bytes], object]) -> None:
    if isinstance(value, str) and len(value) >= _LONG:
        update(b'"')
        for start in range(0, len(value), _PIECE):
            update(_escaped(value, value[start : start + _PIECE]))
        update(b'"')
    elif type(value) is dict and all(type(key) is str for key in value):
        update(b"{")
        for index, key in enumerate(sorted(value)):
            update((b"," if index else b"") + _ENCODER.encode(key).encode("utf-8") + b":")
            _feed(value[key], update)
        update(b"}")
    elif type(value) in (list, tuple):
        update(b"[")
        for index, item in enumerate(value):
            if index:
                update(b",")
            _feed(item, update)
        update(b"]")
    else:
        update(canonical_json(value))


_PIECE = 1 << 20
"""Code points of a long string escaped at a time (JSON escapes character by character, so
the pieces' escapes are the whole's): a few MiB of working memory whatever its length."""


def _escaped(text: str, piece: str) -> bytes:
    """The canonical JSON of ``piece`` (a slice of ``text``) without its quotes."""
    try:
        data = piece.encode("utf-8")
    except UnicodeEncodeError:
        return canonical_json(text)  # raises as the encoder does
    if _ESCAPED.search(data) is None:
        return data
    if 0 in data.translate(_RARE):
        return _ENCODER.encode(piece)[1:-1].encode("utf-8")
    data = data.replace(b"\\", b"\\\\").replace(b'"', b'\\"')
    return data.replace(b"\n", b"\\n").replace(b"\r", b"\\r").replace(b"\t", b"\\t")
