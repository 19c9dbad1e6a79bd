"""The registry of mutation operators: built-ins plus entry-point plugins, immutable once built.

Plugins register through the entry-point group ``textcontract.operators``; each entry point
names an :class:`Operator` subclass. Discovery (with its cheap pre-check), loading and the
duplicate-refusing mapping are the rule registry's (:mod:`textcontract._plugins`).
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from textcontract._plugins import Catalog, installed_entry_points, load_entry_points
from textcontract.errors import InputError
from textcontract.mutate._base import Operator, OperatorClass
from textcontract.mutate.anchor_edit import AnchorEdit
from textcontract.mutate.claim_from_other_snapshot import ClaimFromOtherSnapshot
from textcontract.mutate.claim_perturb import ClaimPerturb
from textcontract.mutate.claim_retype import ClaimRetype
from textcontract.mutate.code_wrap import CodeWrap
from textcontract.mutate.emphasis_toggle import EmphasisToggle
from textcontract.mutate.empty_surface import EmptySurface
from textcontract.mutate.fact_flip import FactFlip
from textcontract.mutate.fact_retype import FactRetype
from textcontract.mutate.forbidden_disguise import ForbiddenDisguise
from textcontract.mutate.forbidden_inject import ForbiddenInject
from textcontract.mutate.history_replay import HistoryReplay
from textcontract.mutate.keyword_stuffing import KeywordStuffing
from textcontract.mutate.link_lookalike import LinkLookalike
from textcontract.mutate.no_op_transition import NoOpTransition
from textcontract.mutate.reflow_whitespace import ReflowWhitespace
from textcontract.mutate.refusal import Refusal
from textcontract.mutate.required_delete import RequiredDelete
from textcontract.mutate.restate_source import RestateSource
from textcontract.mutate.smart_quotes import SmartQuotes
from textcontract.mutate.trailing_newline import TrailingNewline
from textcontract.mutate.unicode_nfd import UnicodeNfd

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

__all__ = [
    "BUILTIN_OPERATORS",
    "ENTRY_POINT_GROUP",
    "OperatorRegistry",
    "OperatorRegistryError",
    "default_operators",
]

ENTRY_POINT_GROUP = "textcontract.operators"

BUILTIN_OPERATORS: tuple[type[Operator], ...] = (
    FactFlip,
    FactRetype,
    ClaimPerturb,
    ClaimRetype,
    ClaimFromOtherSnapshot,
    NoOpTransition,
    ForbiddenInject,
    ForbiddenDisguise,
    RequiredDelete,
    EmptySurface,
    Refusal,
    KeywordStuffing,
    RestateSource,
    HistoryReplay,
    LinkLookalike,
    AnchorEdit,
    CodeWrap,
    ReflowWhitespace,
    UnicodeNfd,
    SmartQuotes,
    TrailingNewline,
    EmphasisToggle,
)

_NAME = re.compile(r"[a-z0-9][a-z0-9-]*\Z")


class OperatorRegistryError(InputError):
    """An operator declaration is invalid, duplicated, or a plugin failed to load."""


def _declaration_problems(operator: type[Operator]) -> list[str]:
    missing = [a for a in ("name", "probe_class", "summary") if not hasattr(operator, a)]
    if missing:
        return [f"declares no {attribute}" for attribute in missing]
    problems = []
    if not isinstance(operator.name, str) or not _NAME.match(operator.name):
        problems.append("name must match [a-z0-9][a-z0-9-]*")
    if not isinstance(operator.probe_class, OperatorClass):
        problems.append("probe_class must be an OperatorClass")
    if not (isinstance(operator.version, int) and not isinstance(operator.version, bool)):
        problems.append("version must be an integer")
    elif operator.version < 1:
        problems.append("version must be 1 or more")
    targets = operator.targets
    if not (isinstance(targets, tuple) and all(isinstance(t, str) for t in targets)):
        problems.append("targets must be a tuple of rule type names")
    elif (operator.probe_class is OperatorClass.PRESERVE) == bool(targets):
        problems.append("a preserve operator targets no rule; every other targets one or more")
    if inspect.isabstract(operator):
        problems.append("does not implement generate")
    return problems


class OperatorRegistry(Catalog[type[Operator]]):
    """An immutable name → operator mapping that refuses duplicates."""

    noun = "operator"
    error = OperatorRegistryError

    @classmethod
    def faults(cls, item: object) -> list[str]:
        if not (isinstance(item, type) and issubclass(item, Operator)):
            return [f"{item!r} is not an Operator subclass"]
        return [f"operator {item.__name__} {text}" for text in _declaration_problems(item)]


def default_operators(plugins: Iterable[EntryPoint] | None = None) -> OperatorRegistry:
    """Built-in operators plus every ``textcontract.operators`` entry point installed.

    ``plugins`` replaces the installed entry points (tests pass their own).
    """
    selected = installed_entry_points(ENTRY_POINT_GROUP) if plugins is None else plugins
    pairs: list[tuple[str, object]] = [("builtin", op) for op in BUILTIN_OPERATORS]
    pairs.extend(load_entry_points(selected, "operator", OperatorRegistryError))
    return OperatorRegistry(pairs)
