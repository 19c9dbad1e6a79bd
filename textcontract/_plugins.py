"""Plugins through entry-point groups: finding them cheaply, loading them, one immutable catalog.

Rule types (``textcontract.rules``) and mutation operators (``textcontract.operators``) are
both plugins. Each kind keeps its own declaration checks; what they share lives here:

* :func:`installed_entry_points` — the entry points of one group, after a pre-check that
  avoids importing :mod:`importlib.metadata` when no installed distribution can declare it;
* :func:`load_entry_points` — each entry point loaded, a failure reported with its origin;
* :class:`Catalog` — an immutable name → plugin mapping that refuses duplicate names and
  reports every faulty declaration at once.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator, Mapping
from importlib.machinery import PathFinder
from types import MappingProxyType
from typing import TYPE_CHECKING, ClassVar, Generic, TypeVar, cast

from textcontract.errors import InputError, Location, Problem
from textcontract.fields import closest

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

__all__ = ["Catalog", "installed_entry_points", "load_entry_points", "plugins_possible"]

T = TypeVar("T")


class Catalog(Mapping[str, T], Generic[T]):
    """An immutable name → plugin mapping that refuses duplicates.

    Subclasses say what they hold (``noun``, for messages), which error to raise, how to name
    an item and what is wrong with a declaration (:meth:`faults`). Items arrive as
    ``(origin, item)`` pairs; the origin (``builtin`` or the entry point) names where each came
    from in messages and in :meth:`origin`.
    """

    noun: ClassVar[str] = "plugin"
    error: ClassVar[type[InputError]] = InputError

    def __init__(self, items: Iterable[tuple[str, object]]) -> None:
        found: dict[str, T] = {}
        origins: dict[str, str] = {}
        problems: list[Problem] = []
        for origin, item in items:
            faults = self.faults(item)
            if faults:
                problems.extend(Problem(text, Location(origin)) for text in faults)
                continue
            name = self.name_of(item)
            if name in found:
                problems.append(
                    Problem(
                        f"{self.noun} {name!r} is registered twice ({origins[name]} and {origin})",
                        Location(origin),
                    )
                )
                continue
            found[name] = cast("T", item)  # faults() vouched for its type
            origins[name] = origin
        if problems:
            raise self.error(problems)
        self._items = MappingProxyType(found)
        self._origins = MappingProxyType(origins)

    @classmethod
    def faults(cls, item: object) -> list[str]:
        """Everything wrong with one declaration, as whole sentences (empty when sound)."""
        del item
        return []

    @classmethod
    def name_of(cls, item: object) -> str:
        """The registered name of a sound declaration."""
        return str(getattr(item, "name", None))

    def __getitem__(self, name: str) -> T:
        return self._items[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def origin(self, name: str) -> str:
        """``builtin`` or the entry point an item came from."""
        return self._origins[name]

    def suggest(self, name: str) -> str | None:
        """The closest registered name, for "did you mean" hints."""
        return closest(name, list(self._items))


def load_entry_points(
    entry_points: Iterable[EntryPoint], noun: str, error: type[InputError]
) -> list[tuple[str, object]]:
    """``(origin, loaded object)`` for each entry point, sorted by entry-point name.

    A plugin that cannot be imported is ``error`` naming the entry point.
    """
    loaded: list[tuple[str, object]] = []
    for entry_point in sorted(entry_points, key=lambda e: e.name):
        origin = f"plugin {entry_point.name} ({entry_point.value})"
        try:
            item = entry_point.load()
        except Exception as exc:
            raise error(
                Problem(f"cannot load {noun} plugin: {type(exc).__name__}: {exc}", Location(origin))
            ) from None
        loaded.append((origin, item))
    return loaded


def installed_entry_points(group: str) -> tuple[EntryPoint, ...]:
    """Every installed entry point of ``group`` (none, cheaply, when none can exist)."""
    if not plugins_possible(group):
        return ()
    from importlib.metadata import entry_points

    return tuple(entry_points(group=group))


def plugins_possible(group: str) -> bool:
    """False only when no installed distribution can declare a plugin of ``group``.

    Importing :mod:`importlib.metadata` costs more than loading a contract, and most
    environments have no plugin. This looks where ``entry_points()`` looks — every
    ``*.dist-info`` and ``*.egg-info`` folder on ``sys.path`` — for an ``entry_points.txt``
    that mentions the group at all; when the answer could come from somewhere else (an
    archive or an ``.egg`` on the path, a custom distribution finder) it says True and
    ``entry_points()`` decides, so the result is the same either way.
    """
    if any(
        hasattr(finder, "find_distributions") and not _path_based(finder)
        for finder in sys.meta_path
    ):
        return True
    needle = group.encode("ascii")
    return any(_may_declare(entry, needle) for entry in sys.path)


def _path_based(finder: object) -> bool:
    """The standard finder, or importlib_metadata's (which dask and others import; it takes
    over from the standard one): both read the ``*.dist-info`` folders on ``sys.path``."""
    return finder is PathFinder or type(finder).__module__ == "importlib_metadata"


def _may_declare(entry: object, needle: bytes) -> bool:
    """Whether a ``sys.path`` entry could hold a distribution declaring the group."""
    if not isinstance(entry, str):
        return True
    folder = entry or "."
    if os.path.basename(folder).lower().endswith(".egg"):
        return True
    try:
        children = os.listdir(folder)
    except OSError:
        return os.path.isfile(folder)  # perhaps a zip archive holding distributions
    for child in children:
        if child.lower().endswith((".dist-info", ".egg-info")):
            try:
                with open(os.path.join(folder, child, "entry_points.txt"), "rb") as stream:
                    if needle in stream.read():
                        return True
            except OSError:
                continue
    return False
