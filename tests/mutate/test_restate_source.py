"""restate-source: the target surface restates the source."""

from __future__ import annotations

from .baselines import caught, reasons, run

CONTRACT = """\
textcontract: 1
id: c
rules:
  - {id: adds, type: LexicalRestatement, source: request, target: body}
  - {id: self, type: LexicalRestatement, source: body, target: body, overlap_threshold: 1.0}
"""
DOCUMENT = {
    "surfaces": {
        "request": "My lamp arrived broken. Can I get a new one?",
        "body": "We are sorry: a courier collects the lamp on Tuesday and brings a new one.",
    }
}


def test_the_target_becomes_the_source_sentences_reversed() -> None:
    case, contract = run(CONTRACT, DOCUMENT, None, "restate-source")
    (variant,) = case.variants
    assert variant.document.surface("body").text == (  # type: ignore[union-attr]
        "Can I get a new one? My lamp arrived broken."
    )
    assert variant.expect[0].scope == "surface:body"
    assert caught(contract, case) == [True]
    assert reasons(case) == ["self: source and target are the same surface"]
