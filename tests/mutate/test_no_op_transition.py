"""no-op-transition: the after snapshot repeats the before one on the rule's keys."""

from __future__ import annotations

from .baselines import caught, reasons, run

CONTRACT = """\
textcontract: 1
id: c
rules:
  - {id: changed, type: StateChanged, before: before, after: after, keys: [status, note]}
"""


def test_the_listed_keys_take_their_before_values() -> None:
    context = {
        "states": {
            "before": {"status": "open", "note": "a", "other": 1},
            "after": {"status": "closed", "note": "a", "other": 2},
        }
    }
    case, contract = run(CONTRACT, "Closed.", context, "no-op-transition")
    (variant,) = case.variants
    assert variant.change == {"context": {"after": {"status": "open"}}}
    assert variant.description == "snapshot 'after' repeats 'before' on status"
    assert variant.expect[0].scope == "transition:before->after"
    assert caught(contract, case) == [True]


def test_without_a_state_changed_rule_it_does_not_apply() -> None:
    case, _ = run(
        "textcontract: 1\nid: c\nrules:\n  - {id: f, type: RequiredFact, key: k}\n",
        "x",
        {"k": 1},
        "no-op-transition",
    )
    assert case.variants == ()
    assert reasons(case) == ["the contract has no rule of type StateChanged"]
