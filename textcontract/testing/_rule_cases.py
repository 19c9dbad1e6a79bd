"""Data-driven rule cases: one YAML file per rule type, as sqlfluff does for its rules.

A case file looks like::

    rule: RequiredFact
    cases:
      - name: equals-satisfied
        params: {key: order.status, equals: shipped}
        context: {order.status: shipped}          # either context form; default empty
        document: "plain text for surface body"    # or the JSON form; default ""
        expect:
          - {status: satisfied, code: REQUIRED_FACT, scope: "state:current:order.status"}
      - name: key-must-be-a-string
        params: {key: 3}
        contract_error: expected a string      # substring of the load error

``expect`` lists the checks in emission order; each may add ``metrics`` (a
subset that must match exactly, value and type), ``evidence`` (the exact list)
and ``message`` (a substring). A case may set ``code`` to rename the type's
main code, as a contract's ``code:`` field does. Pack authors and the pytest
plugin reuse this harness.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textcontract._yaml import load_yaml
from textcontract.model import Check, Context, Document
from textcontract.rules._base import RuleHeader, RuleType
from textcontract.rules._configure import configure_options
from textcontract.rules._params import ParamProblem
from textcontract.rules._subject import Subject

__all__ = ["CaseResult", "RuleCase", "evaluate_case", "load_rule_cases", "mismatches"]


@dataclass(frozen=True)
class RuleCase:
    """One case of a rule fixture file."""

    file: str
    rule: str
    name: str
    params: Mapping[str, Any]
    document: Any
    context: Any
    expect: tuple[Mapping[str, Any], ...]
    contract_error: str | None
    code: str | None = None

    @property
    def id(self) -> str:
        return f"{self.rule}:{self.name}"


def load_rule_cases(path: Path) -> Iterator[RuleCase]:
    """Every case of one fixture file."""
    data, _ = load_yaml(path.read_text(encoding="utf-8"), str(path))
    rule = data["rule"]
    for case in data["cases"]:
        yield RuleCase(
            file=str(path),
            rule=rule,
            name=case["name"],
            params=case.get("params", {}),
            document=case.get("document", ""),
            context=case.get("context", {}),
            expect=tuple(case.get("expect", ())),
            contract_error=case.get("contract_error"),
            code=case.get("code"),
        )


@dataclass(frozen=True)
class CaseResult:
    """Checks produced by a case, or the load problems of its parameters."""

    checks: tuple[Check, ...]
    load_errors: tuple[str, ...]


def evaluate_case(case: RuleCase, rule_type: type[RuleType]) -> CaseResult:
    configured = configure_options(rule_type, case.params)
    if configured.problems:
        return CaseResult((), tuple(_said(problem) for problem in configured.problems))
    header = RuleHeader("under-test", 1, rule_type.name, rule_type.kind, code=case.code)
    rule = rule_type(header, configured.options)
    document = (
        Document.from_text(case.document)
        if isinstance(case.document, str)
        else Document.from_json(case.document)
    )
    subject = Subject(document, Context.from_json(case.context))
    return CaseResult(tuple(rule.evaluate(subject)), ())


def _said(problem: ParamProblem) -> str:
    """A load problem as the loader reports it: the message, then its hint in parentheses."""
    return f"{problem.message} ({problem.hint})" if problem.hint else problem.message


def mismatches(case: RuleCase, result: CaseResult) -> list[str]:
    """Human-readable differences between what a case expects and what happened."""
    if case.contract_error is not None:
        if any(case.contract_error in message for message in result.load_errors):
            return []
        return [
            f"expected a load error containing {case.contract_error!r}, "
            f"got {list(result.load_errors) or 'none'}"
        ]
    if result.load_errors:
        return [f"unexpected load errors: {list(result.load_errors)}"]
    found = [check.to_json() for check in result.checks]
    problems: list[str] = []
    if len(found) != len(case.expect):
        problems.append(f"expected {len(case.expect)} checks, got {len(found)}: {_summary(found)}")
    for index, (want, got) in enumerate(zip(case.expect, found, strict=False)):
        for field in ("status", "code", "scope"):
            if field in want and want[field] != got[field]:
                problems.append(
                    f"check {index}: {field} is {got[field]!r}, expected {want[field]!r}"
                )
        for name, value in dict(want.get("metrics", {})).items():
            actual = got["metrics"].get(name)
            if actual != value or type(actual) is not type(value):
                problems.append(f"check {index}: metric {name} is {actual!r}, expected {value!r}")
        if "evidence" in want and want["evidence"] != got["evidence"]:
            problems.append(
                f"check {index}: evidence is {got['evidence']!r}, expected {want['evidence']!r}"
            )
        if "message" in want and want["message"] not in got["message"]:
            problems.append(f"check {index}: message {got['message']!r} lacks {want['message']!r}")
    return problems


def _summary(checks: list[dict[str, Any]]) -> str:
    return ", ".join(f"{c['status']}/{c['code']}@{c['scope']}" for c in checks) or "none"
