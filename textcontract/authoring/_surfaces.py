"""Which surfaces a configured rule reads, from its parameter declarations alone."""

from __future__ import annotations

from collections.abc import Iterator

from textcontract.model import BODY
from textcontract.rules import SURFACE, SURFACES, Param, RuleType

__all__ = ["declared_surfaces", "surfaces_read"]


def _is_surface_param(param: Param) -> bool:
    return param.type is SURFACE or param.type is SURFACES.type or param.name == SURFACES.name


def declared_surfaces(rule: RuleType) -> Iterator[tuple[str, str]]:
    """``(parameter, surface name)`` for every surface the rule's parameters name."""
    for param in type(rule).params:
        if not _is_surface_param(param) or not rule.options.has(param.name):
            continue
        value = rule.options.raw(param.name)
        if isinstance(value, str):
            yield param.name, value
        elif isinstance(value, tuple | list):
            yield from ((param.name, item) for item in value if isinstance(item, str))


def surfaces_read(rule: RuleType) -> tuple[str, ...]:
    """The surfaces an example is put on: those the rule names, else one ``body`` surface.

    A rule without a ``surfaces`` list reads every surface of the document, so
    a one-surface document is enough; LexicalRestatement names two (``source``
    and ``target``), and both receive the example.
    """
    names: list[str] = []
    for _, name in declared_surfaces(rule):
        if name not in names:
            names.append(name)
    return tuple(names) or (BODY,)
