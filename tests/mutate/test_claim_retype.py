"""claim-retype: each claim in each other type that exists for its value."""

from __future__ import annotations

from .baselines import caught, reasons, run

CONTRACT = "textcontract: 1\nid: c\nrules:\n  - {id: claims, type: DeclaredClaimsConsistent}\n"


def test_every_representation_of_every_claim() -> None:
    document = {"surfaces": {"body": {"text": "x", "claims": {"id": 1001, "t": 5.5, "c": "X"}}}}
    case, contract = run(CONTRACT, document, {"id": 1001, "t": 5.5, "c": "X"}, "claim-retype")
    assert [v.change for v in case.variants] == [
        {"claims": {"body": {"id": 1001.0}}},
        {"claims": {"body": {"id": "1001"}}},
        {"claims": {"body": {"t": "5.5"}}},
    ]
    assert caught(contract, case) == [True, True, True]
    assert reasons(case) == ['claims: claim c on body ("X") has no other representation']
