"""StateChanged: at least one of the listed keys differs between two snapshots.

The listed ``keys`` are the projected domain of a transition: "the order
moved". A change of type is a change (``1`` → ``1.0``, ``0`` → ``false``).
Every listed key must be known in both snapshots; one unknown key makes the
check undetermined even when another key visibly changed, so a missing fact is
never read as "unchanged" nor papered over. Checks state, not prose.

Violated::

    {id: order-moved, type: StateChanged, before: current, after: after,
     keys: [order.status, order.tracking]}
    context: {"states": {"current": {"order.status": "pending", "order.tracking": null},
                         "after": {"order.status": "pending", "order.tracking": null}}}

Satisfied::

    (same rule)
    context: {"states": {"current": {"order.status": "pending", "order.tracking": null},
                         "after": {"order.status": "shipped", "order.tracking": "1Z999"}}}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

from textcontract.model import Check, Kind, Status, describe_value, same_value
from textcontract.rules._base import Code, Options, RuleHeader, RuleType
from textcontract.rules._params import STATE, STRING_LIST, Param
from textcontract.rules._subject import Subject

__all__ = ["StateChanged"]


class StateChanged(RuleType):
    name = "StateChanged"
    kind = Kind.INVARIANT
    summary = "at least one of the listed keys changed between two snapshots (type-sensitive)"
    params: ClassVar[tuple[Param, ...]] = (
        Param("before", STATE, "the snapshot before the transition"),
        Param("after", STATE, "the snapshot after the transition"),
        Param("keys", STRING_LIST, "the keys whose change counts (non-empty, no duplicates)"),
    )
    codes: ClassVar[tuple[Code, ...]] = (
        Code.of(
            "NO_DOMAIN_CHANGE",
            "at least one listed key changed (violated when none did)",
            Status.SATISFIED,
            Status.VIOLATED,
        ),
        Code.of(
            "STATE_UNAVAILABLE",
            "a snapshot, or a listed key in one of them, is missing",
            Status.UNDETERMINED,
        ),
    )
    main_code = "NO_DOMAIN_CHANGE"

    def __init__(self, header: RuleHeader, options: Options) -> None:
        super().__init__(header, options)
        self._before = options.text("before")
        self._after = options.text("after")
        self._keys: tuple[str, ...] = options.strings("keys") or ()
        self._scope = f"transition:{self._before}->{self._after}"

    def evaluate(self, subject: Subject) -> Iterator[Check]:
        states = subject.context.states
        snapshots = [(name, states.get(name)) for name in (self._before, self._after)]
        missing: list[dict[str, Any]] = [
            {"state": name, "missing": "snapshot"} for name, facts in snapshots if facts is None
        ]
        if not missing:
            missing = [
                {"state": name, "key": key, "missing": "key"}
                for key in self._keys
                for name, facts in snapshots
                if facts is not None and key not in facts
            ]
        if missing:
            yield self.check(
                Status.UNDETERMINED,
                "STATE_UNAVAILABLE",
                self._scope,
                _unknown_message(missing),
                evidence=missing,
            )
            return
        before = states[self._before]
        after = states[self._after]
        evidence: list[dict[str, Any]] = []
        changed: list[str] = []
        for key in self._keys:
            moved = not same_value(before[key], after[key])
            if moved:
                changed.append(key)
            evidence.append(
                {"key": key, "before": before[key], "after": after[key], "changed": moved}
            )
        if changed:
            first = changed[0]
            message = (
                f"{first} changed {describe_value(before[first])} → {describe_value(after[first])}"
            )
            if len(changed) > 1:
                message += f" ({len(changed)} of the {len(self._keys)} listed keys changed)"
        else:
            message = (
                f"none of the {len(self._keys)} listed keys changed from "
                f"{self._before!r} to {self._after!r}"
            )
        yield self.check(
            Status.SATISFIED if changed else Status.VIOLATED,
            "NO_DOMAIN_CHANGE",
            self._scope,
            message,
            evidence=evidence,
            metrics={"changed_keys": len(changed)},
        )


def _unknown_message(missing: list[dict[str, Any]]) -> str:
    snapshots = [item["state"] for item in missing if item["missing"] == "snapshot"]
    if snapshots:
        return "cannot tell whether anything changed: no snapshot " + " or ".join(
            repr(name) for name in snapshots
        )
    parts = [f"{item['key']} in {item['state']!r}" for item in missing]
    return "cannot tell whether anything changed: unknown " + ", ".join(parts)
