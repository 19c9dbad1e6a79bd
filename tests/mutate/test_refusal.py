"""refusal: the surface is an LLM refusal, whatever the rule's thresholds."""

from __future__ import annotations

from textcontract.mutate.refusal import REFUSAL

from .baselines import caught, run

CONTRACT = """\
textcontract: 1
id: c
rules:
  - {id: strict, type: MinimumTokens, minimum: 12}
  - {id: lax, type: MinimumTokens, minimum: 5}
"""


def test_a_refusal_is_planted_for_every_length_rule_and_a_lax_one_misses_it() -> None:
    text = "Your lamp ships today with the courier, as planned, and arrives on Friday morning."
    case, contract = run(CONTRACT, text, None, "refusal")
    assert REFUSAL == "I'm sorry, but I can't help with that."
    assert [v.document.surface("body").text for v in case.variants] == [REFUSAL, REFUSAL]  # type: ignore[union-attr]
    assert [v.expect[0].rule for v in case.variants] == ["strict", "lax"]
    assert caught(contract, case) == [True, False]  # eight tokens pass a minimum of five
