"""The audit cache's storage (SPEC §13): plain files in sharded folders, checked on read.

Every entry is one file, ``DIR/<kind>/<k[:2]>/<k[2:]>.json``, where ``k`` is the SHA-256
(hex) of the canonical JSON of the entry's key: the cache format, the engine version, the
Unicode versions normalization reads (``engine.unicode``: the ``unicodedata`` database and
the ``regex`` package, SPEC §20), the kind and the kind's own key fields. An entry made under
another Python or ``regex`` is never found, so never read. A file holds two lines: a header
``{"format", "kind", "key", "sha256"}`` and the body, whose bytes the header's ``sha256``
covers. A read trusts an entry only when the header names the key that was asked for
(a file copied or renamed from another entry is foreign) and the body's checksum holds
(a truncated or altered file is corrupt); anything else — unreadable, not JSON, another
format — is a miss, and the caller recomputes. A read opens the entry without following a
link and without waiting (``O_NOFOLLOW | O_NONBLOCK``) and reads only a regular file of
at most :data:`MAX_ENTRY_BYTES`: a FIFO, a device, a folder or a link in an entry's place
is a miss, never a hang, and the entry written after it replaces it (a folder stays, and
the entry with it a miss). An entry is written to a temporary file in its own shard folder
and renamed over the old one, so concurrent writers (``--jobs`` workers, two audits)
leave one whole entry, never a mix.

Nothing is flushed to disk before the rename: after a power cut an entry may be empty or
torn, which its checksum then reveals. Deleting the folder, or any part of it, is always
safe.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import re
import secrets
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from textcontract._engine import unicode_versions
from textcontract._version import __version__
from textcontract.canonical import canonical_json
from textcontract.errors import InputError

__all__ = [
    "CACHE_FORMAT",
    "MAX_ENTRY_BYTES",
    "CacheFolder",
    "is_digest",
    "is_hex_digest",
    "prepare_cache_folder",
]

CACHE_FORMAT = 4
"""Raised whenever what an entry holds, or how its key is made, changes."""
MAX_ENTRY_BYTES = 1024**3
"""An entry file larger than this (1 GiB) is a miss, never read: the largest this cache
writes (one rule's results on the trials of one case) are far smaller."""
_OPEN_ENTRY = (
    os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0)
)
_PLACE_TAKEN = (errno.EISDIR, errno.ENOTDIR, errno.EEXIST, errno.ELOOP)
"""Write failures that say something else is where the entry goes: it is left alone."""
_DIGEST = re.compile(r"sha256:[0-9a-f]{64}")
_HEX_DIGEST = re.compile(r"[0-9a-f]{64}")

_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False)


def prepare_cache_folder(folder: Path, shown: str) -> None:
    """Create ``folder`` when missing and make sure entries can be written there (else exit 2)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".probe.{os.getpid()}.{secrets.token_hex(4)}.tmp"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise InputError.at(f"cannot use the cache folder: {reason}", shown) from None


class CacheFolder:
    """Reads and writes the entries of one cache folder."""

    __slots__ = ("root", "unicode")

    def __init__(self, root: str | Path) -> None:
        self.root = os.fspath(root)
        self.unicode = unicode_versions()

    def key(self, kind: str, fields: Mapping[str, Any]) -> str:
        """The hex key of an entry of ``kind`` whose key fields are ``fields``."""
        whole = {
            "format": CACHE_FORMAT,
            "engine": __version__,
            "unicode": self.unicode,
            "kind": kind,
            "fields": fields,
        }
        return hashlib.sha256(canonical_json(whole)).hexdigest()

    def path(self, kind: str, key: str) -> str:
        return os.path.join(self.root, kind, key[:2], key[2:] + ".json")

    def read(self, kind: str, key: str) -> Any | None:
        """The body of the entry ``key`` of ``kind``; ``None`` when absent, foreign or
        corrupt, or not a regular file of at most :data:`MAX_ENTRY_BYTES`."""
        data = _entry_bytes(self.path(kind, key))
        if data is None:
            return None
        header_end = data.find(b"\n")
        if header_end < 0:
            return None
        body = data[header_end + 1 :]
        try:
            header = json.loads(data[:header_end])
            if header != {
                "format": CACHE_FORMAT,
                "kind": kind,
                "key": key,
                "sha256": hashlib.sha256(body).hexdigest(),
            }:
                return None
            return json.loads(body)
        except (ValueError, RecursionError):
            return None

    def write(self, kind: str, key: str, body: Any) -> None:
        """Write (or replace) an entry atomically; a failure is an input error naming the file."""
        self.write_encoded(kind, key, _ENCODER.encode(body))

    def write_encoded(self, kind: str, key: str, body: str) -> None:
        """:meth:`write` with the body given as JSON text."""
        try:
            encoded = body.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: no such text can be stored
            return
        header = _ENCODER.encode(
            {
                "format": CACHE_FORMAT,
                "kind": kind,
                "key": key,
                "sha256": hashlib.sha256(encoded).hexdigest(),
            }
        ).encode("ascii")
        target = self.path(kind, key)
        shard = os.path.dirname(target)
        temporary = os.path.join(shard, f".{key[2:10]}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
        try:
            try:
                stream = open(temporary, "wb")  # noqa: SIM115 - closed below
            except FileNotFoundError:
                os.makedirs(shard, exist_ok=True)
                stream = open(temporary, "wb")  # noqa: SIM115
            with stream:
                stream.write(header + b"\n" + encoded)
            os.replace(temporary, target)  # over a FIFO, a device or a link too
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            if exc.errno in _PLACE_TAKEN:
                return  # a folder (or a file) where the entry or its shard goes: it stays a miss
            reason = exc.strerror or str(exc)
            raise InputError.at(f"cannot write a cache entry: {reason}", target) from None


def is_digest(value: object) -> bool:
    """Whether ``value`` has a digest's form, ``sha256:`` and 64 lowercase hex digits: what
    an entry records as a digest must, or the entry is a miss."""
    return isinstance(value, str) and _DIGEST.fullmatch(value) is not None


def is_hex_digest(value: object) -> bool:
    """Whether ``value`` is 64 lowercase hex digits (a SHA-256 recorded without a prefix)."""
    return isinstance(value, str) and _HEX_DIGEST.fullmatch(value) is not None


def _entry_bytes(path: str) -> bytes | None:
    """The bytes of the regular file at ``path``, opened without following a link there and
    without waiting for a writer (a FIFO); ``None`` for anything else — missing, a folder,
    a FIFO, a device, a link, over :data:`MAX_ENTRY_BYTES`, or a size that changes while
    it is read."""
    try:
        handle = os.open(path, _OPEN_ENTRY)
    except OSError:
        return None
    try:
        found = os.fstat(handle)
        if not stat.S_ISREG(found.st_mode) or found.st_size > MAX_ENTRY_BYTES:
            return None
        chunks: list[bytes] = []
        wanted = found.st_size + 1  # a byte more tells the file grew
        while wanted > 0 and (chunk := os.read(handle, wanted)):
            chunks.append(chunk)
            wanted -= len(chunk)
    except OSError:
        return None
    finally:
        os.close(handle)
    data = b"".join(chunks)
    return data if len(data) == found.st_size else None
