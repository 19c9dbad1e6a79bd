"""keyword-stuffing: the surface padded with its own keywords."""

from __future__ import annotations

from textcontract.mutate.keyword_stuffing import keywords

from .baselines import caught, reasons, run

TEXT = (
    "Your walnut lamp left the warehouse today. The walnut lamp travels with Parcelway and "
    "the parcel should arrive on Friday; the courier rings twice at https://track.example/lamp."
)


def test_keywords_are_frequent_long_words_outside_links() -> None:
    assert keywords(TEXT) == ["walnut", "warehouse", "today"]


CONTRACT = """\
textcontract: 1
id: c
rules:
  - {id: varied, type: LexicalDiversity, min: 0.6}
  - {id: unique, type: MinimumTokens, minimum: 30, minimum_unique: 20}
  - {id: count-only, type: MinimumTokens, minimum: 30}
  - {id: one, type: MinimumTokens, minimum: 1}
"""


def test_padding_that_only_a_unique_count_or_diversity_sees() -> None:
    case, contract = run(
        CONTRACT, TEXT + " It is on its way now, as promised to you.", None, "keyword-stuffing"
    )
    texts = [v.document.surface("body").text for v in case.variants]  # type: ignore[union-attr]
    assert [v.expect[0].rule for v in case.variants] == ["varied", "unique", "count-only"]
    assert texts[1] == texts[2]
    assert texts[1].startswith("Your walnut lamp left the warehouse today. walnut warehouse today")
    assert caught(contract, case) == [True, True, False]
    assert reasons(case) == ["one on surface 'body': the rule asks for too few tokens to pad (1)"]
