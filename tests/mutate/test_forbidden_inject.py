"""forbidden-inject: the rule's violated examples, else verified literals, planted in turn."""

from __future__ import annotations

from .baselines import baselines, caught, reasons, run

TEXT = "Hello Ada,\n\nyour lamp ships today.\n\nKind regards,\nThe team\n"
CONTRACT = """\
textcontract: 1
id: c
rules:
  - id: promise
    type: ForbiddenPattern
    patterns: ['\\bguarantee[ds]?\\b']
    examples: {violated: ["Delivery is GUARANTEED.", "We guarantee it."]}
  - id: derived
    type: ForbiddenPattern
    surfaces: [body]
    patterns: ['\\bmoney back\\b', '(?P<x>a)(?P>x)', '\\brefund (is|was) due\\b']
  - id: settled
    type: SettledPremise
    premises: {refund-offered: ['\\bwe can refund\\b'], other: ['\\bnever\\b']}
"""
DOCUMENT = {"surfaces": {"body": TEXT, "subject": "Your lamp ships"}}


def test_examples_then_derived_literals_then_closed_premises() -> None:
    context = {"states": {"current": {}}, "closed_premises": ["refund-offered"]}
    case, contract = run(CONTRACT, DOCUMENT, context, "forbidden-inject")
    described = [(v.expect[0].rule, v.expect[0].scope, v.description) for v in case.variants]
    assert [item[0] for item in described] == [
        "promise", "promise", "derived", "derived", "settled"
    ]  # fmt: skip
    assert {item[1] for item in described[:2]} == {"surface:body", "surface:subject"}
    assert described[2][2] == "planted on surface 'body': a text pattern '\\bmoney back\\b' matches"
    assert "premise 'refund-offered'" in described[4][2]
    assert caught(contract, case) == [True] * 5
    planted = [v.document.surface("body").text for v in case.variants]  # type: ignore[union-attr]
    assert any("money back" in text for text in planted)
    assert any("refund is due" in text for text in planted)


def test_a_planted_text_is_a_paragraph_of_its_own() -> None:
    case, _ = run(CONTRACT, DOCUMENT, None, "forbidden-inject")
    for variant in case.variants:
        body = variant.document.surface("body")
        assert body is not None
        if body.text != TEXT:
            paragraphs = body.text.strip().split("\n\n")
            assert len(paragraphs) == 4
    assert reasons(case) == ["settled: the context closes no premise the rule has patterns for"]


def test_built_in_pack_rules_are_probed_with_their_examples() -> None:
    packs = baselines()[2]
    from textcontract.mutate import generate_case

    case = generate_case(
        packs.document, packs.context, packs.contract, "c", operators=["forbidden-inject"]
    )
    own = {"no-refund-promise"}
    pack_rules = {
        e.rule.header.id
        for e in packs.contract.entries
        if e.rule.header.type == "ForbiddenPattern" and e.rule.header.id not in own
    }
    probed = {v.expect[0].rule for v in case.variants}
    assert len(pack_rules) == 17
    assert pack_rules <= probed
    examples = sum(
        len(e.violated_examples) for e in packs.contract.entries if e.rule.header.id in pack_rules
    )
    assert len(case.variants) == examples + 3  # the order contract's own rule: 3 patterns
