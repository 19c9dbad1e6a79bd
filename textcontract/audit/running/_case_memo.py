"""Cached first passes (SPEC §13): a case file validated once is not parsed again.

Validating a case file is a function of its bytes, of the bytes of every file it quotes
(documents, contexts), of where those references resolve (symlinks followed, inside the
corpus folder), and of whether the rules its expectations name are in the contract. The
first pass of a valid case file therefore leaves an entry (kind ``validated``) keyed by
the file's path in the corpus folder and the SHA-256 of its bytes, holding what the pass
found — the case id and where it is written, the number of variants, the fingerprint —
the file's YAML value, and what it depended on: each quoted file's reference, where it
resolved and the SHA-256 of its bytes, and the expected rule ids. A later pass that finds
the entry rebuilds the case from the YAML value (no YAML parsing), reading each quoted
file again, and uses it only when every quoted file resolved where, and had the bytes,
the entry records — before it was read and after the case was built — and the expected
rules suit the contract; otherwise the file is read and validated as without a cache.

A file's bytes are hashed before it is read and again after the case is validated; an
entry is written only when both agree, so a file edited during the pass is never
recorded as validated.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from textcontract.audit.reading import Expectation, Relation, Validity, Variant
from textcontract.audit.running._cache import CacheFolder, is_hex_digest
from textcontract.errors import Location, render_key_path
from textcontract.model import Severity
from textcontract.strength import Exposure, ProbeClass

__all__ = [
    "Quotes",
    "file_sha256",
    "id_location",
    "outline_json",
    "recall_outline",
    "recall_tree",
    "remember",
]

KIND = "validated"
_ID_PATH = ("id",)


def file_sha256(path: str | Path) -> str | None:
    """The SHA-256 (hex) of a file's bytes, or ``None`` when it cannot be read."""
    try:
        with open(path, "rb") as stream:
            return hashlib.file_digest(stream, "sha256").hexdigest()
    except OSError:
        return None


class Quotes:
    """The files one case quotes, each hashed as the reader is about to read it."""

    def __init__(self, root: Path) -> None:
        self._root = root
        self.found: list[tuple[str, str, str | None]] = []
        self.value: list[Any] = []
        """The case file's YAML value, once read (a list of one)."""

    def tree(self, value: Any) -> None:
        self.value = [value]

    def __call__(self, reference: str, resolved: Path) -> None:
        relative = resolved.relative_to(self._root).as_posix()
        self.found.append((reference, relative, file_sha256(resolved)))

    def recorded(self) -> list[list[str | None]]:
        """The quoted files as an entry records them (sorted, each once)."""
        files = sorted(set(self.found), key=lambda found: (found[0], found[1], found[2] or ""))
        return [list(found) for found in files]

    def resolve_as_recorded(self, folder: Path, recorded: Any) -> bool:
        """Whether every file an entry records (``[reference, relative, sha256]``, references
        relative to the case file's ``folder``) still resolves where, and has the bytes,
        it records — for quoted files the case is planned without reading. Files this
        object heard of with those very fields are not hashed here: :meth:`unchanged`
        hashes them again."""
        if not isinstance(recorded, list):
            return False
        quoted = {tuple(found) for found in self.found}  # hashed already, and again later
        for found in recorded:
            if not (isinstance(found, list) and len(found) == 3):
                return False
            reference, relative, digest = found
            if (reference, relative, digest) in quoted:
                continue
            if not (isinstance(reference, str) and is_hex_digest(digest)):
                return False
            resolved = (folder / reference).resolve()
            if not resolved.is_relative_to(self._root):
                return False
            if resolved.relative_to(self._root).as_posix() != relative:
                return False
            if file_sha256(resolved) != digest:
                return False
        return True

    def unchanged(self) -> bool:
        """Whether every quoted file still has the bytes it had when it was read."""
        return all(
            digest is not None and file_sha256(self._root / relative) == digest
            for _, relative, digest in self.found
        )


def _key(folder: CacheFolder, file: str, content: str) -> str:
    return folder.key(KIND, {"file": file, "sha256": content})


def remember(
    folder: CacheFolder,
    file: str,
    content: str,
    quotes: Quotes,
    found: dict[str, Any],
) -> None:
    """Record a valid case file's first pass (``found``: id, line, column, variants, ...)."""
    body = {**found, "files": quotes.recorded(), "tree": quotes.value}
    folder.write(KIND, _key(folder, file, content), body)


def recall_tree(folder: CacheFolder, file: str, content: str) -> dict[str, Any] | None:
    """The entry of a validated case file with these bytes, when it holds the file's YAML
    value (``tree``, a list of one), or ``None``."""
    body = folder.read(KIND, _key(folder, file, content))
    if not isinstance(body, dict):
        return None
    tree = body.get("tree")
    if not isinstance(tree, list) or len(tree) != 1:
        return None
    return body


def id_location(display: str, line: int, column: int) -> Location:
    """Where a case's id is written, as the reader reports it."""
    return Location(display, line, column, render_key_path(_ID_PATH), path=_ID_PATH)


def outline_json(variant: Variant, trials: int, identical: bool | None) -> dict[str, Any]:
    """What the first pass plans a variant from, as a ``validated`` entry keeps it: its
    labels as written, its exposure, its trial count and whether every trial equals the
    baseline (``None`` for a variant its label excludes: never asked)."""
    return {
        **variant.labels_json(),
        "exposure": variant.exposure.value,
        "trials": trials,
        "identical": identical,
    }


class _Unreadable(Exception):
    pass


def _text(value: Any, optional: bool = False) -> Any:
    if isinstance(value, str) or (optional and value is None):
        return value
    raise _Unreadable


def _expectation(value: Any) -> Expectation:
    if not isinstance(value, dict) or list(value) != ["rule", "code", "scope"]:
        raise _Unreadable
    return Expectation(_text(value["rule"]), _text(value["code"]), _text(value["scope"]))


def _outlined(value: Any, location: Location) -> tuple[Variant, int, bool | None]:
    if not isinstance(value, dict):
        raise _Unreadable
    expect, trials, identical = value["expect"], value["trials"], value["identical"]
    if not (
        isinstance(expect, list)
        and type(trials) is int
        and trials >= 1
        and (identical is None or isinstance(identical, bool))
        and isinstance(value["canary"], bool)
    ):
        raise _Unreadable
    severity = _text(value["severity"], optional=True)
    variant = Variant(
        id=_text(value["id"]),
        relation=Relation(value["relation"]),
        validity=Validity(value["validity"]),
        provenance=_text(value["provenance"], optional=True),
        family=_text(value["family"]),
        probe_class=ProbeClass(value["class"]),
        severity=None if severity is None else Severity(severity),
        canary=value["canary"],
        expect=tuple(_expectation(item) for item in expect),
        trials=(),
        location=location,
        exposure=Exposure(value["exposure"]),
    )
    return variant, trials, identical


def recall_outline(
    body: dict[str, Any], location: Location
) -> tuple[tuple[Variant, ...], tuple[int, ...], tuple[bool | None, ...]] | None:
    """The variants a ``validated`` entry outlines (without their changes: ``trials`` is
    empty and every location is ``location``), their trial counts and identical flags;
    ``None`` when the entry holds no well-formed outline."""
    outline = body.get("outline")
    if not isinstance(outline, list):
        return None
    try:
        found = [_outlined(value, location) for value in outline]
    except (_Unreadable, KeyError, ValueError, TypeError):
        return None
    variants = tuple(variant for variant, _, _ in found)
    if len({variant.id for variant in variants}) != len(variants):
        return None
    return variants, tuple(n for _, n, _ in found), tuple(flag for _, _, flag in found)
