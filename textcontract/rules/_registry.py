"""The registry of rule types: built-ins plus entry-point plugins, immutable once built.

Plugins register through the entry-point group ``textcontract.rules``; each
entry point names a :class:`RuleType` subclass. :func:`default_registry` is the
one place where built-ins and plugins are merged; a duplicate name is refused
rather than silently shadowed. Discovery, loading and the immutable mapping are
shared with the mutation operators (:mod:`textcontract._plugins`).
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable
from typing import TYPE_CHECKING

from textcontract._plugins import (
    Catalog,
    installed_entry_points,
    load_entry_points,
    plugins_possible,
)
from textcontract.errors import InputError
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


class Registry(Catalog[type[RuleType]]):
    """An immutable name → rule type mapping that refuses duplicates."""

    noun = "rule type"
    error = RegistryError

    @classmethod
    def faults(cls, item: object) -> list[str]:
        if not (isinstance(item, type) and issubclass(item, RuleType)):
            return [f"{item!r} is not a RuleType subclass"]
        return [f"rule type {item.__name__} {text}" for text in _declaration_problems(item)]


def default_registry(plugins: Iterable[EntryPoint] | None = None) -> Registry:
    """Built-in types plus every ``textcontract.rules`` entry point installed.

    ``plugins`` replaces the installed entry points (tests pass their own).
    """
    selected = installed_entry_points(ENTRY_POINT_GROUP) if plugins is None else plugins
    pairs: list[tuple[str, object]] = [("builtin", t) for t in BUILTIN_TYPES]
    pairs.extend(load_entry_points(selected, "rule", RegistryError))
    return Registry(pairs)


def _plugins_possible() -> bool:
    """Whether an installed distribution can declare a ``textcontract.rules`` plugin.

    The pre-check of :func:`textcontract._plugins.plugins_possible`, for this group.
    """
    return plugins_possible(ENTRY_POINT_GROUP)
