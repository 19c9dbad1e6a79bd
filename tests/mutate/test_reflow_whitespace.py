"""reflow-whitespace: prose paragraphs re-wrapped; signatures, lists and code left alone."""

from __future__ import annotations

from textcontract.mutate.reflow_whitespace import reflow

from .baselines import caught, reasons, run

TEXT = (
    "Hello Ada,\n\n"
    "your order left the warehouse today and is on its way with the\n"
    "courier, who rings twice  before leaving a note at https://track.example/a-b-c.\n\n"
    "- one item\n- another item that is rather long, long enough to count as prose\n\n"
    "Kind regards,\nThe team\n"
)


def test_only_prose_is_rewrapped() -> None:
    assert reflow(TEXT, 40) == (
        "Hello Ada,\n\n"
        "your order left the warehouse today and\n"
        "is on its way with the courier, who\n"
        "rings twice before leaving a note at\n"
        "https://track.example/a-b-c.\n\n"
        "- one item\n- another item that is rather long, long enough to count as prose\n\n"
        "Kind regards,\nThe team\n"
    )


CONTRACT = "textcontract: 1\nid: c\nrules:\n  - {id: long, type: MinimumTokens, minimum: 3}\n"


def test_one_preserve_variant_the_contract_accepts() -> None:
    case, contract = run(CONTRACT, TEXT, None, "reflow-whitespace")
    (variant,) = case.variants
    assert variant.to_json()["relation"] == "preserve"
    assert variant.document.surface("body").text.split() == TEXT.split()  # type: ignore[union-attr]
    report = __import__("textcontract").Contract(contract).check(variant.document, variant.context)
    assert report.accepted
    assert report.complete
    assert caught(contract, case) == [True]  # no expectation: vacuously all


def test_nothing_to_reflow() -> None:
    case, _ = run(CONTRACT, "Kind regards,\nThe team", None, "reflow-whitespace")
    assert reasons(case) == ["no surface changes: prose re-wrapped"]
