"""claim-from-other-snapshot: a claim takes its key's value in another snapshot."""

from __future__ import annotations

from .baselines import caught, reasons, run

CONTRACT = "textcontract: 1\nid: c\nrules:\n  - {id: claims, type: DeclaredClaimsConsistent}\n"
DOCUMENT = {
    "surfaces": {
        "body": {"text": "Shipped.", "state": "after", "claims": {"status": "shipped", "id": 4}}
    }
}


def test_each_other_snapshot_with_another_value() -> None:
    context = {
        "states": {
            "before": {"status": "packed", "id": 4},
            "after": {"status": "shipped", "id": 4},
            "later": {"status": "delivered"},
        }
    }
    case, contract = run(CONTRACT, DOCUMENT, context, "claim-from-other-snapshot")
    assert [v.change for v in case.variants] == [
        {"claims": {"body": {"status": "packed"}}},
        {"claims": {"body": {"status": "delivered"}}},
    ]
    assert case.variants[0].description == (
        "claim status on surface 'body': \"shipped\" → \"packed\", its value in snapshot 'before'"
    )
    assert caught(contract, case) == [True, True]


def test_one_snapshot_gives_nothing() -> None:
    document = {"surfaces": {"body": {"text": "x", "claims": {"id": 4}}}}
    case, _ = run(CONTRACT, document, {"id": 4}, "claim-from-other-snapshot")
    assert case.variants == ()
    assert reasons(case) == ["claims: no other snapshot holds a different value for a claimed key"]
