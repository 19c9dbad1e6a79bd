"""``textcontract test``: every rule example, evaluated against its rule alone.

An example is a text (or ``{text, context}``) that the rule must violate or
satisfy. The text is put on every surface the rule reads (one ``body`` surface
when the rule reads whatever the document has) and the rule runs alone through
the engine, so a rule that raises still yields ``RULE_ERROR`` instead of
stopping the run.

A rule may emit several checks for one example; their **observed status** is
the first that applies of: ``error`` if any check is an error, ``violated`` if
any is violated, ``undetermined`` if any is undetermined, else ``satisfied``
(every check satisfied). So a violated example holds when some check is
violated and none is an error, and a satisfied example holds only when every
check is satisfied.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from textcontract.authoring._surfaces import surfaces_read
from textcontract.contract import ParsedContract, RuleEntry, RuleExample
from textcontract.engine import evaluate
from textcontract.errors import Location
from textcontract.model import Check, Context, Document, Status

__all__ = [
    "ContractExamples",
    "ExampleResult",
    "examples_json",
    "observed_status",
    "run_examples",
    "run_examples_of",
]

_PRECEDENCE = (Status.ERROR, Status.VIOLATED, Status.UNDETERMINED)


def observed_status(checks: Iterable[Check]) -> Status:
    """The status of an example from all the checks its rule emitted (module docstring)."""
    statuses = {check.status for check in checks}
    for status in _PRECEDENCE:
        if status in statuses:
            return status
    return Status.SATISFIED


def _location_json(location: Location) -> dict[str, Any]:
    return {"file": location.file, "line": location.line, "column": location.column}


@dataclass(frozen=True)
class ExampleResult:
    """One example run: what it should show, what the rule's checks showed."""

    rule_id: str
    expected: Status
    observed: Status
    index: int
    text: str
    location: Location
    checks: tuple[Check, ...]

    @property
    def holds(self) -> bool:
        return self.expected is self.observed

    def to_json(self) -> dict[str, Any]:
        return {
            "rule": self.rule_id,
            "example": f"{self.expected.value}[{self.index}]",
            "location": _location_json(self.location),
            "expected": self.expected.value,
            "observed": self.observed.value,
            "text": self.text,
            "checks": [
                {
                    "status": check.status.value,
                    "code": check.code,
                    "scope": check.scope,
                    "message": check.message,
                }
                for check in self.checks
            ],
        }


@dataclass(frozen=True)
class ContractExamples:
    """Every example of one contract (includes expanded) and how each turned out."""

    source: str
    contract_id: str
    results: tuple[ExampleResult, ...]
    rules_without_examples: tuple[str, ...]

    @property
    def mismatches(self) -> tuple[ExampleResult, ...]:
        return tuple(result for result in self.results if not result.holds)

    def to_json(self) -> dict[str, Any]:
        return {
            "contract": self.source,
            "id": self.contract_id,
            "examples": len(self.results),
            "mismatches": [result.to_json() for result in self.mismatches],
            "rules_without_examples": list(self.rules_without_examples),
        }


def _example_document(text: str, surfaces: Sequence[str]) -> Document:
    return Document.from_json({"surfaces": {name: {"text": text} for name in surfaces}})


def run_examples_of(parsed: ParsedContract, entry: RuleEntry) -> tuple[ExampleResult, ...]:
    """Run one rule's examples, violated ones first, each in the order written."""
    rule = entry.rule
    surfaces = surfaces_read(rule)
    results = []
    groups: tuple[tuple[Status, tuple[RuleExample, ...]], ...] = (
        (Status.VIOLATED, entry.violated_examples),
        (Status.SATISFIED, entry.satisfied_examples),
    )
    for expected, examples in groups:
        for index, example in enumerate(examples):
            context = example.context if example.context is not None else Context.empty()
            document = _example_document(example.text, surfaces)
            report = evaluate(parsed, document, context, rules=[rule])
            results.append(
                ExampleResult(
                    rule_id=rule.header.id,
                    expected=expected,
                    observed=observed_status(report.checks),
                    index=index,
                    text=example.text,
                    location=example.location,
                    checks=report.checks,
                )
            )
    return tuple(results)


def run_examples(parsed: ParsedContract) -> ContractExamples:
    """Run every example of every rule of ``parsed``, in contract rule order."""
    results: list[ExampleResult] = []
    untested: list[str] = []
    for entry in parsed.entries:
        found = run_examples_of(parsed, entry)
        if not found:
            untested.append(entry.rule.header.id)
        results.extend(found)
    return ContractExamples(parsed.source, parsed.id, tuple(results), tuple(untested))


def examples_json(runs: Sequence[ContractExamples]) -> dict[str, Any]:
    """The ``test --format json`` document: totals, then each contract's mismatches."""
    return {
        "test_version": 1,
        "examples": sum(len(run.results) for run in runs),
        "mismatches": sum(len(run.mismatches) for run in runs),
        "contracts": [run.to_json() for run in runs],
    }
