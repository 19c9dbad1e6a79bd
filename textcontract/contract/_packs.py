"""Shipped rule packs: ``include: [builtin:NAME]`` reads ``rules/NAME.yaml`` from the package."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

__all__ = ["PACK_NAME", "builtin_pack", "builtin_pack_names"]

PACK_NAME = re.compile(r"[a-z0-9][a-z0-9-]*\Z")
_PACKS = "packs"


def _folder() -> Traversable:
    # importlib.resources (with tempfile and the compressors) loads when a pack is named
    from importlib import resources

    return resources.files("textcontract").joinpath(_PACKS)


def builtin_pack(name: str) -> Traversable | None:
    """The pack file for ``builtin:NAME``, or None when there is no such pack."""
    if not PACK_NAME.match(name):
        return None
    candidate = _folder().joinpath(f"{name}.yaml")
    return candidate if candidate.is_file() else None


def builtin_pack_names() -> tuple[str, ...]:
    folder = _folder()
    if not folder.is_dir():
        return ()
    return tuple(
        sorted(
            entry.name.removesuffix(".yaml")
            for entry in folder.iterdir()
            if entry.name.endswith(".yaml") and PACK_NAME.match(entry.name.removesuffix(".yaml"))
        )
    )
