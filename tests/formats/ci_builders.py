"""Hand-built reports and audit data for the CI format tests (not a test module).

The check reports carry SPEC §10 locations and the §11 ``source`` the engine adds in 0.2,
so the formats are held to that shape; real check runs are exercised by the CLI tests
(tests/cli/test_check_locations.py for their locations).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from textcontract.formats.check_findings import CheckedDocument, RuleInfo

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
GOLDEN = Path(__file__).resolve().parent / "golden"
SCHEMAS = Path(__file__).resolve().parent / "schemas"

CONTRACT = {"id": "order-confirmation", "version": "3", "digest": "sha256:" + "ab" * 32}

RULES = [
    RuleInfo(
        "claims-match-order",
        "DeclaredClaimsConsistent",
        "invariant",
        "critical",
        "blocking",
        "Every value the renderer declares matches the order.",
    ),
    RuleInfo(
        "no-refund-promise",
        "ForbiddenPattern",
        "heuristic",
        "high",
        "blocking",
        "A shipping e-mail never promises a refund.",
    ),
    RuleInfo("subject-names-order", "RequiredPattern", "heuristic", "medium", "blocking", None),
    RuleInfo("tone", "ForbiddenPattern", "heuristic", "low", "advisory", "No shouting."),
    RuleInfo("status-shipped", "RequiredFact", "invariant", "high", "blocking", None),
    RuleInfo("links", "LinkDomains", "invariant", "high", "blocking", None),
]


def location(
    surface: str, offsets: tuple[int, int], start: tuple[int, int], end: tuple[int, int]
) -> dict[str, Any]:
    return {"surface": surface, "offsets": list(offsets), "start": list(start), "end": list(end)}


def check(
    rule_id: str,
    rule_type: str,
    kind: str,
    status: str,
    code: str,
    scope: str,
    message: str,
    evidence: list[dict[str, Any]] | None = None,
    enforcement: str = "blocking",
    severity: str = "medium",
) -> dict[str, Any]:
    return {
        "rule_id": rule_id,
        "rule_version": 1,
        "type": rule_type,
        "kind": kind,
        "status": status,
        "code": code,
        "scope": scope,
        "severity": severity,
        "enforcement": enforcement,
        "evidence": evidence or [],
        "metrics": {},
        "message": message,
    }


def report(
    checks: list[dict[str, Any]], *, source: str | None = None, block_heuristics: bool = True
) -> dict[str, Any]:
    counts = {"satisfied": 0, "violated": 0, "undetermined": 0, "error": 0}
    for item in checks:
        counts[item["status"]] += 1
    policy = {"block_heuristics": block_heuristics, "block_undetermined": True}
    rejects = any(
        c["status"] == "error"
        or (c["enforcement"] == "blocking" and c["status"] == "undetermined")
        or (
            c["enforcement"] == "blocking"
            and c["status"] == "violated"
            and (c["kind"] == "invariant" or block_heuristics)
        )
        for c in checks
    )
    out: dict[str, Any] = {
        "report_version": 1,
        "engine": {"name": "textcontract", "version": "0.1.0"},
        "contract": dict(CONTRACT),
        "input": {"document": "sha256:" + "cd" * 32, "context": "sha256:" + "ef" * 32},
    }
    if source is not None:
        out["source"] = source
    out.update(
        {
            "policy": policy,
            "accepted": bool(checks) and not rejects,
            "complete": bool(checks) and counts["undetermined"] == counts["error"] == 0,
            "counts": counts,
            "checks": checks,
        }
    )
    return out


def located_report() -> dict[str, Any]:
    """A markdown e-mail (front matter of 7 lines, body from line 8) with every status."""
    refund = {
        "pattern": "\\bmoney back\\b",
        "span": [40, 50],
        "match": "Money back",
        "normalized": "money back",
        "excerpt": "… you will get your Money back, no questions asked…",
        "location": location("body", (41, 51), (9, 20), (9, 30)),
    }
    shout = {
        "pattern": "!!+",
        "span": [10, 12],
        "match": "!!",
        "excerpt": "hi sam!!",
        "location": location("body", (6, 8), (8, 7), (8, 9)),
    }
    spans_lines = {
        "host": "bit.ly",
        "count": 1,
        "link": "https://bit.ly/3xYz",
        "span": [60, 79],
        "location": location("body", (60, 80), (9, 40), (10, 9)),
    }
    subject_miss = {
        "pattern": "#\\d{4,}",
        "span": [0, 4],
        "match": "your",
        "location": location("subject", (0, 4), (1, 1), (1, 5)),
    }
    return report(
        [
            check(
                "claims-match-order",
                "DeclaredClaimsConsistent",
                "invariant",
                "satisfied",
                "CLAIM_STATE_MISMATCH",
                "surface:body",
                "claim order.id = 1002 matches",
                [{"key": "order.id", "state": "current", "declared": 1002, "actual": 1002}],
            ),
            check(
                "claims-match-order",
                "DeclaredClaimsConsistent",
                "invariant",
                "violated",
                "CLAIM_STATE_MISMATCH",
                "surface:body",
                "claim order.total = 24.5, but snapshot 'current' has 25.5",
                [{"key": "order.total", "state": "current", "declared": 24.5, "actual": 25.5}],
                severity="critical",
            ),
            check(
                "no-refund-promise",
                "ForbiddenPattern",
                "heuristic",
                "violated",
                "NO_REFUND_PROMISE",
                "surface:body",
                "1 forbidden match on surface 'body', first 'Money back'",
                [refund],
                severity="high",
            ),
            check(
                "subject-names-order",
                "RequiredPattern",
                "heuristic",
                "error",
                "PATTERN_TIMEOUT",
                "surface:subject",
                "the searches on surface 'subject' ran out of their 250 ms budget",
                [subject_miss],
            ),
            check(
                "tone",
                "ForbiddenPattern",
                "heuristic",
                "violated",
                "FORBIDDEN_PATTERN",
                "surface:body",
                "1 forbidden match on surface 'body', first '!!'",
                [shout],
                enforcement="advisory",
                severity="low",
            ),
            check(
                "status-shipped",
                "RequiredFact",
                "invariant",
                "undetermined",
                "FACT_UNAVAILABLE",
                "state:current:order.status",
                "order.status is unknown: the key is missing from the context",
            ),
            check(
                "links",
                "LinkDomains",
                "invariant",
                "violated",
                "LINK_DOMAIN",
                "surface:body",
                "1 of 2 http(s) links leads outside the allowed domains: "
                "bit.ly, a link that wraps\nonto the next line",
                [spans_lines],
                severity="high",
            ),
        ],
        source="mail/order-1002.md",
    )


def plain_report() -> dict[str, Any]:
    """A JSON document's report without locations or source (as a 0.1 report reads back)."""
    return report(
        [
            check(
                "no-refund-promise",
                "ForbiddenPattern",
                "heuristic",
                "violated",
                "NO_REFUND_PROMISE",
                "surface:body",
                "1 forbidden match, first 'full refund'",
                [
                    {
                        "pattern": "full refund",
                        "span": [3, 14],
                        "match": "full refund",
                        "excerpt": "a full refund",
                    }
                ],
            ),
            check(
                "status-shipped",
                "RequiredFact",
                "invariant",
                "satisfied",
                "REQUIRED_FACT",
                "state:current:order.status",
                'order.status is "shipped"',
            ),
        ],
        block_heuristics=False,
    )


def checked_documents() -> list[CheckedDocument]:
    return [
        CheckedDocument("ignored-name.md", located_report(), {"subject": 3}),
        CheckedDocument("replies/order 7, draft.json", plain_report()),
    ]


def audit_report() -> dict[str, Any]:
    """The shipped corpus's audit report, as the audit tests pin it."""
    data: dict[str, Any] = json.loads(
        (ROOT / "tests" / "audit" / "golden-mutations-report.json").read_text(encoding="utf-8")
    )
    return data


def small_audit() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A two-case audit report and the variant views behind it, written by hand."""
    baseline: dict[str, Any] = {
        "document": {
            "surfaces": {
                "body": {
                    "text": "Your order #7 ships today. Total: 10.00 EUR.",
                    "state": "current",
                    "claims": {"order.total": 10},
                }
            }
        },
        "context": {
            "states": {"current": {"order.total": 10, "order.status": "shipped"}},
            "closed_premises": [],
            "history": [],
        },
    }
    trial = copy.deepcopy(baseline)
    trial["document"]["surfaces"]["body"]["text"] = (
        "Your order #7 ships today. Total: 12.00 EUR | <b>&"
    )
    trial["document"]["surfaces"]["body"]["claims"] = {"order.total": 12}
    preserve = copy.deepcopy(baseline)
    preserve["context"]["states"]["current"]["order.total"] = 10.0
    labels = {
        "relation": "violation",
        "validity": "valid",
        "provenance": "by hand",
        "family": "claim-value",
        "class": "defect",
        "severity": None,
        "canary": False,
        "expect": [{"rule": "claims", "code": "CLAIM_STATE_MISMATCH", "scope": "surface:body"}],
    }
    views = [
        {
            "case": "c1",
            "variant": "total",
            "file": "corpus/c1.yaml",
            "line": 9,
            "labels": labels,
            "baseline": baseline,
            "trials": [trial],
        },
        {
            "case": "c1",
            "variant": "float-total",
            "file": "corpus/c1.yaml",
            "line": 20,
            "labels": {**labels, "relation": "preserve", "expect": [], "family": "type"},
            "baseline": baseline,
            "trials": [preserve],
        },
        {
            "case": "c2",
            "variant": "same",
            "file": "corpus/c2.yaml",
            "line": 8,
            "labels": {**labels, "validity": "equivalent", "provenance": None},
            "baseline": baseline,
            "trials": [baseline],
        },
    ]
    report = _small_report()
    return report, views


def _small_report() -> dict[str, Any]:
    rate = {
        "eligible": 1,
        "caught": 0,
        "exercised": 1,
        "rate": 0.0,
        "denominator": "0 caught of 1 exercised defect probes (0 eligible unexercised; "
        "1 completed trials)",
    }
    empty = {
        "eligible": 0,
        "caught": 0,
        "exercised": 0,
        "rate": None,
        "denominator": "0 caught of 0 exercised probes",
    }
    return {
        "audit_version": 1,
        "engine": {"name": "textcontract", "version": "0.1.0"},
        "contract": {"id": "mini", "version": 2, "digest": "sha256:" + "11" * 32},
        "corpus": {"digest": "sha256:" + "22" * 32, "fixture_digest": "sha256:" + "33" * 32},
        "policy": {
            "catch_threshold": 0.5,
            "minimum_trial_count": 1,
            "severity_floor": "high",
            "floors": {},
            "digest": "sha256:" + "44" * 32,
        },
        "detection": {
            "detected": 0,
            "eligible": 1,
            "score": 0.0,
            "interval95": [0.0, 0.7934506856993257],
        },
        "preservation": {
            "preserved": 0,
            "eligible": 1,
            "rate": 0.0,
            "interval95": [0.0, 0.7934506856993257],
        },
        "canaries": {"caught": 0, "total": 0},
        "strength": {
            "classes": {"defect": rate, "gameability": empty, "zero-action": empty},
            "comparable": True,
            "unreached_oracles": [],
            "comparability_key": "sha256:" + "55" * 32,
            "scoring_version": "sha256:" + "66" * 32,
            "scoring_version_inputs": {},
            "probes": [],
        },
        "verdict": {
            "value": "FAIL",
            "reasons": [
                "behavioural-failure-at-or-above-floor",
                "clean-control-rejected",
                "coverage-gap-at-or-above-floor",
            ],
        },
        "coverage_gaps": [{"rule": "no|pipes", "severity": "high"}],
        "families": {"claim-value": {"undetected": 1, "excluded": 1}, "type": {"not-preserved": 1}},
        "variants": [
            {
                "case": "c1",
                "variant": "total",
                "relation": "violation",
                "class": "defect",
                "family": "claim-value",
                "severity": "critical",
                "canary": False,
                "outcome": "undetected",
                "reason": "accepted",
                "expected": [
                    {
                        "rule": "claims",
                        "code": "CLAIM_STATE_MISMATCH",
                        "scope": "surface:body",
                        "status": "satisfied",
                    }
                ],
            },
            {
                "case": "c1",
                "variant": "float-total",
                "relation": "preserve",
                "class": "defect",
                "family": "type",
                "severity": "medium",
                "canary": False,
                "outcome": "not-preserved",
                "reason": "rejected",
                "expected": [],
            },
        ],
        "excluded": [{"case": "c2", "variant": "same", "reason": "equivalent"}],
    }
