"""Where a run's inputs came from: the source revision (SPEC §17.8).

Recorded in audit reports and artifacts; nothing reads it back to decide anything.
Reading git happens outside this package (:mod:`textcontract.environment`); here are
the value, the attested form a caller writes (``COMMIT``, ``COMMIT+dirty``,
``COMMIT+clean``) and the reader for artifacts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from textcontract.errors import InputError
from textcontract.fields import FieldReader, KeyPath

__all__ = [
    "RevisionBasis",
    "SourceRevision",
    "attested_revision",
    "read_source_revision",
]

_COMMIT = re.compile(r"[0-9a-fA-F]{40}\Z")
_SUFFIXES = {"": None, "+dirty": True, "+clean": False}


class RevisionBasis(StrEnum):
    GIT = "git"
    """Read from git by ``--source-revision auto``."""
    ATTESTED = "attested"
    """Given by the caller."""
    UNKNOWN = "unknown"
    """``auto`` could not read it (no git, no work tree, no HEAD, a command failed)."""


@dataclass(frozen=True)
class SourceRevision:
    """A commit and whether the tree was dirty; ``None`` where not known, never guessed."""

    commit: str | None
    dirty: bool | None
    basis: RevisionBasis

    @classmethod
    def unknown(cls) -> SourceRevision:
        return cls(None, None, RevisionBasis.UNKNOWN)

    def to_json(self) -> dict[str, Any]:
        return {"commit": self.commit, "dirty": self.dirty, "basis": self.basis.value}


def attested_revision(text: str, option: str = "--source-revision") -> SourceRevision:
    """``COMMIT``, ``COMMIT+dirty`` or ``COMMIT+clean`` (40 hex digits, lowercased)."""
    for suffix, dirty in _SUFFIXES.items():
        if suffix and not text.endswith(suffix):
            continue
        commit = text[: len(text) - len(suffix)] if suffix else text
        if _COMMIT.match(commit):
            return SourceRevision(commit.lower(), dirty, RevisionBasis.ATTESTED)
    raise InputError.at(
        f"{text!r} is not a source revision: give auto (audit only), or a 40-hex-digit "
        "commit, optionally followed by +dirty or +clean",
        key=option,
    )


def read_source_revision(reader: FieldReader, value: Any, path: KeyPath) -> SourceRevision | None:
    """An artifact's ``source_revision``: ``null`` or ``{commit, dirty, basis}``."""
    if value is None:
        return None
    fields = reader.mapping(value, path, required=("commit", "dirty", "basis"))
    commit = reader.optional_string(fields["commit"], (*path, "commit"))
    dirty = fields["dirty"]
    if dirty is not None and not isinstance(dirty, bool):
        reader.boolean(dirty, (*path, "dirty"))
        dirty = None
    basis = reader.choice(fields["basis"], (*path, "basis"), RevisionBasis, RevisionBasis.UNKNOWN)
    return SourceRevision(commit, dirty, basis)
