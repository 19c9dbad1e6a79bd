"""fact-retype: the same value in each other type that exists for it."""

from __future__ import annotations

from .baselines import caught, reasons, run

CONTRACT = """\
textcontract: 1
id: c
rules:
  - {id: count, type: RequiredFact, key: count, equals: 1}
  - {id: code, type: RequiredFact, key: code, one_of: ["7", 7]}
  - {id: word, type: RequiredFact, key: word, equals: shipped}
  - {id: eq, type: CompareFields, left: {key: count}, right: {state: after, key: count}, op: eq}
  - {id: le, type: CompareFields, left: {key: count}, right: {state: after, key: count}, op: le}
"""
CONTEXT = {
    "states": {
        "current": {"count": 1, "code": "7", "word": "shipped"},
        "after": {"count": 1},
    }
}


def test_every_other_representation_once() -> None:
    case, contract = run(CONTRACT, "x", CONTEXT, "fact-retype")
    assert [v.change for v in case.variants] == [
        {"context": {"current": {"count": 1.0}}},
        {"context": {"current": {"count": "1"}}},
        {"context": {"current": {"count": True}}},
        {"context": {"current": {"code": 7.0}}},
        {"context": {"after": {"count": 1.0}}},
        {"context": {"after": {"count": "1"}}},
        {"context": {"after": {"count": True}}},
    ]
    assert caught(contract, case) == [True] * 7
    assert reasons(case) == [
        "code: the rule itself allows 7",
        'word: "shipped" has no other representation',
        "le: le orders numbers; another type is an error",
    ]
