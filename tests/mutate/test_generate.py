"""Generating a case: the baseline gate, operator names, vacuous and identical mutations,
one evaluation only, and deterministic bytes for a seed."""

from __future__ import annotations

import pytest

import textcontract
from textcontract import Context, Document, InputError, __version__
from textcontract.mutate import BaselineRejected, GeneratedCase, generate_case
from textcontract.mutate import _generate as generate_module

from .baselines import Table, baselines

ORDERS = baselines()[0]


def _case(table: Table = ORDERS, **options: object) -> GeneratedCase:
    return generate_case(table.document, table.context, table.contract, "c1", **options)  # type: ignore[arg-type]


def test_a_rejected_baseline_names_every_failing_check() -> None:
    context = Context.from_json({"order.id": 1001, "order.status": "packed"})
    with pytest.raises(BaselineRejected) as caught:
        generate_case(ORDERS.document, context, ORDERS.contract, "c1")
    message = str(caught.value)
    assert message.splitlines()[0] == (
        "the baseline is not accepted and not complete under contract 'order-confirmation'; "
        "generate variants from an output the contract accepts"
    )
    assert "  violated status-shipped REQUIRED_FACT state:current:order.status (blocking)" in (
        message
    )
    assert "undetermined claims-match-order CLAIM_UNAVAILABLE surface:body" in message
    assert caught.value.exit_code == 1


def test_an_accepted_but_incomplete_baseline_is_rejected_too() -> None:
    contract = textcontract.load_contract_text(
        "textcontract: 1\nid: c\npolicy: {block_undetermined: false}\nrules:\n"
        "  - {id: f, type: RequiredFact, key: k}\n"
    )
    with pytest.raises(BaselineRejected, match="is not complete under contract 'c'"):
        generate_case(Document.from_text("hi"), Context.empty(), contract, "c1")


@pytest.mark.parametrize(
    ("operators", "message"),
    [
        (["fact-flp"], "unknown operator 'fact-flp' (did you mean 'fact-flip'?)"),
        (["fact-flip", "fact-flip"], "operator 'fact-flip' is named twice"),
        ([], "no operator named"),
    ],
)
def test_operator_names_are_checked(operators: list[str], message: str) -> None:
    with pytest.raises(InputError) as caught:
        _case(operators=operators)
    assert message in str(caught.value)


def test_a_case_id_outside_the_pattern_is_an_input_error() -> None:
    with pytest.raises(InputError, match="case id 'bad id' does not match"):
        generate_case(ORDERS.document, ORDERS.context, ORDERS.contract, "bad id")


def test_ids_count_per_operator_from_one_in_operator_order() -> None:
    case = _case(operators=["link-lookalike", "fact-flip"])
    assert [v.id for v in case.variants] == [
        "link-lookalike-1",
        "link-lookalike-2",
        "link-lookalike-3",
        "link-lookalike-4",
        "fact-flip-1",
    ]
    assert case.operators == ("link-lookalike", "fact-flip")


def test_every_variant_is_labelled_as_the_spec_says() -> None:
    case = _case()
    for variant in case.variants:
        entry = variant.to_json()
        assert entry["validity"] == "valid"
        assert entry["family"] == variant.operator.name
        assert entry["provenance"] == f"generated: {variant.operator.name} v1"
        if entry["relation"] == "violation":
            assert entry["class"] == variant.operator.probe_class.value
            assert len(entry["expect"]) == 1
            rule = ORDERS.contract.entry(entry["expect"][0]["rule"])
            assert rule is not None
            assert rule.rule.header.type in variant.operator.targets
        else:
            assert "expect" not in entry
            assert "class" not in entry


_ADVISORY = """\
textcontract: 1
id: c
rules:
  - {id: tone, type: ForbiddenPattern, enforcement: advisory, patterns: ['\\bcheap\\b'],
     examples: {violated: ["A cheap lamp."]}}
  - {id: length, type: MinimumTokens, minimum: 3}
"""


def test_a_probe_of_a_check_already_violated_on_the_baseline_is_left_out() -> None:
    contract = textcontract.load_contract_text(_ADVISORY)
    document = Document.from_text("A cheap lamp, shipped today with care.")
    case = generate_case(document, Context.empty(), contract, "c1")
    assert [v.id for v in case.variants if v.operator.name.startswith("forbidden")] == []
    reasons = [s.reason for s in case.skipped if s.operator == "forbidden-inject"]
    assert reasons == [
        "tone: FORBIDDEN_PATTERN at surface:body is already violated on the baseline "
        "(an advisory or non-blocking check), so a probe of it would be vacuous"
    ]


def test_the_contract_is_evaluated_once_on_the_baseline_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = []
    real = vars(generate_module)["evaluate"]

    def counting(*args: object) -> object:
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(generate_module, "evaluate", counting)
    case = _case()
    assert len(case.variants) > 20
    assert len(calls) == 1
    assert calls[0][1] is ORDERS.document


@pytest.mark.parametrize("table", baselines(), ids=lambda table: table.name)
def test_the_same_inputs_and_seed_give_the_same_bytes(table: Table) -> None:
    assert _case(table, seed=7).to_yaml() == _case(table, seed=7).to_yaml()
    assert _case(table).to_yaml() == _case(table, seed=0).to_yaml()


@pytest.mark.parametrize("table", baselines(), ids=lambda table: table.name)
def test_a_seed_moves_choices_never_which_variants_exist(table: Table) -> None:
    """The documented effect: the seed picks places and values, not operators or counts."""
    cases = [_case(table, seed=seed) for seed in range(4)]
    shapes = [
        [(v.id, tuple((e.rule, e.code) for e in v.expect)) for v in case.variants] for case in cases
    ]
    assert all(shape == shapes[0] for shape in shapes)
    assert len({case.to_yaml() for case in cases}) > 1


def test_the_case_file_header_says_what_was_generated() -> None:
    lines = _case(operators=["fact-flip", "no-op-transition"]).to_yaml().splitlines()
    assert all(line.startswith("# ") and len(line) <= 98 for line in lines[:3])
    assert " ".join(line[2:] for line in lines[:3]) == (
        f"Generated by textcontract mutate {__version__} for contract 'order-confirmation', "
        "seed 0: 1 variant. Valid by construction (docs/mutate.md says why, operator by "
        "operator); regenerate rather than edit. Variants per operator: fact-flip 1. No variant "
        "from: no-op-transition."
    )
    assert lines[3] == "id: c1"
