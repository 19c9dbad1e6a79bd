"""Which contract a command uses: the one given, else the nearest ``textcontract.yaml``."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["CONTRACT_FILENAME", "locate_contract"]

CONTRACT_FILENAME = "textcontract.yaml"


def locate_contract(
    given: str | os.PathLike[str] | None, start: Path | None = None
) -> tuple[Path, str] | None:
    """The contract to load and how messages name it, or ``None`` when there is none.

    ``given`` (``--contract``) wins and is named as written. Otherwise the nearest
    ``textcontract.yaml`` in ``start`` (the current folder) or a parent is found, named
    relative to ``start`` when it lies below it, else by its absolute path (it is in a
    parent). ``check`` and ``audit`` both find their contract here.
    """
    if given is not None:
        return Path(given), os.fspath(given)
    folder = (start if start is not None else Path.cwd()).resolve()
    for candidate in (folder, *folder.parents):
        path = candidate / CONTRACT_FILENAME
        if path.is_file():
            shown = path.relative_to(folder) if path.is_relative_to(folder) else path
            return path, str(shown)
    return None
