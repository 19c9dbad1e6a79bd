"""Misbehaving rule types for the isolation tests (not part of the documented example)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import ClassVar

from textcontract.model import Check, Kind, Status
from textcontract.rules import Code, Options, RuleHeader, RuleType, Subject

__all__ = ["Misattributing", "Raising", "RaisingConstructor"]


class Raising(RuleType):
    name = "Raising"
    kind = Kind.INVARIANT
    summary = "always raises"
    codes: ClassVar[tuple[Code, ...]] = (Code.of("NEVER", "never emitted", Status.SATISFIED),)
    main_code = "NEVER"

    def evaluate(self, subject: Subject) -> Iterator[Check]:
        del subject
        raise RuntimeError("plugin bug")


class Misattributing(RuleType):
    name = "Misattributing"
    kind = Kind.INVARIANT
    summary = "returns a check that claims to come from another rule"
    codes: ClassVar[tuple[Code, ...]] = (
        Code.of("STOLEN", "a borrowed identity", Status.SATISFIED),
    )
    main_code = "STOLEN"

    def evaluate(self, subject: Subject) -> Iterator[Check]:
        del subject
        check = self.check(Status.SATISFIED, "STOLEN", "$", "all good, says someone else")
        yield replace(check, rule_id="someone-else")


class RaisingConstructor(Raising):
    name = "RaisingConstructor"
    summary = "raises while it is configured"

    def __init__(self, header: RuleHeader, options: Options) -> None:
        super().__init__(header, options)
        raise ValueError("cannot configure")
