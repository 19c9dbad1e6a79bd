"""The context: named state snapshots of flat facts, closed premises and history."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from textcontract.canonical import digest
from textcontract.errors import InputError, Location, Problem
from textcontract.model._facts import FactValue, is_valid_unicode, type_name, validate_facts

__all__ = ["DEFAULT_STATE", "Context"]

DEFAULT_STATE = "current"
_FULL_FORM_KEYS = ("states", "closed_premises", "history")


@dataclass(frozen=True, eq=True)
class Context:
    """Trusted state a document is checked against (SPEC §2.1).

    ``states`` maps a snapshot name to its facts. An absent key is *unknown*;
    ``None`` is a present null value.
    """

    states: Mapping[str, Mapping[str, FactValue]] = field(default_factory=dict)
    closed_premises: tuple[str, ...] = ()
    history: tuple[str, ...] = ()

    def fact(self, state: str, key: str) -> tuple[bool, FactValue]:
        """``(present, value)``; ``present`` is false for a missing snapshot or key."""
        snapshot = self.states.get(state)
        if snapshot is None or key not in snapshot:
            return False, None
        return True, snapshot[key]

    def to_json(self) -> dict[str, Any]:
        """The canonical (full) form; both input forms of one context give the same."""
        return {
            "states": {name: dict(facts) for name, facts in self.states.items()},
            "closed_premises": list(self.closed_premises),
            "history": list(self.history),
        }

    @cached_property
    def digest(self) -> str:
        return digest(self.to_json())

    @classmethod
    def empty(cls) -> Context:
        """The context used when none is given: one empty ``current`` snapshot."""
        return cls(states={DEFAULT_STATE: {}})

    @classmethod
    def from_json(cls, obj: object, source: str | None = None) -> Context:
        """Build from the full form or the flat shorthand; every problem is reported."""
        problems: list[Problem] = []
        if not isinstance(obj, Mapping):
            raise InputError(
                Problem(f"a context must be a JSON object, got {type_name(obj)}", Location(source))
            )
        if not isinstance(obj.get("states"), Mapping):
            facts = validate_facts(obj, [], source, problems)
            if problems:
                raise InputError(problems)
            return cls(states={DEFAULT_STATE: facts})
        for key in obj:
            if key not in _FULL_FORM_KEYS:
                problems.append(
                    Problem(
                        "unknown key in a context with 'states' (expected states, "
                        "closed_premises, history)",
                        Location.of_path(source, [key]),
                    )
                )
        states: dict[str, dict[str, FactValue]] = {}
        for name, facts in obj["states"].items():
            if not isinstance(name, str) or not name or not is_valid_unicode(name):
                problems.append(
                    Problem(
                        "snapshot names must be non-empty, valid Unicode strings",
                        Location.of_path(
                            source, ["states", name] if isinstance(name, str) else ["states"]
                        ),
                    )
                )
                continue
            states[name] = validate_facts(facts, ["states", name], source, problems)
        premises = _string_list(obj.get("closed_premises", []), "closed_premises", source, problems)
        history = _string_list(obj.get("history", []), "history", source, problems)
        if problems:
            raise InputError(problems)
        return cls(states=states, closed_premises=premises, history=history)


def _string_list(
    value: object, name: str, source: str | None, problems: list[Problem]
) -> tuple[str, ...]:
    if not isinstance(value, list):
        problems.append(
            Problem(
                f"expected a list of strings, got {type_name(value)}",
                Location.of_path(source, [name]),
            )
        )
        return ()
    items: list[str] = []
    for index, item in enumerate(value):
        if isinstance(item, str) and not is_valid_unicode(item):
            problems.append(
                Problem(
                    "string holds a lone surrogate (invalid Unicode)",
                    Location.of_path(source, [name, index]),
                )
            )
        elif isinstance(item, str):
            items.append(item)
        else:
            problems.append(
                Problem(
                    f"expected a string, got {type_name(item)}",
                    Location.of_path(source, [name, index]),
                )
            )
    return tuple(items)
