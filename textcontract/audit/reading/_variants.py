"""Building a trial: a change applied to a copy of the baseline (never to the baseline)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from textcontract.audit.reading._model import Change
from textcontract.errors import Problem
from textcontract.model import Context, Document, FactValue, Surface

__all__ = ["Trial", "build_trial"]


@dataclass(frozen=True)
class Trial:
    """The (document, context) one trial of a variant is checked on."""

    document: Document
    context: Context

    def same_as(self, document: Document, context: Context) -> bool:
        """Equal canonical forms (so ``1`` → ``1.0`` is a difference), without digesting them."""
        return _same_json(self.document.to_json(), document.to_json()) and _same_json(
            self.context.to_json(), context.to_json()
        )

    def to_json(self) -> dict[str, object]:
        return {"document": self.document.to_json(), "context": self.context.to_json()}


def _same_json(first: object, second: object) -> bool:
    """Whether two JSON values have one canonical JSON form (SPEC §3): types count, key order not.

    ``1``, ``1.0`` and ``True`` differ, as ``0.0`` and ``-0.0`` do (floats are compared
    by their canonical text, ``repr``).
    """
    if isinstance(first, dict):
        return (
            isinstance(second, dict)
            and first.keys() == second.keys()
            and all(_same_json(value, second[key]) for key, value in first.items())
        )
    if isinstance(first, list | tuple):
        return (
            isinstance(second, list | tuple)
            and len(first) == len(second)
            and all(map(_same_json, first, second))
        )
    if type(first) is not type(second):
        return False
    if isinstance(first, float):
        return repr(first) == repr(second)
    return first == second


def _edit_surfaces(document: Document, change: Change, problems: list[Problem]) -> Document:
    surfaces: dict[str, Surface] = {surface.name: surface for surface in document.surfaces}
    for edit in change.replace:
        surface = surfaces.get(edit.surface)
        if surface is None:
            problems.append(
                Problem(
                    f"replace names surface {edit.surface!r}, which the document lacks",
                    edit.location,
                )
            )
            continue
        if edit.find not in surface.text:
            problems.append(
                Problem(
                    f"replace finds nothing: {edit.find!r} does not occur on surface "
                    f"{edit.surface!r}",
                    edit.location,
                )
            )
            continue
        surfaces[edit.surface] = replace(
            surface, text=surface.text.replace(edit.find, edit.replacement)
        )
    for name, claims in change.claims.items():
        surface = surfaces.get(name)
        if surface is None:
            problems.append(
                Problem(
                    f"claims given for surface {name!r}, which the document lacks",
                    change.claims_locations[name],
                )
            )
            continue
        merged: dict[str, FactValue] = dict(surface.claims)
        merged.update(claims)
        surfaces[name] = replace(surface, claims=merged)
    return Document(tuple(surfaces[surface.name] for surface in document.surfaces))


def _edit_context(context: Context, change: Change, problems: list[Problem]) -> Context:
    states: dict[str, dict[str, FactValue]] = {
        name: dict(facts) for name, facts in context.states.items()
    }
    for name, facts in change.context.items():
        states.setdefault(name, {}).update(facts)
    for removal in change.remove_context:
        snapshot = states.get(removal.state)
        if snapshot is None or removal.key not in snapshot:
            where = "the snapshot is missing" if snapshot is None else "the key is absent"
            problems.append(
                Problem(
                    f"remove_context cannot remove {removal.key!r} from {removal.state!r}: {where}",
                    removal.location,
                )
            )
            continue
        del snapshot[removal.key]
    return Context(states=states, closed_premises=context.closed_premises, history=context.history)


def build_trial(
    document: Document, context: Context, change: Change
) -> tuple[Trial, list[Problem]]:
    """The trial a change produces, and what is wrong with the change (empty when valid).

    The baseline objects are frozen and only read: every edit builds new objects.
    """
    problems: list[Problem] = []
    start = change.document if change.document is not None else document
    edited_document = _edit_surfaces(start, change, problems)
    edited_context = context
    if change.context or change.remove_context:
        edited_context = _edit_context(context, change, problems)
    return Trial(edited_document, edited_context), problems
