"""Evaluating a contract: every rule runs, and a broken rule cannot break the others."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from textcontract.contract import ParsedContract
from textcontract.model import Check, Context, Document, Report, Status
from textcontract.rules import RULE_ERROR, PatternTable, RuleType, Subject, idle_checks

__all__ = ["evaluate", "run_rule"]

_STATUSES = frozenset(Status)


def _rule_error(rule: RuleType, message: str, evidence: dict[str, str]) -> Check:
    header = rule.header
    return Check(
        rule_id=header.id,
        rule_version=header.version,
        type=header.type,
        kind=header.kind,
        status=Status.ERROR,
        code=RULE_ERROR.name,
        scope="$",
        severity=header.severity,
        enforcement=header.enforcement,
        evidence=(evidence,),
        metrics={},
        message=message,
    )


def _attribution_problem(rule: RuleType, check: object) -> str | None:
    if not isinstance(check, Check):
        return f"returned {type(check).__name__} instead of a Check"
    header = rule.header
    if check.rule_id != header.id:
        return f"returned a check attributed to rule {check.rule_id!r}"
    if type(check.rule_version) is not type(header.version) or check.rule_version != header.version:
        return f"returned a check for version {check.rule_version!r} instead of {header.version!r}"
    if check.type != header.type:
        return f"returned a check of type {check.type!r}"
    if check.kind is not header.kind:
        return f"returned a check of kind {check.kind!r} for a {header.kind.value} rule"
    if check.status not in _STATUSES or not isinstance(check.status, Status):
        return f"returned an invalid status {check.status!r}"
    return None


def run_rule(rule: RuleType, subject: Subject) -> list[Check]:
    """The rule's checks, or one ``RULE_ERROR`` check if it misbehaves in any way."""
    try:
        produced: Iterable[Check] | None = rule.evaluate(subject)
        if produced is None:
            return [_rule_error(rule, "rule returned nothing", {"problem": "returned None"})]
        checks = list(produced)
    except Exception as exc:  # rules are user-extensible code: isolate every failure
        return [
            _rule_error(
                rule,
                f"rule raised {type(exc).__name__}: {exc}",
                {"exception": type(exc).__name__, "detail": str(exc)},
            )
        ]
    if not checks:
        return [_rule_error(rule, "rule returned no checks", {"problem": "returned no checks"})]
    for check in checks:
        problem = _attribution_problem(rule, check)
        if problem is not None:
            return [_rule_error(rule, f"rule {problem}", {"problem": problem})]
    return checks


def evaluate(
    contract: ParsedContract,
    document: Document,
    context: Context,
    rules: Sequence[RuleType] | None = None,
    source: str | None = None,
) -> Report:
    """Check ``document`` against ``context``; ``rules`` narrows the run to some rules.

    ``source`` names the input in the report (SPEC §11).
    """
    subject = Subject(document, context)
    if rules is None:
        checks = _checks(contract.rules, subject, contract.pattern_tables)
    else:
        checks = _checks(rules, subject, ())
    # The Subject (normalized texts, tokens) is gone before the digest's canonical JSON of
    # the document is built: for a large document the two would otherwise add up.
    return Report(
        contract=contract.ref,
        document_digest=document.digest,
        context_digest=context.digest,
        policy=contract.policy,
        checks=checks,
        source=source,
        icu_version=contract.icu_version,
    )


def _checks(
    rules: Sequence[RuleType], subject: Subject, tables: Sequence[PatternTable]
) -> tuple[Check, ...]:
    checks: list[Check] = []
    idle = idle_checks(tables, subject)
    if idle is None:
        for rule in rules:
            checks.extend(run_rule(rule, subject))
        return tuple(checks)
    for rule in rules:
        known = idle.get(rule)
        if known is not None:
            checks.extend(known)
            continue
        found = run_rule(rule, subject)
        idle.learn(rule, found)
        checks.extend(found)
    return tuple(checks)
