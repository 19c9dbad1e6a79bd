"""The audit cache's storage (SPEC §13): plain files in sharded folders, checked on read.

Every entry is one file, ``DIR/<kind>/<k[:2]>/<k[2:]>.json``, where ``k`` is the SHA-256
(hex) of the canonical JSON of the entry's key: the cache format, the engine version, the
kind and the kind's own key fields. A file holds two lines: a header
``{"format", "kind", "key", "sha256"}`` and the body, whose bytes the header's ``sha256``
covers. A read trusts an entry only when the header names the key that was asked for
(a file copied or renamed from another entry is foreign) and the body's checksum holds
(a truncated or altered file is corrupt); anything else — unreadable, not JSON, another
format — is a miss, and the caller recomputes. An entry is written to a temporary file in
its own shard folder and renamed over the old one, so concurrent writers (``--jobs``
workers, two audits) leave one whole entry, never a mix.

Nothing is flushed to disk before the rename: after a power cut an entry may be empty or
torn, which its checksum then reveals. Deleting the folder, or any part of it, is always
safe.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from textcontract._version import __version__
from textcontract.canonical import canonical_json
from textcontract.errors import InputError

__all__ = ["CACHE_FORMAT", "CacheFolder", "prepare_cache_folder"]

CACHE_FORMAT = 4
"""Raised whenever what an entry holds, or how its key is made, changes."""

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

    __slots__ = ("root",)

    def __init__(self, root: str | Path) -> None:
        self.root = os.fspath(root)

    @staticmethod
    def key(kind: str, fields: Mapping[str, Any]) -> str:
        """The hex key of an entry of ``kind`` whose key fields are ``fields``."""
        whole = {"format": CACHE_FORMAT, "engine": __version__, "kind": kind, "fields": fields}
        return hashlib.sha256(canonical_json(whole)).hexdigest()

    def path(self, kind: str, key: str) -> str:
        return os.path.join(self.root, kind, key[:2], key[2:] + ".json")

    def read(self, kind: str, key: str) -> Any | None:
        """The body of the entry ``key`` of ``kind``; ``None`` when absent, foreign or corrupt."""
        try:
            with open(self.path(kind, key), "rb") as stream:
                data = stream.read()
        except OSError:
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
            os.replace(temporary, target)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            reason = exc.strerror or str(exc)
            raise InputError.at(f"cannot write a cache entry: {reason}", target) from None
