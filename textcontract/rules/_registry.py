"""The registry of rule types: built-ins plus entry-point plugins, immutable once built.

Plugins register through the entry-point group ``textcontract.rules``; each
entry point names a :class:`RuleType` subclass. :func:`default_registry` is the
one place where built-ins and plugins are merged; a duplicate name is refused
rather than silently shadowed.
"""

from __future__ import annotations

import inspect
import os
import sys
from collections.abc import Iterable, Iterator, Mapping
from importlib.machinery import PathFinder
from types import MappingProxyType
from typing import TYPE_CHECKING

from textcontract.errors import InputError, Location, Problem
from textcontract.fields import closest
from textcontract.model import Kind
from textcontract.rules._base import RuleType
from textcontract.rules.allowed_transition import AllowedTransition
from textcontract.rules.claims_anchored import ClaimsAnchored
from textcontract.rules.compare_fields import CompareFields
from textcontract.rules.declared_claims_consistent import DeclaredClaimsConsistent
from textcontract.rules.forbidden_pattern import ForbiddenPattern
from textcontract.rules.lexical_diversity import LexicalDiversity
from textcontract.rules.lexical_restatement import LexicalRestatement
from textcontract.rules.link_domains import LinkDomains
from textcontract.rules.minimum_tokens import MinimumTokens
from textcontract.rules.no_repeated_text import NoRepeatedText
from textcontract.rules.required_fact import RequiredFact
from textcontract.rules.required_pattern import RequiredPattern
from textcontract.rules.settled_premise import SettledPremise
from textcontract.rules.state_changed import StateChanged
from textcontract.rules.token_range import TokenRange

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

__all__ = ["BUILTIN_TYPES", "ENTRY_POINT_GROUP", "Registry", "RegistryError", "default_registry"]

ENTRY_POINT_GROUP = "textcontract.rules"

BUILTIN_TYPES: tuple[type[RuleType], ...] = (
    RequiredFact,
    DeclaredClaimsConsistent,
    StateChanged,
    ForbiddenPattern,
    RequiredPattern,
    MinimumTokens,
    TokenRange,
    LexicalDiversity,
    LexicalRestatement,
    SettledPremise,
    NoRepeatedText,
    LinkDomains,
    CompareFields,
    AllowedTransition,
    ClaimsAnchored,
)


class RegistryError(InputError):
    """A rule type declaration is invalid, duplicated, or a plugin failed to load."""


def _declaration_problems(rule_type: type[RuleType]) -> list[str]:
    problems = []
    for attribute in ("name", "kind", "summary", "main_code"):
        if not hasattr(rule_type, attribute):
            problems.append(f"declares no {attribute}")
    if problems:
        return problems
    if not isinstance(rule_type.kind, Kind):
        problems.append("kind must be Kind.INVARIANT or Kind.HEURISTIC")
    codes = {code.name for code in rule_type.codes}
    if rule_type.main_code not in codes:
        problems.append(f"main_code {rule_type.main_code!r} is not among its codes")
    names = [param.name for param in rule_type.params]
    if len(names) != len(set(names)):
        problems.append("declares a parameter twice")
    if inspect.isabstract(rule_type):
        problems.append("does not implement evaluate")
    return problems


class Registry(Mapping[str, type[RuleType]]):
    """An immutable name → rule type mapping that refuses duplicates."""

    def __init__(self, types: Iterable[tuple[str, type[RuleType]]]) -> None:
        found: dict[str, type[RuleType]] = {}
        origins: dict[str, str] = {}
        problems: list[Problem] = []
        for origin, rule_type in types:
            if not (isinstance(rule_type, type) and issubclass(rule_type, RuleType)):
                problems.append(
                    Problem(f"{rule_type!r} is not a RuleType subclass", Location(origin))
                )
                continue
            declaration = _declaration_problems(rule_type)
            if declaration:
                problems.extend(
                    Problem(f"rule type {rule_type.__name__} {text}", Location(origin))
                    for text in declaration
                )
                continue
            if rule_type.name in found:
                problems.append(
                    Problem(
                        f"rule type {rule_type.name!r} is registered twice "
                        f"({origins[rule_type.name]} and {origin})",
                        Location(origin),
                    )
                )
                continue
            found[rule_type.name] = rule_type
            origins[rule_type.name] = origin
        if problems:
            raise RegistryError(problems)
        self._types = MappingProxyType(found)
        self._origins = MappingProxyType(origins)

    def __getitem__(self, name: str) -> type[RuleType]:
        return self._types[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._types)

    def __len__(self) -> int:
        return len(self._types)

    def origin(self, name: str) -> str:
        """``builtin`` or the entry point a type came from."""
        return self._origins[name]

    def suggest(self, name: str) -> str | None:
        """The closest registered name, for "did you mean" hints."""
        return closest(name, list(self._types))


def _load_entry_point(entry_point: EntryPoint) -> tuple[str, type[RuleType]]:
    origin = f"plugin {entry_point.name} ({entry_point.value})"
    try:
        loaded = entry_point.load()
    except Exception as exc:
        raise RegistryError(
            Problem(f"cannot load rule plugin: {type(exc).__name__}: {exc}", Location(origin))
        ) from None
    return origin, loaded


def default_registry(plugins: Iterable[EntryPoint] | None = None) -> Registry:
    """Built-in types plus every ``textcontract.rules`` entry point installed.

    ``plugins`` replaces the installed entry points (tests pass their own).
    """
    if plugins is None:
        selected: Iterable[EntryPoint] = ()
        if _plugins_possible():
            from importlib.metadata import entry_points

            selected = entry_points(group=ENTRY_POINT_GROUP)
    else:
        selected = plugins
    pairs: list[tuple[str, type[RuleType]]] = [("builtin", t) for t in BUILTIN_TYPES]
    pairs.extend(
        _load_entry_point(entry_point) for entry_point in sorted(selected, key=lambda e: e.name)
    )
    return Registry(pairs)


def _plugins_possible() -> bool:
    """False only when no installed distribution can declare a ``textcontract.rules`` plugin.

    Importing :mod:`importlib.metadata` costs more than loading a contract, and most
    environments have no plugin. This looks where ``entry_points()`` looks — every
    ``*.dist-info`` and ``*.egg-info`` folder on ``sys.path`` — for an ``entry_points.txt``
    that mentions the group at all; when the answer could come from somewhere else (an
    archive or an ``.egg`` on the path, a custom distribution finder) it says True and
    ``entry_points()`` decides, so the registry is the same either way.
    """
    if any(
        hasattr(finder, "find_distributions") and finder is not PathFinder
        for finder in sys.meta_path
    ):
        return True
    return any(_may_declare_plugins(entry) for entry in sys.path)


def _may_declare_plugins(entry: object) -> bool:
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
    needle = ENTRY_POINT_GROUP.encode("ascii")
    for child in children:
        if child.lower().endswith((".dist-info", ".egg-info")):
            try:
                with open(os.path.join(folder, child, "entry_points.txt"), "rb") as stream:
                    if needle in stream.read():
                        return True
            except OSError:
                continue
    return False
