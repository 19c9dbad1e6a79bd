"""Corpora and command runs for the SPEC §17 audit tests (not a test module)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from tests.audit.audit_builders import REFUND, REWORD, case_text, preserve, violation, write_corpus
from textcontract.cli import app

runner = CliRunner()

STATUS = "{rule: status, code: REQUIRED_FACT, scope: 'state:current:order.status'}"
CLAIMS = "{rule: claims, code: CLAIM_STATE_MISMATCH, scope: 'surface:body'}"
PENDING = "{context: {current: {order.status: pending}}}"
WRONG_TOTAL = "{claims: {body: {order.total: 11}}}"
NOTHING = "{replace: [{find: today, with: tomorrow}]}"
ALSO_NOTHING = "{replace: [{find: 'to you', with: 'to your door'}]}"

REFUND_CONTRACT = """\
textcontract: 1
id: refunds
version: 1
rules:
  - id: no-refund-promise
    type: ForbiddenPattern
    code: NO_REFUND_PROMISE
    surfaces: [body]
    patterns: ['money back']
"""
"""One rule (medium): a corpus probing only it has no coverage gap at or above the floor."""

POLICY_3 = "policy: {catch_threshold: 0.5, minimum_trial_count: 3, severity_floor: high}\n"

P = "order-1002/refund-reoffer"
WAIVER = """\
waivers:
  - id: refund-wording-q4
    probes: [order-1002/refund-reoffer]
    reason: "refund wording under legal review"
    approved_by: "j.doe"
    expires: 2026-12-31
"""


def full_case(case_id: str = "c1") -> str:
    """Every rule at or above the floor targeted, every fault caught, one control preserved."""
    return case_text(
        violation("v-refund", REFUND)
        + violation("v-status", PENDING, expect=STATUS)
        + violation("v-claims", WRONG_TOTAL, expect=CLAIMS)
        + preserve("p1", REWORD),
        case_id,
    )


def rejected_case(case_id: str = "order-1003") -> str:
    """A case whose baseline the contract rejects (the order is still pending)."""
    return textwrap.dedent(
        f"""\
        id: {case_id}
        baseline:
          document:
            surfaces:
              body:
                text: "Your order has shipped today and is on its way to you."
                claims: {{order.total: 10}}
          context: {{order.status: pending, order.total: 10}}
        variants:
        """
    ) + textwrap.indent(violation("v-refund", REFUND), "  ")


def refund_case(trials: str, severity: str = "medium") -> str:
    """Case order-1002 with one probe, refund-reoffer, whose trials are given (YAML flow list)."""
    return textwrap.dedent(
        f"""\
        id: order-1002
        baseline:
          document:
            surfaces: {{body: {{text: "Your order has shipped today and is on its way to you."}}}}
        variants:
          - id: refund-reoffer
            relation: violation
            validity: valid
            provenance: test
            severity: {severity}
            expect: [{{rule: no-refund-promise, code: NO_REFUND_PROMISE, scope: "surface:body"}}]
            trials: {trials}
        """
    )


MISSED_MISSED_CAUGHT = f"[{NOTHING}, {ALSO_NOTHING}, {REFUND}]"


def refund_corpus(
    root: Path, audit_extra: str = WAIVER, trials: str = MISSED_MISSED_CAUGHT
) -> Path:
    return write_corpus(
        root,
        {"order-1002.yaml": refund_case(trials)},
        audit="contract: ../contract.yaml\n" + POLICY_3 + audit_extra,
        contract=REFUND_CONTRACT,
    )


def audit_cli(*args: str) -> tuple[int, Any, str]:
    """``textcontract audit …`` through the CliRunner; JSON stdout is parsed."""
    result = runner.invoke(app, ["audit", *args])
    out: Any = result.stdout
    if out.strip().startswith("{"):
        out = json.loads(out)
    return result.exit_code, out, result.stderr


def cli(*args: str) -> tuple[int, Any, str]:
    result = runner.invoke(app, list(args))
    out: Any = result.stdout
    if out.strip().startswith("{"):
        out = json.loads(out)
    return result.exit_code, out, result.stderr


def read_tree(folder: Path) -> dict[str, Any]:
    """Every JSON file under ``folder``, by relative path."""
    return {
        path.relative_to(folder).as_posix(): json.loads(path.read_text(encoding="utf-8"))
        for path in sorted(folder.rglob("*.json"))
    }
