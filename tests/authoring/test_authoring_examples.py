"""``test``'s library side: examples run against their rule alone, statuses compared."""

from __future__ import annotations

import pytest

from textcontract.authoring import observed_status, run_examples, surfaces_read
from textcontract.contract import parse_contract_text
from textcontract.model import Check, Enforcement, Kind, Severity, Status


def _check(status: Status) -> Check:
    return Check(
        rule_id="r",
        rule_version=1,
        type="T",
        kind=Kind.HEURISTIC,
        status=status,
        code="C",
        scope="$",
        severity=Severity.MEDIUM,
        enforcement=Enforcement.BLOCKING,
        evidence=(),
        metrics={},
        message="",
    )


S, V, U, E = Status.SATISFIED, Status.VIOLATED, Status.UNDETERMINED, Status.ERROR


@pytest.mark.parametrize(
    ("statuses", "observed"),
    [
        ([S], S),
        ([S, S, S], S),
        ([S, V], V),
        ([V, U], V),
        ([S, U], U),
        ([V, E], E),
        ([U, E, S], E),
        ([], S),
    ],
)
def test_observed_status_precedence(statuses: list[Status], observed: Status) -> None:
    assert observed_status(_check(status) for status in statuses) is observed


def _run(rules_yaml: str) -> list[tuple[str, str, str, str]]:
    definition = parse_contract_text(f"textcontract: 1\nid: t\nrules:\n{rules_yaml}")
    result = run_examples(definition)
    return [(r.rule_id, r.text, r.expected.value, r.observed.value) for r in result.mismatches]


def test_holding_examples_give_no_mismatch() -> None:
    assert (
        _run(
            "  - id: no-refund\n    type: ForbiddenPattern\n    patterns: ['\\brefund\\b']\n"
            "    examples: {violated: [Full REFUND now], satisfied: [Thanks]}\n"
        )
        == []
    )


def test_each_mismatch_names_rule_example_expected_and_observed() -> None:
    definition = parse_contract_text(
        "textcontract: 1\nid: t\nrules:\n"
        "  - id: no-refund\n    type: ForbiddenPattern\n    patterns: ['\\brefund\\b']\n"
        "    examples:\n      violated: [Thanks, Refund]\n      satisfied: [refund please]\n"
        "  - id: untested\n    type: NoRepeatedText\n",
        "contract.yaml",
    )
    result = run_examples(definition)
    assert len(result.results) == 3
    assert result.rules_without_examples == ("untested",)
    mismatches = [m.to_json() for m in result.mismatches]
    assert [(m["rule"], m["example"], m["expected"], m["observed"]) for m in mismatches] == [
        ("no-refund", "violated[0]", "violated", "satisfied"),
        ("no-refund", "satisfied[0]", "satisfied", "violated"),
    ]
    assert mismatches[0]["text"] == "Thanks"
    assert mismatches[0]["location"] == {"file": "contract.yaml", "line": 8, "column": 18}
    assert mismatches[1]["checks"][0]["code"] == "FORBIDDEN_PATTERN"


def test_example_context_is_used() -> None:
    assert (
        _run(
            "  - id: shipped\n    type: RequiredFact\n    key: order.status\n    equals: shipped\n"
            "    examples:\n"
            "      violated: [{text: x, context: {order.status: pending}}]\n"
            "      satisfied: [{text: x, context: {order.status: shipped}}]\n"
            "  - id: fresh\n    type: NoRepeatedText\n"
            "    examples:\n"
            "      violated: [{text: 'THANKS!', context: {states: {}, history: [thanks]}}]\n"
            "      satisfied: [thanks]\n"
        )
        == []
    )


def test_missing_fact_is_undetermined_and_so_a_mismatch() -> None:
    assert _run(
        "  - id: shipped\n    type: RequiredFact\n    key: order.status\n"
        "    examples: {violated: [no context]}\n"
    ) == [("shipped", "no context", "violated", "undetermined")]


def test_example_goes_on_every_listed_surface() -> None:
    definition = parse_contract_text(
        "textcontract: 1\nid: t\nrules:\n"
        "  - id: order-number\n    type: RequiredPattern\n    surfaces: [subject, body]\n"
        "    patterns: ['#\\d+']\n"
        "    examples: {violated: [no number], satisfied: ['order #12']}\n"
    )
    result = run_examples(definition)
    assert surfaces_read(definition.entries[0].rule) == ("subject", "body")
    assert [[c.scope for c in r.checks] for r in result.results] == [
        ["surface:subject", "surface:body"],
        ["surface:subject", "surface:body"],
    ]
    assert result.mismatches == ()


def test_lexical_restatement_reads_source_and_target() -> None:
    definition = parse_contract_text(
        "textcontract: 1\nid: t\nrules:\n"
        "  - id: adds\n    type: LexicalRestatement\n    source: body\n    target: summary\n"
        "    examples: {violated: [Your order shipped today]}\n"
    )
    assert surfaces_read(definition.entries[0].rule) == ("body", "summary")
    assert run_examples(definition).mismatches == ()


def test_a_rule_without_surfaces_reads_one_body_surface() -> None:
    definition = parse_contract_text(
        "textcontract: 1\nid: t\nrules:\n  - {id: r, type: NoRepeatedText}\n"
    )
    assert surfaces_read(definition.entries[0].rule) == ("body",)


def test_examples_of_included_packs_run_too() -> None:
    definition = parse_contract_text(
        "textcontract: 1\nid: t\ninclude: [builtin:placeholders]\n"
        "rules:\n  - {id: own, type: NoRepeatedText, examples: {satisfied: [hello]}}\n"
    )
    result = run_examples(definition)
    assert {r.rule_id for r in result.results} >= {"own", "placeholders.lorem-ipsum"}
    assert result.mismatches == ()
