"""A rule's checks shared between the trials of one case that show it the same surfaces.

Most trials of a case change a fact, a claim or the context and leave every surface as
the baseline has it. A rule type that declares
:attr:`~textcontract.rules.RuleType.reads_surfaces_only` gives the same checks on two
documents whose surfaces it reads (:meth:`~textcontract.rules.RuleType.surfaces_read`)
are equal — name, text, state, anchors and origin, each compared exactly — so a
:class:`SharedChecks` that lives for one case runs such a rule once per distinct set of
read surfaces and hands its checks to the other trials. A result holding an ``error``
check is never shared: a timeout depends on the machine, an exception may not happen
twice (the cache never stores one either).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textcontract.model import Check, Document, Status, Surface
from textcontract.rules import RuleType

__all__ = ["ReadKey", "SharedChecks"]

ReadKey = tuple[int, tuple[int, ...]]
"""A rule's place in the contract and the numbers of the surface values it reads."""

_MISSING = -1


class SharedChecks:
    """The checks of the declaring rules on the trials of one case, by what they read."""

    __slots__ = ("_by_object", "_checks", "_rules", "_values")

    def __init__(self, rules: Sequence[RuleType]) -> None:
        self._rules = rules
        self._values: dict[tuple[Any, ...], int] = {}
        """Each distinct surface value → its number in this case."""
        # the surfaces are kept with their number, so an id is never reused while it is here
        self._by_object: dict[int, tuple[Surface, int]] = {}
        self._checks: dict[ReadKey, list[Check]] = {}

    def key(self, index: int, document: Document) -> ReadKey | None:
        """What the rule at ``index`` reads of ``document``; ``None``: its checks are not shared."""
        names = self._rules[index].surfaces_read(document)
        if names is None:
            return None
        return index, tuple(self._number(document.surface(name)) for name in names)

    def _number(self, surface: Surface | None) -> int:
        if surface is None:
            return _MISSING
        found = self._by_object.get(id(surface))
        if found is not None:
            return found[1]
        origin = surface.origin
        value = (
            surface.name,
            surface.text,
            surface.state,
            tuple((claim, tuple(anchors)) for claim, anchors in surface.anchors.items()),
            origin.line,
            origin.file_lines,
        )
        number = self._values.setdefault(value, len(self._values))
        self._by_object[id(surface)] = (surface, number)
        return number

    def find(self, key: ReadKey) -> list[Check] | None:
        """The checks the rule gave on a trial that read what ``key`` says, if one ran."""
        return self._checks.get(key)

    def keep(self, key: ReadKey, checks: list[Check]) -> None:
        """Share the checks a rule gave on a trial (unless one is an error)."""
        if not any(check.status is Status.ERROR for check in checks):
            self._checks[key] = checks
