"""Corpus loading: every input error of SPEC §6, with file and line, all reported at once."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.audit.audit_builders import (
    REFUND,
    REWORD,
    case_text,
    preserve,
    violation,
    write_corpus,
)
from textcontract.audit import load_corpus
from textcontract.errors import InputError


def problems(corpus: Path, **options: object) -> list[str]:
    with pytest.raises(InputError) as caught:
        load_corpus(corpus, display="corpus", **options)  # type: ignore[arg-type]
    return [problem.render() for problem in caught.value.problems]


def only(corpus: Path, **options: object) -> str:
    found = problems(corpus, **options)
    assert len(found) == 1, found
    return found[0]


def test_a_valid_corpus_loads(tmp_path: Path) -> None:
    corpus = write_corpus(
        tmp_path, {"c1.yaml": case_text(violation("v1", REFUND) + preserve("p1", REWORD))}
    )
    loaded = load_corpus(corpus)
    assert [case.id for case in loaded.cases] == ["c1"]
    assert [variant.id for variant in loaded.cases[0].variants] == ["v1", "p1"]
    assert loaded.contract.id == "mini"


@pytest.mark.parametrize("bad_id", ["-lead", "has space", "ünï", "a/b", "''"])
def test_case_id_outside_the_pattern(tmp_path: Path, bad_id: str) -> None:
    corpus = write_corpus(tmp_path, {"c1.yaml": case_text(preserve("p1", REWORD), bad_id)})
    message = only(corpus)
    assert message.startswith("corpus/c1.yaml:1:5: id: case id")
    assert "does not match [A-Za-z0-9][A-Za-z0-9_.-]*" in message


def test_variant_id_outside_the_pattern(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path, {"c1.yaml": case_text(preserve("_x", REWORD))})
    assert only(corpus).startswith("corpus/c1.yaml:10:9: variants[0].id: variant id '_x'")


def test_duplicate_case_ids_across_files(tmp_path: Path) -> None:
    corpus = write_corpus(
        tmp_path,
        {
            "a.yaml": case_text(preserve("p1", REWORD), "same"),
            "b.yaml": case_text(preserve("p1", REWORD), "same"),
        },
    )
    message = only(corpus)
    assert message.startswith("corpus/b.yaml:1:5")
    assert "duplicate case id 'same' (also in corpus/a.yaml)" in message


def test_duplicate_variant_ids(tmp_path: Path) -> None:
    corpus = write_corpus(
        tmp_path, {"c1.yaml": case_text(preserve("p1", REWORD) + preserve("p1", REWORD))}
    )
    message = only(corpus)
    assert message.startswith("corpus/c1.yaml:15:9: variants[1].id")
    assert "duplicate variant id 'p1'" in message


@pytest.mark.parametrize(
    ("expect", "missing"),
    [
        ("{rule: no-refund, code: NO_REFUND_PROMISE}", "scope"),
        ("{rule: no-refund, scope: 'surface:body'}", "code"),
        ("{code: NO_REFUND_PROMISE}", "rule, scope"),
    ],
)
def test_expectation_without_rule_code_or_scope(tmp_path: Path, expect: str, missing: str) -> None:
    corpus = write_corpus(tmp_path, {"c1.yaml": case_text(violation("v1", REFUND, expect))})
    assert problems(corpus) == [
        f"corpus/c1.yaml:14:14: variants[0].expect[0]: missing required key {key!r}"
        for key in missing.split(", ")
    ]


def test_unknown_rule_in_an_expectation(tmp_path: Path) -> None:
    expect = "{rule: no-refunds, code: NO_REFUND_PROMISE, scope: 'surface:body'}"
    corpus = write_corpus(tmp_path, {"c1.yaml": case_text(violation("v1", REFUND, expect))})
    message = only(corpus)
    assert message.startswith("corpus/c1.yaml:14:")
    assert "the contract has no rule 'no-refunds'" in message
    assert "--allow-missing-rules" in message
    load_corpus(corpus, allow_missing_rules=True)


@pytest.mark.parametrize("provenance", [None, "''", "'   '"])
def test_valid_label_needs_non_blank_provenance(tmp_path: Path, provenance: str | None) -> None:
    text = "- id: p1\n  relation: preserve\n  validity: valid\n"
    if provenance is not None:
        text += f"  provenance: {provenance}\n"
    text += f"  change: {REWORD}\n"
    corpus = write_corpus(tmp_path, {"c1.yaml": case_text(text)})
    message = only(corpus)
    assert message.startswith("corpus/c1.yaml:1")
    assert "a 'valid' label needs a non-blank provenance" in message


def test_unreviewed_and_equivalent_need_no_provenance(tmp_path: Path) -> None:
    text = (
        f"- {{id: p1, relation: preserve, change: {REWORD}}}\n"
        f"- {{id: p2, relation: preserve, validity: equivalent, change: {REWORD}}}\n"
    )
    corpus = write_corpus(tmp_path, {"c1.yaml": case_text(text)})
    assert len(load_corpus(corpus).cases[0].variants) == 2


@pytest.mark.parametrize("expect", [None, "[]"])
def test_violation_without_expectations(tmp_path: Path, expect: str | None) -> None:
    text = "- id: v1\n  relation: violation\n  validity: valid\n  provenance: test\n"
    if expect is not None:
        text += f"  expect: {expect}\n"
    text += f"  change: {REFUND}\n"
    corpus = write_corpus(tmp_path, {"c1.yaml": case_text(text)})
    message = only(corpus)
    assert message.startswith("corpus/c1.yaml:")
    assert "a violation needs" in message
    assert "expectation" in message


def test_preserve_with_expectations(tmp_path: Path) -> None:
    extra = "  expect: [{rule: status, code: REQUIRED_FACT, scope: 'state:current:order.status'}]\n"
    corpus = write_corpus(tmp_path, {"c1.yaml": case_text(preserve("p1", REWORD, extra))})
    message = only(corpus)
    assert message.startswith("corpus/c1.yaml:14:")
    assert "a preserve variant takes no expectations" in message


def test_canaries_are_violations_only(tmp_path: Path) -> None:
    corpus = write_corpus(
        tmp_path, {"c1.yaml": case_text(preserve("p1", REWORD, "  canary: true\n"))}
    )
    assert "only violations can be canaries" in only(corpus)


def test_both_change_and_trials(tmp_path: Path) -> None:
    text = preserve("p1", REWORD) + f"  trials: [{REWORD}]\n"
    corpus = write_corpus(tmp_path, {"c1.yaml": case_text(text)})
    message = only(corpus)
    assert message.startswith("corpus/c1.yaml:10:5: variants[0]")
    assert "either 'change' or 'trials', not both" in message


def test_neither_change_nor_trials(tmp_path: Path) -> None:
    text = "- {id: p1, relation: preserve, validity: valid, provenance: t}\n"
    corpus = write_corpus(tmp_path, {"c1.yaml": case_text(text)})
    assert "a variant needs 'change' (or 'trials')" in only(corpus)


def test_empty_trials(tmp_path: Path) -> None:
    text = "- {id: p1, relation: preserve, validity: valid, provenance: t, trials: []}\n"
    corpus = write_corpus(tmp_path, {"c1.yaml": case_text(text)})
    message = only(corpus)
    assert message.startswith("corpus/c1.yaml:10:")
    assert "trials must not be empty" in message


@pytest.mark.parametrize(
    ("trials", "expected"),
    [
        ("{replace: []}", "expected a list, got an object"),
        ("[3]", "expected a mapping, got an integer"),
        ("[{replace: [{find: x}]}]", "missing required key 'with'"),
        ("[{swap: []}]", "unknown key 'swap'"),
    ],
)
def test_malformed_trials(tmp_path: Path, trials: str, expected: str) -> None:
    text = f"- {{id: p1, relation: preserve, validity: valid, provenance: t, trials: {trials}}}\n"
    corpus = write_corpus(tmp_path, {"c1.yaml": case_text(text)})
    message = only(corpus)
    assert message.startswith("corpus/c1.yaml:10:")
    assert expected in message


def test_replace_that_finds_nothing(tmp_path: Path) -> None:
    change = "{replace: [{surface: body, find: 'parcel', with: 'box'}]}"
    corpus = write_corpus(tmp_path, {"c1.yaml": case_text(preserve("p1", change))})
    message = only(corpus)
    assert message.startswith("corpus/c1.yaml:14:")
    assert "replace finds nothing: 'parcel' does not occur on surface 'body'" in message


def test_replace_on_a_missing_surface(tmp_path: Path) -> None:
    change = "{replace: [{surface: subject, find: 'x', with: 'y'}]}"
    corpus = write_corpus(tmp_path, {"c1.yaml": case_text(preserve("p1", change))})
    assert "replace names surface 'subject', which the document lacks" in only(corpus)


@pytest.mark.parametrize(
    ("removal", "why"),
    [
        ("{current: [order.id]}", "the key is absent"),
        ("{after: [order.id]}", "snapshot is missing"),
    ],
)
def test_removal_of_an_absent_key(tmp_path: Path, removal: str, why: str) -> None:
    change = f"{{remove_context: {removal}}}"
    corpus = write_corpus(tmp_path, {"c1.yaml": case_text(preserve("p1", change))})
    message = only(corpus)
    assert message.startswith("corpus/c1.yaml:14:")
    assert "remove_context cannot remove 'order.id'" in message
    assert why in message


def test_claims_for_a_missing_surface(tmp_path: Path) -> None:
    change = "{claims: {subject: {order.id: 1}}}"
    corpus = write_corpus(tmp_path, {"c1.yaml": case_text(preserve("p1", change))})
    assert "claims given for surface 'subject', which the document lacks" in only(corpus)


def test_nested_facts_in_a_change(tmp_path: Path) -> None:
    change = "{context: {current: {order: {id: 1}}}}"
    corpus = write_corpus(tmp_path, {"c1.yaml": case_text(preserve("p1", change))})
    message = only(corpus)
    assert message.startswith("corpus/c1.yaml:14:")
    assert "nested values are not facts" in message


def test_path_outside_the_corpus_folder(tmp_path: Path) -> None:
    (tmp_path / "outside.md").write_text("Your order has shipped today.", encoding="utf-8")
    change = "{document: ../outside.md}"
    corpus = write_corpus(tmp_path, {"c1.yaml": case_text(preserve("p1", change))})
    message = only(corpus)
    assert message.startswith("corpus/c1.yaml:14:")
    assert "'../outside.md' resolves outside the corpus folder" in message


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_symlink_escaping_the_corpus_folder(tmp_path: Path) -> None:
    (tmp_path / "secret.json").write_text('{"order.status": "shipped"}', encoding="utf-8")
    text = case_text(preserve("p1", REWORD)).replace(
        "context: {order.status: shipped, order.total: 10}", "context: linked.json"
    )
    corpus = write_corpus(tmp_path, {"c1.yaml": text})
    (corpus / "linked.json").symlink_to(tmp_path / "secret.json")
    message = only(corpus)
    assert message.startswith("corpus/c1.yaml:8:12: baseline.context")
    assert "resolves outside the corpus folder" in message
    assert "symlinks followed" in message


def test_symlink_inside_the_corpus_folder_is_fine(tmp_path: Path) -> None:
    text = case_text(preserve("p1", REWORD)).replace(
        "context: {order.status: shipped, order.total: 10}", "context: linked.json"
    )
    corpus = write_corpus(
        tmp_path,
        {"c1.yaml": text},
        extra_files={"data/ctx.json": '{"order.status": "shipped", "order.total": 10}'},
    )
    (corpus / "linked.json").symlink_to(corpus / "data" / "ctx.json")
    assert load_corpus(corpus).cases[0].context.states["current"]["order.total"] == 10


def test_missing_document_file(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path, {"c1.yaml": case_text(preserve("p1", "{document: nope.md}"))})
    assert "'nope.md' does not exist" in only(corpus)


def test_invalid_document_file_names_its_own_file(tmp_path: Path) -> None:
    corpus = write_corpus(
        tmp_path,
        {"c1.yaml": case_text(preserve("p1", "{document: docs/bad.json}"))},
        extra_files={"docs/bad.json": '{"surfaces": {"body": 3}}'},
    )
    message = only(corpus)
    assert message.startswith("corpus/docs/bad.json: surfaces.body:")


def test_inline_document_problems_have_positions(tmp_path: Path) -> None:
    change = "{document: {surfaces: {Body: {text: x}}}}"
    corpus = write_corpus(tmp_path, {"c1.yaml": case_text(preserve("p1", change))})
    message = only(corpus)
    assert message.startswith("corpus/c1.yaml:14:")
    assert "surface name 'Body' does not match" in message


def test_unknown_keys_get_a_suggestion(tmp_path: Path) -> None:
    corpus = write_corpus(
        tmp_path, {"c1.yaml": case_text(preserve("p1", REWORD, "  provenanse: x\n"))}
    )
    found = problems(corpus)
    assert any("unknown key 'provenanse' (did you mean 'provenance'?)" in p for p in found)


def test_bad_enumerations(tmp_path: Path) -> None:
    text = (
        "- id: v1\n  relation: violaton\n  validity: valid\n  provenance: t\n"
        "  class: defects\n  severity: urgent\n"
        "  expect: [{rule: status, code: REQUIRED_FACT, scope: x}]\n"
        f"  change: {REFUND}\n"
    )
    corpus = write_corpus(tmp_path, {"c1.yaml": case_text(text)})
    found = problems(corpus)
    assert any("'violaton' is not one of violation, preserve" in p for p in found)
    assert any("'defects' is not one of defect, gameability, zero-action" in p for p in found)
    assert any("'urgent' is not one of low, medium, high, critical" in p for p in found)


def test_every_problem_of_every_file_is_reported_at_once(tmp_path: Path) -> None:
    corpus = write_corpus(
        tmp_path,
        {
            "a.yaml": case_text(preserve("p1", "{replace: [{find: zzz, with: y}]}"), "a"),
            "b.yaml": case_text(violation("v1", REFUND, "{rule: nope, code: X, scope: y}"), "b")
            + "  - {id: p2, relation: preserve, validity: valid, trials: []}\n",
        },
        audit="contract: ../contract.yaml\nthresholds: {detection: 2}\n",
    )
    found = problems(corpus)
    assert len(found) == 5, found
    assert found[0].startswith("corpus/audit.yaml:2:25: thresholds.detection: must be in [0, 1]")
    assert any(p.startswith("corpus/b.yaml:14:") and "no rule 'nope'" in p for p in found)
    assert any(p.startswith("corpus/b.yaml:16:") and "provenance" in p for p in found)
    assert any(p.startswith("corpus/b.yaml:16:") and "trials must not be empty" in p for p in found)
    assert any(p.startswith("corpus/a.yaml:14:") and "finds nothing" in p for p in found)


def test_excluded_variants_are_validated_too(tmp_path: Path) -> None:
    text = "- {id: p1, relation: preserve, change: {replace: [{find: zzz, with: y}]}}\n"
    corpus = write_corpus(tmp_path, {"c1.yaml": case_text(text)})
    assert "finds nothing" in only(corpus)


def test_audit_yaml_is_required(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path, {"c1.yaml": case_text(preserve("p1", REWORD))})
    (corpus / "audit.yaml").unlink()
    assert "corpus/audit.yaml: audit.yaml is required" in problems(corpus)[0]


def test_audit_yaml_policy_and_thresholds_are_validated(tmp_path: Path) -> None:
    corpus = write_corpus(
        tmp_path,
        {"c1.yaml": case_text(preserve("p1", REWORD))},
        audit=(
            "contract: ../contract.yaml\n"
            "policy: {catch_threshold: 1.5, severty_floor: high}\n"
            "thresholds: {detection: x}\n"
            "treshold: 1\n"
        ),
    )
    found = problems(corpus)
    assert any(p.startswith("corpus/audit.yaml:2:") and "catch_threshold" in p for p in found)
    assert any("severty_floor" in p for p in found)
    assert any(p.startswith("corpus/audit.yaml:3:") and "thresholds.detection" in p for p in found)
    assert any(p.startswith("corpus/audit.yaml:4:1") and "'treshold'" in p for p in found)


def test_contract_errors_are_reported_with_the_corpus_errors(tmp_path: Path) -> None:
    corpus = write_corpus(
        tmp_path,
        {"c1.yaml": case_text(preserve("p1", "{replace: [{find: zzz, with: y}]}"))},
        contract="textcontract: 1\nid: mini\nrules:\n  - {id: a, type: RequiredFakt, key: k}\n",
    )
    found = problems(corpus)
    assert any(p.startswith("contract.yaml:4:") and "RequiredFakt" in p for p in found), found
    assert any("finds nothing" in p for p in found)


def test_contract_option_overrides_audit_yaml(tmp_path: Path) -> None:
    corpus = write_corpus(
        tmp_path,
        {"c1.yaml": case_text(preserve("p1", REWORD))},
        audit="contract: missing.yaml\n",
    )
    assert load_corpus(corpus, contract=tmp_path / "contract.yaml").contract.id == "mini"


def test_contract_file_inside_the_folder_is_not_a_case(tmp_path: Path) -> None:
    corpus = write_corpus(
        tmp_path, {"c1.yaml": case_text(preserve("p1", REWORD))}, audit="contract: contract.yaml\n"
    )
    (corpus / "contract.yaml").write_text((tmp_path / "contract.yaml").read_text("utf-8"), "utf-8")
    assert [case.id for case in load_corpus(corpus).cases] == ["c1"]


def test_cases_in_sub_folders_are_found(tmp_path: Path) -> None:
    corpus = write_corpus(
        tmp_path,
        {
            "z.yaml": case_text(preserve("p1", REWORD), "zeta"),
            "sub/a.yaml": case_text(preserve("p1", REWORD), "alpha"),
        },
    )
    assert [case.id for case in load_corpus(corpus).cases] == ["alpha", "zeta"]


def test_a_case_file_linking_outside_the_folder(tmp_path: Path) -> None:
    (tmp_path / "elsewhere.yaml").write_text(case_text(preserve("p1", REWORD)), encoding="utf-8")
    corpus = write_corpus(tmp_path, {})
    (corpus / "linked.yaml").symlink_to(tmp_path / "elsewhere.yaml")
    assert only(corpus) == (
        "corpus/linked.yaml: the case file resolves outside the corpus folder (symlinks followed)"
    )
