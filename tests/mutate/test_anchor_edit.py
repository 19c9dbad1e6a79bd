"""anchor-edit: one character of an anchored value changed, its length kept."""

from __future__ import annotations

from textcontract.mutate.anchor_edit import edited

from .baselines import caught, reasons, run


def test_one_character_changes_and_the_length_stays() -> None:
    assert edited("59.90") == "69.90"
    assert edited("1009") == "2009"
    assert edited("9") == "0"
    assert edited("Parcelway") == "Qarcelway"
    assert edited("zed") == "aed"
    assert edited("— …") is None


CONTRACT = "textcontract: 1\nid: c\nrules:\n  - {id: stands, type: ClaimsAnchored}\n"
DOCUMENT = {
    "surfaces": {
        "body": {
            "text": "Total 59.90 EUR, order 1001, via Parcelway.",
            "claims": {"total": 59.9, "id": 1001, "via": "Parcelway"},
            "anchors": {
                "total": [{"span": [6, 11], "text": "59.90"}],
                "id": [{"span": [23, 27], "text": "1001"}],
                "via": [{"span": [33, 42], "text": "Parcelway"}],
            },
        }
    }
}


def test_each_anchored_claim_gets_one_edit_the_rule_catches() -> None:
    case, contract = run(CONTRACT, DOCUMENT, {"total": 59.9, "id": 1001, "via": "Parcelway"},
                         "anchor-edit")  # fmt: skip
    texts = [v.document.surface("body").text for v in case.variants]  # type: ignore[union-attr]
    assert texts == [
        "Total 69.90 EUR, order 1001, via Parcelway.",
        "Total 59.90 EUR, order 2001, via Parcelway.",
        "Total 59.90 EUR, order 1001, via Qarcelway.",
    ]
    assert caught(contract, case) == [True, True, True]


def test_an_unanchored_claim_is_skipped() -> None:
    contract = CONTRACT.replace("ClaimsAnchored}", "ClaimsAnchored, search: true}")
    document = {"surfaces": {"body": {"text": "Total 5 EUR", "claims": {"total": 5}}}}
    case, _ = run(contract, document, {"total": 5}, "anchor-edit")
    assert case.variants == ()
    assert reasons(case) == ["stands: claim total on body has no anchor"]
