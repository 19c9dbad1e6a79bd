"""smart-quotes: straight quotes curled, links left alone."""

from __future__ import annotations

from textcontract.mutate.smart_quotes import curl

from .baselines import reasons, run


def test_curling() -> None:
    assert curl("We're \"sure\" it's 'fine' (\"yes\")") == "We’re “sure” it’s ‘fine’ (“yes”)"
    assert curl("see https://x.example/a'b\"c now") == "see https://x.example/a'b\"c now"


CONTRACT = "textcontract: 1\nid: c\nrules:\n  - {id: long, type: MinimumTokens, minimum: 2}\n"


def test_one_variant_or_a_skip() -> None:
    case, _ = run(CONTRACT, "It's on its way.", None, "smart-quotes")
    assert case.variants[0].change == {
        "replace": [{"surface": "body", "find": "It's", "with": "It’s"}]
    }
    case, _ = run(CONTRACT, "No quotes here.", None, "smart-quotes")
    assert reasons(case) == ["no surface changes: quotes curled"]
