"""Waivers: a documented miss excused until a date (SPEC §17.4).

A waiver names probes and/or rules, a reason, an approver and an expiry date. This
module reads the ``waivers:`` list (audit.yaml, or ``score --waivers``) and answers
which in-force waiver covers a trial; it never reads the clock — the date to judge
against (``as_of``) is always given.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum
from typing import Any

from textcontract.errors import Location
from textcontract.fields import MISSING, FieldReader, KeyPath

__all__ = [
    "WAIVER_ID",
    "Waiver",
    "WaiverStatus",
    "covering_waiver",
    "oracle_rules",
    "parse_date",
    "parse_waivers",
    "read_waivers",
]

WAIVER_ID = re.compile(r"[a-z0-9][a-z0-9_.-]*\Z")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}\Z")
_KEYS = ("id", "probes", "rules", "reason", "approved_by", "expires")


class WaiverStatus(StrEnum):
    HONOURED = "honoured"
    """In force, and it waived at least one trial."""
    UNUSED = "unused"
    """In force, with nothing to waive."""
    EXPIRED = "expired"
    """``as_of`` is after ``expires``: it changes nothing."""


@dataclass(frozen=True)
class Waiver:
    """One declared waiver; in force through ``expires`` (UTC), inclusive."""

    id: str
    probes: tuple[str, ...]
    rules: tuple[str, ...]
    reason: str
    approved_by: str
    expires: date
    probe_locations: tuple[Location, ...] = field(default=(), compare=False)
    """Where each of ``probes`` is written (for messages about the corpus)."""
    rule_locations: tuple[Location, ...] = field(default=(), compare=False)

    def in_force(self, as_of: date) -> bool:
        return as_of <= self.expires

    def covers(self, probe_id: str, rules: Iterable[str]) -> bool:
        """The probe is in scope: named, or one of its expectations names a waived rule."""
        return probe_id in self.probes or any(rule in self.rules for rule in rules)

    def status(self, as_of: date, waived_any: bool) -> WaiverStatus:
        if not self.in_force(as_of):
            return WaiverStatus.EXPIRED
        return WaiverStatus.HONOURED if waived_any else WaiverStatus.UNUSED

    def base_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "reason": self.reason,
            "approved_by": self.approved_by,
            "expires": self.expires.isoformat(),
        }

    def honoured_json(self) -> dict[str, Any]:
        """An artifact's entry: a waiver its outcomes name, which was honoured."""
        return {**self.base_json(), "status": WaiverStatus.HONOURED.value}

    def scope_json(self) -> dict[str, list[str]]:
        return {"probes": list(self.probes), "rules": list(self.rules)}


def parse_date(text: str) -> date | None:
    """A ``YYYY-MM-DD`` calendar date, or ``None`` when ``text`` is not one."""
    if not _DATE.match(text):
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


def oracle_rules(oracle: str | None) -> tuple[str, ...]:
    """The rule ids an oracle id names: ``rule:code:scope`` items joined by ``;``.

    Rule ids hold no ``:``, so each item's rule is the text before its first colon.
    A synthesised trial (``None``) names none.
    """
    if oracle is None:
        return ()
    return tuple(item.split(":", 1)[0] for item in oracle.split(";") if item)


def covering_waiver(
    waivers: Sequence[Waiver], probe_id: str, rules: Iterable[str], as_of: date
) -> Waiver | None:
    """The in-force waiver with the lowest id that covers the probe, if any."""
    named = tuple(rules)
    found = [w for w in waivers if w.in_force(as_of) and w.covers(probe_id, named)]
    return min(found, key=lambda waiver: waiver.id) if found else None


def _nonblank(reader: FieldReader, fields: dict[str, Any], name: str, at: KeyPath) -> str:
    value = fields.get(name, MISSING)
    if value is MISSING:
        reader.problem(at, f"missing required key {name!r}")
        return ""
    return reader.string(value, (*at, name), "", blank=False)


def _expires(reader: FieldReader, fields: dict[str, Any], at: KeyPath) -> date:
    value = fields.get("expires", MISSING)
    if value is MISSING:
        reader.problem(at, "missing required key 'expires'")
        return date.min
    text = reader.string(value, (*at, "expires"), None, blank=False)
    if text is None:
        return date.min
    found = parse_date(text)
    if found is None:
        reader.problem((*at, "expires"), f"{text!r} is not a date (YYYY-MM-DD)")
        return date.min
    return found


def _scope(
    reader: FieldReader, fields: dict[str, Any], at: KeyPath, name: str
) -> tuple[tuple[str, ...], tuple[Location, ...]]:
    if name not in fields:
        return (), ()
    values = reader.strings(fields[name], (*at, name))
    locations = tuple(reader.at((*at, name, index)) for index in range(len(values)))
    return tuple(values), locations


def _read_one(reader: FieldReader, value: Any, at: KeyPath) -> Waiver | None:
    start = reader.mark()
    fields = reader.mapping(value, at, optional=_KEYS)
    if not isinstance(value, dict):
        return None
    waiver_id = None
    if "id" not in fields:
        reader.problem(at, "missing required key 'id'")
    else:
        waiver_id = reader.identifier(fields["id"], (*at, "id"), "waiver", WAIVER_ID)
    probes, probe_locations = _scope(reader, fields, at, "probes")
    rules, rule_locations = _scope(reader, fields, at, "rules")
    if "probes" not in fields and "rules" not in fields:
        reader.problem(at, "a waiver needs a scope: 'probes', 'rules' or both")
    elif not probes and not rules and not reader.failed_since(start):
        reader.problem(at, "a waiver's scope is empty: name at least one probe or rule")
    reason = _nonblank(reader, fields, "reason", at)
    approved_by = _nonblank(reader, fields, "approved_by", at)
    expires = _expires(reader, fields, at)
    if reader.failed_since(start) or waiver_id is None:
        return None
    return Waiver(
        waiver_id, probes, rules, reason, approved_by, expires, probe_locations, rule_locations
    )


def read_waivers(reader: FieldReader, value: Any, path: KeyPath) -> tuple[Waiver, ...]:
    """The ``waivers:`` list at ``path``; every problem goes to ``reader``.

    Only what one file can tell is checked here (fields, dates, unique ids); whether
    the probes and rules exist is the audit's question.
    """
    found: list[Waiver] = []
    seen: dict[str, int] = {}
    for index, item in enumerate(reader.sequence(value, path)):
        waiver = _read_one(reader, item, (*path, index))
        if waiver is None:
            continue
        if waiver.id in seen:
            reader.problem(
                (*path, index, "id"),
                f"duplicate waiver id {waiver.id!r} (also {path[-1]}[{seen[waiver.id]}])",
            )
            continue
        seen[waiver.id] = index
        found.append(waiver)
    return tuple(found)


def parse_waivers(
    obj: Any, source: str | None, reader: FieldReader | None = None
) -> tuple[Waiver, ...]:
    """A waivers file's content (``score --waivers``): a mapping whose ``waivers`` key is read.

    An audit.yaml is accepted as it is: its other keys are ignored.
    """
    reader = reader if reader is not None else FieldReader(source)
    fields = reader.mapping(obj, (), required=("waivers",), allow_unknown=True)
    waivers = read_waivers(reader, fields["waivers"], ("waivers",))
    reader.raise_if_problems()
    return waivers
