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
from typing import Any

__all__ = ["canonical_json", "digest", "digest_bytes"]

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
