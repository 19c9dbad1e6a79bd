"""fact-flip: another value of the same type, one the rule does not allow."""

from __future__ import annotations

from .baselines import caught, reasons, run

CONTRACT = """\
textcontract: 1
id: c
rules:
  - {id: status, type: RequiredFact, key: order.status, equals: shipped}
  - {id: tier, type: RequiredFact, key: tier, one_of: [1, 2], state: after}
  - {id: present, type: RequiredFact, key: order.id}
  - {id: same-id, type: CompareFields, left: {key: order.id}, right: {state: after, key: order.id},
     op: eq}
  - {id: cap, type: CompareFields, left: {state: after, key: paid}, right: {key: total}, op: le}
  - {id: moves, type: AllowedTransition, before: {key: order.status},
     after: {state: after, key: order.status}, allowed: [[shipped, delivered]]}
"""
CONTEXT = {
    "states": {
        "current": {"order.status": "shipped", "order.id": 7, "total": 9.5},
        "after": {"order.status": "delivered", "order.id": 7, "tier": 1, "paid": 9},
    }
}


def test_each_relation_gets_a_value_it_does_not_allow() -> None:
    case, contract = run(CONTRACT, "Shipped.", CONTEXT, "fact-flip")
    assert [v.change for v in case.variants] == [
        {"context": {"current": {"order.status": "delivered"}}},  # the other snapshot's value
        {"context": {"after": {"tier": 11}}},
        {"context": {"after": {"order.id": 17}}},
        {"context": {"after": {"paid": 10}}},  # above 9.5, still an integer
        {"context": {"after": {"order.status": "shipped"}}},  # (shipped, shipped): not allowed
    ]
    assert [v.expect[0].scope for v in case.variants] == [
        "state:current:order.status",
        "state:after:tier",
        "$",
        "$",
        "$",
    ]
    assert caught(contract, case) == [True] * 5
    assert reasons(case) == ["present: presence only; any value of the fact satisfies it"]


def test_a_boolean_flips_and_null_has_no_other_value() -> None:
    contract = (
        "textcontract: 1\nid: c\nrules:\n"
        "  - {id: paid, type: RequiredFact, key: paid, equals: true}\n"
        "  - {id: none, type: RequiredFact, key: note, equals: null}\n"
    )
    case, parsed = run(contract, "x", {"paid": True, "note": None}, "fact-flip")
    assert [v.change for v in case.variants] == [{"context": {"current": {"paid": False}}}]
    assert reasons(case) == ["none: null has no other value to take"]
    assert caught(parsed, case) == [True]
