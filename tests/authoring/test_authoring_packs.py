"""The shipped rule packs: shape, examples, lint-cleanliness and use through ``include``."""

from __future__ import annotations

from pathlib import Path

import pytest

from textcontract import ContractError, Document, Status, load_contract, load_contract_text
from textcontract.authoring import lint_contract, run_examples
from textcontract.contract import builtin_pack_names, parse_contract_file

ROOT = Path(__file__).resolve().parents[2]
PACK_FILES = sorted((ROOT / "rules").glob("*.yaml"))
PACK_NAMES = [path.stem for path in PACK_FILES]


def test_the_three_promised_packs_ship() -> None:
    assert {"placeholders", "llm-boilerplate", "leaked-markup"} <= set(builtin_pack_names())
    assert list(builtin_pack_names()) == PACK_NAMES


@pytest.mark.parametrize("path", PACK_FILES, ids=PACK_NAMES)
def test_pack_rules_are_namespaced_described_and_carry_both_kinds_of_example(path: Path) -> None:
    definition = parse_contract_file(path)
    assert definition.id == path.stem
    assert definition.description
    assert definition.entries
    for entry in definition.entries:
        header = entry.rule.header
        assert header.id.startswith(f"{path.stem}."), header.id
        assert header.description, header.id
        assert entry.violated_examples, f"{header.id} has no violated example"
        assert entry.satisfied_examples, f"{header.id} has no satisfied example"


@pytest.mark.parametrize("path", PACK_FILES, ids=PACK_NAMES)
def test_every_pack_example_holds(path: Path) -> None:
    result = run_examples(parse_contract_file(path))
    assert result.rules_without_examples == ()
    assert [
        (m.rule_id, m.text, m.expected.value, m.observed.value) for m in result.mismatches
    ] == []


@pytest.mark.parametrize("path", PACK_FILES, ids=PACK_NAMES)
def test_packs_are_lint_clean(path: Path) -> None:
    assert lint_contract(parse_contract_file(path)) == ()


ALL_PACKS = """\
textcontract: 1
id: outbound-mail
include: [builtin:placeholders, builtin:llm-boilerplate, builtin:leaked-markup]
rules:
  - {id: has-words, type: MinimumTokens, minimum: 3}
"""

CLEAN_MAIL = """\
Hello Ada,

your order #1001 shipped today and should reach you by Friday. Track it at
https://track.example.net/1Z999 — the carrier updates the status every few hours.

The invoice [1] is attached; items you already returned are marked [x].
Prices include 20% VAT. If something is wrong, reply to this e-mail and we will sort it out.

Best regards,
Maria from the Example Shop team
"""


def _violated(report_rule_ids: list[tuple[str, Status]]) -> set[str]:
    return {rule for rule, status in report_rule_ids if status is Status.VIOLATED}


def test_a_realistic_clean_email_passes_every_pack() -> None:
    contract = load_contract_text(ALL_PACKS)
    report = contract.check(CLEAN_MAIL)
    assert [c.rule_id for c in report.checks if c.status is not Status.SATISFIED] == []
    assert report.accepted
    assert report.complete


def test_included_packs_catch_what_they_promise() -> None:
    contract = load_contract_text(ALL_PACKS)
    text = (
        "Dear [customer_name],\n\nAs an AI language model, I cannot help with refunds. "
        "Your total is {{ order.total }}.<br>TODO: link\n\nI hope this helps!"
    )
    report = contract.check(text)
    violated = _violated([(c.rule_id, c.status) for c in report.checks])
    assert violated == {
        "placeholders.bracketed-identifier",
        "placeholders.double-braces",
        "placeholders.todo-markers",
        "llm-boilerplate.ai-self-reference",
        "llm-boilerplate.refusal",
        "llm-boilerplate.chat-filler",
        "leaked-markup.html-tags",
    }
    assert not report.accepted


def test_chat_filler_is_advisory_and_alone_does_not_reject() -> None:
    contract = load_contract_text(ALL_PACKS)
    report = contract.check(CLEAN_MAIL + "\nI hope this helps!")
    filler = [c for c in report.checks if c.rule_id == "llm-boilerplate.chat-filler"]
    assert [c.status for c in filler] == [Status.VIOLATED]
    assert report.accepted


def test_pack_rules_read_every_surface() -> None:
    contract = load_contract_text("textcontract: 1\nid: subj\ninclude: [builtin:placeholders]\n")
    document = Document.from_json(
        {"surfaces": {"subject": "Your order {{ order.id }}", "body": "All fine."}}
    )
    checks = [
        c for c in contract.check(document).checks if c.rule_id == "placeholders.double-braces"
    ]
    assert [(c.scope, c.status) for c in checks] == [
        ("surface:subject", Status.VIOLATED),
        ("surface:body", Status.SATISFIED),
    ]


def test_relative_include_of_a_pack_copy_and_duplicate_ids_name_both_places(
    tmp_path: Path,
) -> None:
    (tmp_path / "packs").mkdir()
    (tmp_path / "packs" / "mine.yaml").write_text(
        (ROOT / "rules" / "placeholders.yaml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    contract = tmp_path / "textcontract.yaml"
    contract.write_text("textcontract: 1\nid: c\ninclude: [packs/mine.yaml]\n", encoding="utf-8")
    assert load_contract(contract).check("Hi {{ name }}").accepted is False

    contract.write_text(
        "textcontract: 1\nid: c\ninclude: [packs/mine.yaml, builtin:placeholders]\n",
        encoding="utf-8",
    )
    with pytest.raises(ContractError) as caught:
        load_contract(contract)
    message = str(caught.value)
    assert "placeholders.double-braces" in message
    assert "mine.yaml" in message
    assert "builtin:placeholders" in message


def test_unknown_pack_is_a_contract_error_with_a_suggestion() -> None:
    with pytest.raises(ContractError) as caught:
        load_contract_text("textcontract: 1\nid: c\ninclude: [builtin:placeholder]\n")
    assert "did you mean 'placeholders'" in str(caught.value)
