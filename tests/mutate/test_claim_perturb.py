"""claim-perturb: each checked claim takes another value of its type."""

from __future__ import annotations

from .baselines import caught, reasons, run

CONTRACT = """\
textcontract: 1
id: c
rules:
  - {id: claims, type: DeclaredClaimsConsistent, keys: [total, paid, name]}
"""
DOCUMENT = {
    "surfaces": {
        "body": {"text": "Total 5.", "claims": {"total": 5.5, "paid": True, "skipped": 1}},
        "subject": {"text": "Hi", "claims": {"name": "Ada"}},
    }
}
CONTEXT = {"total": 5.5, "paid": True, "skipped": 1, "name": "Ada"}


def test_each_claim_the_rule_checks_gets_another_value() -> None:
    case, contract = run(CONTRACT, DOCUMENT, CONTEXT, "claim-perturb")
    assert [v.change for v in case.variants] == [
        {"claims": {"body": {"total": 4.5}}},
        {"claims": {"body": {"paid": False}}},
        {"claims": {"subject": {"name": "not Ada"}}},
    ]
    assert [v.expect[0].scope for v in case.variants] == [
        "surface:body",
        "surface:body",
        "surface:subject",
    ]
    assert caught(contract, case) == [True, True, True]


def test_no_claims_no_variant() -> None:
    contract = "textcontract: 1\nid: c\nrules:\n  - {id: claims, type: DeclaredClaimsConsistent,"
    contract += " require_claims: false}\n"
    case, _ = run(contract, "Hello", {}, "claim-perturb")
    assert case.variants == ()
    assert reasons(case) == ["claims: no surface it reads declares a claim"]
