"""``lineage:``: where a contract revision comes from (SPEC §17.7).

``{parent_digest: "sha256:…" | null, revision_count: N}``, with ``revision_count`` 0
exactly when ``parent_digest`` is null. Lineage changes no result, so it stays out of
the contract digest; only the top contract's counts (included files' are ignored).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from textcontract.fields import FieldReader

__all__ = ["LINEAGE_FIELDS", "Lineage", "read_lineage"]

LINEAGE_FIELDS = ("parent_digest", "revision_count")
_DIGEST = re.compile(r"sha256:[0-9a-f]{64}\Z")


@dataclass(frozen=True)
class Lineage:
    parent_digest: str | None
    revision_count: int

    def to_json(self) -> dict[str, Any]:
        return {"parent_digest": self.parent_digest, "revision_count": self.revision_count}


def read_lineage(reader: FieldReader, value: Any) -> Lineage | None:
    """The top contract's ``lineage:`` mapping; problems go to ``reader``."""
    path = ("lineage",)
    start = reader.mark()
    fields = reader.mapping(value, path, required=LINEAGE_FIELDS)
    count = reader.integer(fields["revision_count"], (*path, "revision_count"), minimum=0)
    parent = fields["parent_digest"]
    if parent is not None and not reader.failed_since(start):
        parent = reader.string(parent, (*path, "parent_digest"), None)
        if parent is not None and not _DIGEST.match(parent):
            reader.problem(
                (*path, "parent_digest"),
                f"{parent!r} is not a contract digest (sha256: and 64 lowercase hex digits)",
            )
            parent = None
    if reader.failed_since(start):
        return None
    if (count == 0) != (parent is None):
        reader.problem(
            path,
            "revision_count 0 goes with parent_digest null, and only with it "
            f"(got revision_count {count}, parent_digest {parent!r})",
        )
        return None
    return Lineage(parent, count)
