"""unicode-nfd: every surface decomposed."""

from __future__ import annotations

import unicodedata

from .baselines import reasons, run

CONTRACT = "textcontract: 1\nid: c\nrules:\n  - {id: long, type: MinimumTokens, minimum: 2}\n"


def test_decomposed_text_and_nothing_for_ascii() -> None:
    document = {"surfaces": {"body": "Zoé a reçu la lampe.", "subject": "La lampe"}}
    case, _ = run(CONTRACT, document, None, "unicode-nfd")
    (variant,) = case.variants
    body = variant.document.surface("body")
    assert body is not None
    assert body.text == unicodedata.normalize("NFD", "Zoé a reçu la lampe.")
    assert variant.change["replace"][0]["find"] == "Zoé a reçu"
    case, _ = run(CONTRACT, "Plain ASCII text.", None, "unicode-nfd")
    assert reasons(case) == ["no surface changes: decomposed (NFD)"]


def test_anchored_surfaces_are_left_alone() -> None:
    document = {
        "surfaces": {
            "body": {
                "text": "Total: 5 €",
                "claims": {"t": 5},
                "anchors": {"t": [{"span": [7, 8], "text": "5"}]},
            },
            "note": "Café",
        }
    }
    case, _ = run(CONTRACT.replace("minimum: 2", "minimum: 1"), document, {"t": 5}, "unicode-nfd")
    assert [v.change for v in case.variants] == [
        {"replace": [{"surface": "note", "find": "Café", "with": "Cafe\u0301"}]}
    ]
    assert reasons(case) == ["surfaces with anchors are left as they are: body"]
