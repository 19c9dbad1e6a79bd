"""Seeded choices that do not depend on the Python version or on what was chosen before.

Each choice is a SHA-256 of the seed, the operator's name and labels naming what is being
chosen (a rule id, a surface, a purpose), so adding an operator or a variant never moves
the choices of another, and the same seed gives the same bytes on every platform.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

__all__ = ["Chooser"]

T = TypeVar("T")


class Chooser:
    """Deterministic choices for one operator under one seed."""

    __slots__ = ("scope", "seed")

    def __init__(self, seed: int, scope: str) -> None:
        self.seed = seed
        self.scope = scope

    def _number(self, labels: tuple[object, ...]) -> int:
        key = "\x1f".join([str(self.seed), self.scope, *map(str, labels)])
        return int.from_bytes(hashlib.sha256(key.encode("utf-8")).digest()[:8], "big")

    def index(self, count: int, *labels: object) -> int:
        """A position in ``range(count)`` (``count`` ≥ 1) chosen by the labels."""
        if count < 1:
            raise ValueError("nothing to choose from")
        return self._number(labels) % count

    def pick(self, options: Sequence[T], *labels: object) -> T:
        """One of ``options`` (non-empty)."""
        return options[self.index(len(options), *labels)]

    def order(self, options: Sequence[T], *labels: object) -> list[T]:
        """``options`` in a seeded order (a rotation, so every option keeps its neighbours)."""
        if not options:
            return []
        start = self.index(len(options), *labels)
        return [*options[start:], *options[:start]]
