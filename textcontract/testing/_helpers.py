"""Test helpers that need no pytest: ``require_rate`` and the ``textcontract`` fixture's object.

Failures are :class:`AssertionError` with a readable message, so the helpers work
under pytest, unittest or a plain script; pytest hides their own frames.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from textcontract.audit import AuditResult, PreflightFailed, audit_directory
from textcontract.engine import Contract, load_contract
from textcontract.inputs import load_context_file, load_document_file
from textcontract.model import Check, Context, Document, Report, Status
from textcontract.strength import VerdictValue

__all__ = ["ContractFixture", "describe_offending_checks", "require_rate"]


def require_rate(value: float | None, minimum: float, *, name: str = "rate") -> float:
    """Fail unless ``value`` is a figure at or above ``minimum``; return it.

    ``None`` fails too: an audit figure is null when nothing eligible was measured
    (no valid fault, no valid variation), and a figure that measured nothing
    cannot meet a minimum.
    """
    __tracebackhide__ = True
    if value is None:
        raise AssertionError(
            f"{name} is null: no eligible variant was measured, so there is no figure to "
            f"compare with the minimum {minimum} (a null figure never meets a threshold)"
        )
    if value < minimum:
        raise AssertionError(f"{name} {value:.4f} is below the minimum {minimum}")
    return value


def _check_line(check: Check) -> str:
    advisory = " (advisory)" if check.enforcement.value == "advisory" else ""
    return (
        f"  {check.status.value:<12} {check.rule_id}{advisory}  {check.code}  {check.scope}"
        f"  — {check.message}"
    )


def describe_offending_checks(report: Report) -> str:
    """A readable list of every check that is not satisfied, with the report's verdict."""
    accepted = "accepted" if report.accepted else "rejected"
    complete = "complete" if report.complete else "incomplete"
    offending = [check for check in report.checks if check.status is not Status.SATISFIED]
    lines = [f"the document is {accepted} and {complete} by contract {report.contract.id!r}"]
    if not report.checks:
        lines.append("  (the contract produced no checks at all)")
    lines.extend(_check_line(check) for check in offending)
    return "\n".join(lines)


def _require_rejection(report: Report, codes: tuple[str, ...]) -> None:
    __tracebackhide__ = True
    if report.accepted:
        raise AssertionError(f"expected a rejection, but {describe_offending_checks(report)}")
    found = {check.code for check in report.checks if check.status is not Status.SATISFIED}
    missing = [code for code in codes if code not in found]
    if missing:
        raise AssertionError(
            f"expected a rejection with {', '.join(missing)}, which no offending check has; "
            + describe_offending_checks(report)
        )


class ContractFixture:
    """What the ``textcontract`` pytest fixture gives a test: ``check`` and ``audit``."""

    def __init__(self) -> None:
        self._contracts: dict[str, Contract] = {}

    def contract(self, contract: Contract | str | Path) -> Contract:
        """A loaded contract (each path is loaded once per test)."""
        if isinstance(contract, Contract):
            return contract
        key = str(contract)
        if key not in self._contracts:
            self._contracts[key] = load_contract(contract)
        return self._contracts[key]

    def check(
        self,
        contract: Contract | str | Path,
        document: Document | Path | str | Mapping[str, Any],
        context: Context | Path | Mapping[str, Any] | None = None,
        *,
        expect: Literal["accepted", "rejected"] = "accepted",
        codes: tuple[str, ...] | list[str] = (),
    ) -> Report:
        """Check one output; fail the test unless the verdict is the one expected.

        ``expect="accepted"`` (the default) fails unless the report is accepted and
        complete; ``expect="rejected"`` fails unless it is rejected, and, with ``codes``,
        unless each of those codes is the code of a check that is not satisfied (a
        rejection for the reason the test is about, not any). ``document`` is a
        :class:`Document`, a file :class:`~pathlib.Path`, a plain string (the ``body``
        surface) or the JSON form; ``context`` a :class:`Context`, a file path, either
        JSON form, or None (empty). Returns the report.
        """
        __tracebackhide__ = True
        if expect not in ("accepted", "rejected"):
            raise ValueError(f"expect must be 'accepted' or 'rejected', not {expect!r}")
        if codes and expect != "rejected":
            raise ValueError(
                "codes= names why a document is rejected: use it with expect='rejected'"
            )
        if isinstance(document, Path):
            document = load_document_file(document)
        if isinstance(context, Path):
            context = load_context_file(context)
        report = self.contract(contract).check(document, context)
        if expect == "accepted" and not (report.accepted and report.complete):
            raise AssertionError(describe_offending_checks(report))
        if expect == "rejected":
            _require_rejection(report, tuple(codes))
        return report

    def audit(
        self,
        directory: str | Path,
        *,
        detection: float | None = None,
        preservation: float | None = None,
        contract: str | Path | None = None,
        jobs: int = 1,
        allow_missing_rules: bool = False,
        fail_on_verdict: bool = True,
    ) -> AuditResult:
        """Run an audit and apply its thresholds; return the result when they hold.

        ``detection`` / ``preservation`` override audit.yaml's thresholds. A FAIL
        or INVALID verdict fails the test too unless ``fail_on_verdict`` is false, as
        it makes ``textcontract audit`` exit 1 or 5; a failed preflight always does.
        """
        __tracebackhide__ = True
        try:
            result = audit_directory(
                directory,
                contract=contract,
                jobs=jobs,
                allow_missing_rules=allow_missing_rules,
                detection=detection,
                preservation=preservation,
            )
        except PreflightFailed as failed:
            raise AssertionError(f"the audit did not run: {failed}") from None
        for check in result.thresholds:
            require_rate(check.value, check.minimum, name=check.figure)
        failing = (VerdictValue.FAIL, VerdictValue.INVALID)
        if fail_on_verdict and result.verdict.value in failing:
            reasons = ", ".join(reason.value for reason in result.verdict.reasons)
            raise AssertionError(f"the audit verdict is {result.verdict.value} ({reasons})")
        return result
