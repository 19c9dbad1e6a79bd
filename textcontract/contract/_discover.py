"""Finding ``textcontract.yaml`` in a folder or its parents."""

from __future__ import annotations

from pathlib import Path

__all__ = ["CONTRACT_FILENAME", "find_contract"]

CONTRACT_FILENAME = "textcontract.yaml"


def find_contract(start: Path) -> Path | None:
    """The nearest ``textcontract.yaml`` at ``start`` or above it."""
    folder = start.resolve()
    for candidate in (folder, *folder.parents):
        path = candidate / CONTRACT_FILENAME
        if path.is_file():
            return path
    return None
