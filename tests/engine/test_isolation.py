"""A rule that raises or mis-attributes gives one RULE_ERROR; the others still run."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

import pytest

from textcontract.contract import parse_contract_text
from textcontract.engine import evaluate
from textcontract.model import Check, Context, Document, Kind, Status
from textcontract.rules import BUILTIN_TYPES, Code, Registry, RuleType, Subject


class _Misbehaving(RuleType):
    name = "Misbehaving"
    kind = Kind.HEURISTIC
    summary = "misbehaves on purpose"
    codes: ClassVar[tuple[Code, ...]] = (Code.of("FINE", "fine", Status.SATISFIED),)
    main_code = "FINE"
    mode: ClassVar[str] = ""

    def evaluate(self, subject: Subject) -> Iterator[Check]:
        del subject
        good = self.check(Status.SATISFIED, "FINE", "$", "fine")
        if self.mode == "raise":
            raise ZeroDivisionError("division by zero")
        if self.mode == "empty":
            return
        if self.mode == "other-id":
            yield Check(**{**_fields(good), "rule_id": "someone-else"})
        elif self.mode == "other-version":
            yield Check(**{**_fields(good), "rule_version": "1"})
        elif self.mode == "other-kind":
            yield Check(**{**_fields(good), "kind": Kind.INVARIANT})
        elif self.mode == "bad-status":
            yield Check(**{**_fields(good), "status": "passed"})
        elif self.mode == "not-a-check":
            yield {"status": "satisfied"}  # type: ignore[misc]
        else:
            yield good


def _fields(check: Check) -> dict[str, Any]:
    return {name: getattr(check, name) for name in Check.__slots__}


def _type(mode: str) -> type[RuleType]:
    return type(f"Misbehaving_{mode}", (_Misbehaving,), {"mode": mode})


CONTRACT = """\
textcontract: 1
id: isolation
rules:
  - {id: before, type: RequiredFact, key: a}
  - {id: odd, type: Misbehaving}
  - {id: after, type: RequiredFact, key: a}
"""


@pytest.mark.parametrize(
    ("mode", "message"),
    [
        ("raise", "rule raised ZeroDivisionError: division by zero"),
        ("empty", "rule returned no checks"),
        ("other-id", "attributed to rule 'someone-else'"),
        ("other-version", "for version '1' instead of 1"),
        ("other-kind", "of kind"),
        ("bad-status", "invalid status"),
        ("not-a-check", "instead of a Check"),
    ],
)
def test_misbehaving_rule_is_isolated(mode: str, message: str) -> None:
    registry = Registry([*(("builtin", t) for t in BUILTIN_TYPES), ("test", _type(mode))])
    definition = parse_contract_text(CONTRACT, registry=registry)
    report = evaluate(definition, Document.from_text("x"), Context.from_json({"a": 1}))
    assert [(c.rule_id, c.status, c.code) for c in report.checks] == [
        ("before", Status.SATISFIED, "REQUIRED_FACT"),
        ("odd", Status.ERROR, "RULE_ERROR"),
        ("after", Status.SATISFIED, "REQUIRED_FACT"),
    ]
    error = report.checks[1]
    assert error.scope == "$"
    assert message in error.message
    assert report.accepted is False
    assert report.complete is False


def test_well_behaved_plugin_rule_passes_through() -> None:
    registry = Registry([*(("builtin", t) for t in BUILTIN_TYPES), ("test", _type("good"))])
    definition = parse_contract_text(CONTRACT, registry=registry)
    report = evaluate(definition, Document.from_text("x"), Context.from_json({"a": 1}))
    assert [c.status for c in report.checks] == [Status.SATISFIED] * 3
    assert report.accepted
    assert report.complete


def test_duplicate_type_names_are_refused() -> None:
    from textcontract.rules import RegistryError

    with pytest.raises(RegistryError, match="registered twice"):
        Registry([*(("builtin", t) for t in BUILTIN_TYPES), ("x", BUILTIN_TYPES[0])])
