"""Running audits: eligibility, outcomes and reasons, figures, strength, verdict, digests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.audit.audit_builders import (
    CONTRACT,
    REFUND,
    REWORD,
    SHIPPED,
    audit_of,
    case_text,
    preserve,
    registry_with_exploding,
    variant_row,
    violation,
    write_corpus,
)
from textcontract.audit import (
    Thresholds,
    audit_directory,
    baseline_digest,
    load_corpus,
    run_audit,
    wilson_interval,
)
from textcontract.audit.running import _evaluation as evaluation_module
from textcontract.canonical import digest
from textcontract.errors import ExitCode
from textcontract.model import Context, Document

STATUS = "{rule: status, code: REQUIRED_FACT, scope: 'state:current:order.status'}"
CLAIMS = "{rule: claims, code: CLAIM_STATE_MISMATCH, scope: 'surface:body'}"
PENDING = "{context: {current: {order.status: pending}}}"
NOTHING = "{replace: [{find: today, with: tomorrow}]}"


def run(tmp_path: Path, variants: str, **options: Any) -> dict[str, Any]:
    corpus = write_corpus(tmp_path, {"c1.yaml": case_text(variants)})
    report: dict[str, Any] = audit_of(corpus, **options).report
    return report


def test_report_keys_follow_the_spec(tmp_path: Path) -> None:
    report = run(tmp_path, violation("v1", REFUND) + preserve("p1", REWORD))
    assert list(report) == [
        "audit_version",
        "engine",
        "mode",
        "contract",
        "corpus",
        "preflight",
        "policy",
        "evaluator_recommendation",
        "detection",
        "preservation",
        "canaries",
        "strength",
        "verdict",
        "coverage_gaps",
        "waivers",
        "source_revision",
        "families",
        "variants",
        "excluded",
    ]
    assert report["audit_version"] == 2
    assert (report["mode"], report["evaluator_recommendation"]) == ("contract-scoring", None)
    assert (report["waivers"], report["source_revision"]) == (None, None)
    assert list(report["preflight"]) == ["passed", "digest"]
    assert list(report["detection"]) == ["detected", "eligible", "score", "interval95"]
    assert list(report["preservation"]) == ["preserved", "eligible", "rate", "interval95"]
    assert list(report["strength"])[-4:] == [
        "comparability_key",
        "scoring_version",
        "scoring_version_inputs",
        "probes",
    ]
    assert list(report["variants"][0]) == [
        "case",
        "variant",
        "relation",
        "class",
        "family",
        "severity",
        "canary",
        "exposure",
        "outcome",
        "reason",
        "expected",
    ]
    assert report["contract"] == {
        "id": "mini",
        "version": 2,
        "digest": report["contract"]["digest"],
        "lineage": None,
    }
    assert report["policy"]["digest"].startswith("sha256:")


def test_detected_fault(tmp_path: Path) -> None:
    report = run(tmp_path, violation("v1", REFUND))
    row = report["variants"][0]
    assert (row["outcome"], row["reason"]) == ("detected", None)
    assert row["expected"] == [
        {
            "rule": "no-refund",
            "code": "NO_REFUND_PROMISE",
            "scope": "surface:body",
            "status": "violated",
        }
    ]
    assert report["detection"]["detected"] == 1
    assert report["detection"]["score"] == 1.0


def test_unrelated_rejection_is_not_a_detection(tmp_path: Path) -> None:
    report = run(tmp_path, violation("v1", PENDING))
    row = report["variants"][0]
    assert (row["outcome"], row["reason"]) == ("undetected", "unrelated-rejection")
    assert row["expected"][0]["status"] == "satisfied"
    assert report["detection"] == {
        "detected": 0,
        "eligible": 1,
        "score": 0.0,
        "interval95": report["detection"]["interval95"],
    }


def test_an_accepted_fault_is_undetected_with_reason_accepted(tmp_path: Path) -> None:
    row = run(tmp_path, violation("v1", NOTHING))["variants"][0]
    assert (row["outcome"], row["reason"]) == ("undetected", "accepted")


def test_a_rule_exception_stays_in_the_denominator_as_error(tmp_path: Path) -> None:
    contract = CONTRACT + "  - {id: boom, type: Exploding}\n"
    expect = "{rule: boom, code: NO_EXPLOSION, scope: 'surface:body'}"
    change = "{replace: [{find: today, with: today (explode)}]}"
    corpus = write_corpus(
        tmp_path,
        {"c1.yaml": case_text(violation("v1", change, expect) + violation("v2", REFUND))},
        contract=contract,
    )
    result = audit_of(corpus, registry=registry_with_exploding())
    row = variant_row(result, "v1")
    assert (row["outcome"], row["reason"]) == ("undetected", "error")
    # RULE_ERROR checks have scope $, so at the expected scope the rule has no check
    assert row["expected"][0]["status"] == "absent"
    assert result.report["detection"]["eligible"] == 2
    assert result.report["detection"]["detected"] == 1
    probe = next(p for p in result.report["strength"]["probes"] if p["probe_id"] == "c1/v1")
    assert probe["outcomes"][0]["state"] == "oracle-error"
    assert probe["reduced"]["invalidated_attempts"] == [{"attempt": 0, "reason": "oracle-error"}]
    assert "invalidated-trial-below-floor" in result.report["verdict"]["reasons"]


def test_a_rule_error_at_the_expected_scope_is_status_error(tmp_path: Path) -> None:
    contract = CONTRACT + "  - {id: boom, type: Exploding}\n"
    expect = "{rule: boom, code: NO_EXPLOSION, scope: '$'}"
    change = "{replace: [{find: today, with: today (explode)}]}"
    corpus = write_corpus(
        tmp_path, {"c1.yaml": case_text(violation("v1", change, expect))}, contract=contract
    )
    row = variant_row(audit_of(corpus, registry=registry_with_exploding()), "v1")
    assert (row["reason"], row["expected"][0]["status"]) == ("error", "error")


def test_wrong_scope_is_undetected_not_applicable(tmp_path: Path) -> None:
    expect = "{rule: no-refund, code: NO_REFUND_PROMISE, scope: 'surface:subject'}"
    row = run(tmp_path, violation("v1", REFUND, expect))["variants"][0]
    assert (row["outcome"], row["reason"]) == ("undetected", "not-applicable")
    assert row["expected"][0]["status"] == "absent"


def test_undetermined_expectation_is_unreached(tmp_path: Path) -> None:
    change = "{document: {surfaces: {body: 'Your order has shipped today, on its way to you.'}}}"
    report = run(tmp_path, violation("v1", change, CLAIMS))
    row = report["variants"][0]
    assert (row["outcome"], row["reason"]) == ("undetected", "undetermined")
    assert row["expected"][0]["status"] == "undetermined"
    oracle = "claims:CLAIM_STATE_MISMATCH:surface:body"
    assert report["strength"]["unreached_oracles"] == [oracle]
    assert report["strength"]["comparable"] is False
    assert report["verdict"]["reasons"][:2] == ["oracle-unreached", "unexercised-probe"]


def test_allow_missing_rules_makes_not_applicable(tmp_path: Path) -> None:
    expect = "{rule: retired-rule, code: OLD, scope: '$'}"
    corpus = write_corpus(tmp_path, {"c1.yaml": case_text(violation("v1", REFUND, expect))})
    result = audit_of(corpus, allow_missing_rules=True)
    row = variant_row(result, "v1")
    assert (row["outcome"], row["reason"], row["severity"]) == (
        "undetected",
        "not-applicable",
        "medium",
    )


def test_no_valid_variation_gives_null_preservation_and_fails_its_threshold(
    tmp_path: Path,
) -> None:
    corpus = write_corpus(
        tmp_path,
        {"c1.yaml": case_text(violation("v1", REFUND))},
        audit="contract: ../contract.yaml\nthresholds: {preservation: 0.0}\n",
    )
    result = audit_of(corpus)
    assert result.report["preservation"] == {
        "preserved": 0,
        "eligible": 0,
        "rate": None,
        "interval95": None,
    }
    [check] = result.thresholds
    assert (check.figure, check.value, check.met) == ("preservation", None, False)
    assert result.exit_code is ExitCode.FAILED


def test_no_fault_gives_null_detection(tmp_path: Path) -> None:
    report = run(tmp_path, preserve("p1", REWORD))
    assert report["detection"] == {"detected": 0, "eligible": 0, "score": None, "interval95": None}
    assert report["canaries"] == {"caught": 0, "total": 0}
    assert all(c["rate"] is None for c in report["strength"]["classes"].values())


def test_thresholds_from_audit_yaml_and_overrides(tmp_path: Path) -> None:
    corpus = write_corpus(
        tmp_path,
        {"c1.yaml": case_text(violation("v1", REFUND) + violation("v2", NOTHING))},
        audit="contract: ../contract.yaml\nthresholds: {detection: 0.5}\n",
    )
    assert audit_of(corpus).exit_code is ExitCode.OK
    loaded = load_corpus(corpus)
    stricter = run_audit(loaded, thresholds=loaded.thresholds.overridden(0.6, None))
    assert stricter.exit_code is ExitCode.FAILED
    assert run_audit(loaded, thresholds=Thresholds()).thresholds == ()


def test_exclusion_reasons_follow_the_spec_order(tmp_path: Path) -> None:
    invalid = case_text(
        f"- {{id: unreviewed, relation: preserve, change: {REWORD}}}\n"
        f"- {{id: equivalent, relation: preserve, validity: equivalent, change: {REWORD}}}\n"
        + preserve("valid-identical", "{}")
        + preserve("valid-changed", REWORD),
        "bad",
    ).replace("order.status: shipped", "order.status: pending")
    valid = case_text(
        "- {id: unreviewed-identical, relation: preserve, change: {}}\n"
        + preserve("valid-identical", "{context: {current: {order.total: 10}}}"),
        "good",
    )
    corpus = write_corpus(tmp_path, {"bad.yaml": invalid, "good.yaml": valid})
    report = audit_of(corpus).report
    assert report["excluded"] == [
        {"case": "bad", "variant": "unreviewed", "reason": "unreviewed"},
        {"case": "bad", "variant": "equivalent", "reason": "equivalent"},
        {"case": "bad", "variant": "valid-identical", "reason": "invalid-baseline"},
        {"case": "bad", "variant": "valid-changed", "reason": "invalid-baseline"},
        {"case": "good", "variant": "unreviewed-identical", "reason": "unreviewed"},
        {"case": "good", "variant": "valid-identical", "reason": "identical"},
    ]
    assert report["variants"] == []
    assert report["families"] == {"unlabelled": {"excluded": 6}}
    assert report["strength"]["probes"] == []


def test_canaries_are_reported_apart(tmp_path: Path) -> None:
    report = run(
        tmp_path,
        violation("v1", NOTHING)
        + violation("canary", PENDING, STATUS, extra="  canary: true\n")
        + preserve("p1", REWORD),
    )
    assert report["canaries"] == {"caught": 1, "total": 1}
    assert report["detection"]["eligible"] == 1
    assert variant_row_json(report, "canary")["outcome"] == "detected"
    probes = {p["probe_id"]: p for p in report["strength"]["probes"]}
    assert probes["c1/canary"]["canary"] is True
    assert probes["c1/p1"]["clean_control"] is True
    assert probes["c1/p1"]["outcomes"][0]["oracle"] == "clean-control"
    assert report["strength"]["classes"]["defect"]["eligible"] == 1


def test_a_missed_canary_fails_the_verdict(tmp_path: Path) -> None:
    report = run(tmp_path, violation("canary", NOTHING, STATUS, extra="  canary: true\n"))
    assert report["canaries"] == {"caught": 0, "total": 1}
    assert report["verdict"]["value"] == "FAIL"
    assert report["verdict"]["reasons"][0] == "canary-missed"


def variant_row_json(report: dict[str, Any], variant: str) -> dict[str, Any]:
    found: dict[str, Any] = next(r for r in report["variants"] if r["variant"] == variant)
    return found


def test_preservation_needs_a_strict_majority_of_clean_trials(tmp_path: Path) -> None:
    bad = "{context: {current: {order.status: pending}}}"
    text = (
        "- id: two-of-three\n  relation: preserve\n  validity: valid\n  provenance: t\n"
        f"  trials: [{REWORD}, {bad}, {NOTHING}]\n"
        "- id: one-of-two\n  relation: preserve\n  validity: valid\n  provenance: t\n"
        f"  trials: [{REWORD}, {bad}]\n"
        "- id: incomplete\n  relation: preserve\n  validity: valid\n  provenance: t\n"
        "  change: {remove_context: {current: [order.total]}}\n"
    )
    report = run(tmp_path, text)
    assert variant_row_json(report, "two-of-three")["outcome"] == "preserved"
    one = variant_row_json(report, "one-of-two")
    assert (one["outcome"], one["reason"]) == ("not-preserved", "rejected")
    incomplete = variant_row_json(report, "incomplete")
    assert (incomplete["outcome"], incomplete["reason"]) == ("not-preserved", "rejected")
    assert report["preservation"]["preserved"] == 1
    assert "clean-control-rejected" in report["verdict"]["reasons"]


def test_incomplete_but_accepted_is_not_preserved(tmp_path: Path) -> None:
    contract = CONTRACT.replace("rules:", "policy: {block_undetermined: false}\nrules:")
    corpus = write_corpus(
        tmp_path,
        {"c1.yaml": case_text(preserve("p1", "{remove_context: {current: [order.total]}}"))},
        contract=contract,
    )
    row = variant_row(audit_of(corpus), "p1")
    assert (row["outcome"], row["reason"]) == ("not-preserved", "incomplete")


def test_violation_trials_are_reduced_strictly(tmp_path: Path) -> None:
    text = (
        "- id: two-of-three\n  relation: violation\n  validity: valid\n  provenance: t\n"
        "  expect: [{rule: no-refund, code: NO_REFUND_PROMISE, scope: 'surface:body'}]\n"
        f"  trials: [{REFUND}, {NOTHING}, {REFUND}]\n"
        "- id: one-of-two\n  relation: violation\n  validity: valid\n  provenance: t\n"
        "  expect: [{rule: no-refund, code: NO_REFUND_PROMISE, scope: 'surface:body'}]\n"
        f"  trials: [{REFUND}, {PENDING}]\n"
    )
    report = run(tmp_path, text)
    two = variant_row_json(report, "two-of-three")
    assert (two["outcome"], two["reason"], two["expected"][0]["status"]) == (
        "detected",
        None,
        "violated",
    )
    one = variant_row_json(report, "one-of-two")
    assert (one["outcome"], one["reason"]) == ("undetected", "unrelated-rejection")
    assert one["expected"][0]["status"] == "satisfied"
    probe = next(p for p in report["strength"]["probes"] if p["probe_id"] == "c1/one-of-two")
    assert probe["reduced"]["caught_count"] == 1
    assert probe["reduced"]["valid_count"] == 2
    assert probe["trials_completed"] == 2


def test_catch_threshold_one_never_detects(tmp_path: Path) -> None:
    corpus = write_corpus(
        tmp_path,
        {"c1.yaml": case_text(violation("v1", REFUND))},
        audit="contract: ../contract.yaml\npolicy: {catch_threshold: 1}\n",
    )
    row = variant_row(audit_of(corpus), "v1")
    assert (row["outcome"], row["reason"]) == ("undetected", "below-catch-threshold")


def test_families_count_every_variant(tmp_path: Path) -> None:
    text = (
        violation("a", REFUND, extra="  family: refund\n")
        + violation("b", NOTHING, extra="  family: refund\n")
        + preserve("c", REWORD, extra="  family: wording\n")
        + f"- {{id: d, relation: preserve, family: wording, change: {REWORD}}}\n"
        + violation("e", REFUND)
    )
    assert run(tmp_path, text)["families"] == {
        "refund": {"detected": 1, "undetected": 1},
        "unlabelled": {"detected": 1},
        "wording": {"preserved": 1, "excluded": 1},
    }


def test_coverage_gaps_and_severity(tmp_path: Path) -> None:
    text = violation("v1", REFUND) + violation("c", PENDING, STATUS, extra="  canary: true\n")
    report = run(tmp_path, text)
    assert report["coverage_gaps"] == [
        {"rule": "status", "severity": "high"},
        {"rule": "claims", "severity": "critical"},
        {"rule": "length", "severity": "low"},
    ]
    assert "coverage-gap-at-or-above-floor" in report["verdict"]["reasons"]
    assert report["verdict"]["value"] == "CONCERNS"
    assert variant_row_json(report, "v1")["severity"] == "medium"


def test_severity_is_the_highest_expected_rule_unless_declared(tmp_path: Path) -> None:
    both = f"{STATUS}, {CLAIMS}"
    text = violation("auto", PENDING, both) + violation(
        "declared", PENDING, both, extra="  severity: low\n"
    )
    report = run(tmp_path, text)
    assert variant_row_json(report, "auto")["severity"] == "critical"
    assert variant_row_json(report, "declared")["severity"] == "low"


def test_a_low_severity_miss_concerns_a_high_one_fails(tmp_path: Path) -> None:
    low = run(tmp_path / "low", violation("v1", NOTHING, extra="  severity: low\n"))
    assert "behavioural-failure-below-floor" in low["verdict"]["reasons"]
    high = run(tmp_path / "high", violation("v1", NOTHING, extra="  severity: high\n"))
    assert high["verdict"]["value"] == "FAIL"
    assert "behavioural-failure-at-or-above-floor" in high["verdict"]["reasons"]


def test_wilson_interval() -> None:
    low, high = wilson_interval(18, 23) or (0.0, 0.0)
    assert low == pytest.approx(0.5810, abs=1e-4)
    assert high == pytest.approx(0.9034, abs=1e-4)
    assert wilson_interval(0, 0) is None
    full = wilson_interval(5, 5)
    assert full is not None
    assert full[0] == pytest.approx(0.5655, abs=1e-4)
    assert full[1] == 1.0


def test_digests_are_defined_as_the_spec_says(tmp_path: Path) -> None:
    corpus_dir = write_corpus(
        tmp_path,
        {
            "a.yaml": case_text(preserve("p1", REWORD), "a"),
            "b.yaml": case_text(preserve("p1", REWORD), "b").replace(
                "on its way to you.", "on its way to you now."
            ),
        },
    )
    corpus = load_corpus(corpus_dir)
    document = Document.from_json(
        {
            "surfaces": {
                "body": {
                    "text": "Your order has shipped today and is on its way to you.",
                    "claims": {"order.total": 10},
                }
            }
        }
    )
    context = Context.from_json({"order.status": "shipped", "order.total": 10})
    assert corpus.cases[0].baseline_digest == digest(
        {"document": document.to_json(), "context": context.to_json()}
    )
    assert corpus.cases[0].baseline_digest == baseline_digest(document, context)
    assert corpus.fixture_digest == digest(sorted(case.baseline_digest for case in corpus.cases))
    report = run_audit(corpus).report
    assert report["corpus"] == {"digest": corpus.digest, "fixture_digest": corpus.fixture_digest}
    inputs = report["strength"]["scoring_version_inputs"]
    assert inputs == {
        "contract_format_version": 1,
        "corpus_digest": corpus.digest,
        "fixture_digest": corpus.fixture_digest,
        "evaluator_configuration_digest": corpus.contract.digest,
        "scoring_policy_digest": report["policy"]["digest"],
        "mode": "contract-scoring",
    }
    assert report["strength"]["scoring_version"] == digest(inputs)
    assert report["strength"]["comparability_key"] == digest(
        {"policy": report["policy"]["digest"], "probes": ["a/p1", "b/p1"]}
    )


def test_corpus_digest_covers_labels_and_trials_not_descriptions(tmp_path: Path) -> None:
    def corpus_digest(variants: str) -> str:
        folder = tmp_path / str(abs(hash(variants)))
        return load_corpus(write_corpus(folder, {"c1.yaml": case_text(variants)})).digest

    base = corpus_digest(preserve("p1", REWORD))
    assert corpus_digest(preserve("p1", REWORD)) == base
    assert corpus_digest(preserve("p1", REWORD, "  description: notes\n")) == base
    assert corpus_digest(preserve("p1", REWORD, "  family: wording\n")) != base
    assert corpus_digest(preserve("p1", NOTHING)) != base


def test_markdown_and_json_baselines_share_a_digest(tmp_path: Path) -> None:
    head = "id: {id}\nbaseline:\n  document: {doc}\n  context: ctx.json\nvariants: []\n"
    corpus = write_corpus(
        tmp_path,
        {
            "md.yaml": head.format(id="md", doc="doc.md"),
            "js.yaml": head.format(id="js", doc="doc.json"),
        },
        extra_files={
            "doc.md": "---\nclaims: {body: {a: 1}}\n---\nHello.",
            "doc.json": '{"surfaces": {"body": {"text": "Hello.", "claims": {"a": 1},'
            ' "format": "markdown"}}}',
            "ctx.json": '{"a": 1}',
        },
    )
    cases = load_corpus(corpus).cases
    assert cases[0].baseline_digest == cases[1].baseline_digest


def test_two_runs_are_byte_identical() -> None:
    first = json.dumps(audit_directory(SHIPPED).report)
    second = json.dumps(audit_directory(SHIPPED).report)
    assert first == second


def test_jobs_2_equals_jobs_1() -> None:
    assert json.dumps(audit_directory(SHIPPED, jobs=2).report) == json.dumps(
        audit_directory(SHIPPED, jobs=1).report
    )


def test_an_exception_outside_rules_is_an_infrastructure_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    check_trial = evaluation_module.check_trial

    def fragile(
        definition: Any, document: Document, context: Context, memo: Any, shared: Any = None
    ) -> Any:
        body = document.surface("body")
        if body is not None and "crash" in body.text:
            raise MemoryError("the evaluator fell over")
        return check_trial(definition, document, context, memo, shared)

    monkeypatch.setattr(evaluation_module, "check_trial", fragile)
    crash = "{replace: [{find: today, with: crash}]}"
    text = (
        "- id: v1\n  relation: violation\n  validity: valid\n  provenance: t\n"
        "  expect: [{rule: no-refund, code: NO_REFUND_PROMISE, scope: 'surface:body'}]\n"
        f"  trials: [{crash}, {REFUND}, {REFUND}]\n"
        + preserve("p1", crash)
        + violation("v2", REFUND)
    )
    report = run(tmp_path, text)
    v1 = variant_row_json(report, "v1")
    assert v1["outcome"] == "detected"
    probe = next(p for p in report["strength"]["probes"] if p["probe_id"] == "c1/v1")
    assert [o["state"] for o in probe["outcomes"]] == ["infrastructure-error", "caught", "caught"]
    p1 = variant_row_json(report, "p1")
    assert (p1["outcome"], p1["reason"]) == ("not-preserved", "infrastructure-error")
    assert variant_row_json(report, "v2")["outcome"] == "detected"
    assert "invalidated-trial-below-floor" in report["verdict"]["reasons"]


def test_an_infrastructure_error_as_first_failure_is_the_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    check_trial = evaluation_module.check_trial

    def broken(
        definition: Any, document: Document, context: Context, memo: Any, shared: Any = None
    ) -> Any:
        body = document.surface("body")
        if body is not None and "crash" in body.text:
            raise OSError("disk gone")
        return check_trial(definition, document, context, memo, shared)

    monkeypatch.setattr(evaluation_module, "check_trial", broken)
    row = run(tmp_path, violation("v1", "{replace: [{find: today, with: crash}]}"))["variants"][0]
    assert (row["outcome"], row["reason"]) == ("undetected", "infrastructure-error")
    assert row["expected"][0]["status"] == "absent"


def test_artifacts_and_records_reproduce_the_probes(tmp_path: Path) -> None:
    corpus = write_corpus(
        tmp_path, {"c1.yaml": case_text(violation("v1", REFUND) + preserve("p1", REWORD))}
    )
    result = audit_of(corpus)
    artifacts = dict(result.artifacts())
    assert sorted(artifacts) == ["c1/p1.json", "c1/v1.json"]
    assert (
        artifacts["c1/v1.json"]["scoring_version"] == result.report["strength"]["scoring_version"]
    )
    assert artifacts["c1/v1.json"]["outcomes"] == [
        {
            "trial_index": 0,
            "oracle": "no-refund:NO_REFUND_PROMISE:surface:body",
            "state": "caught",
            "waiver": None,
        }
    ]
    records = dict(result.records())
    assert sorted(records) == ["c1/p1/trial-0.json", "c1/v1/trial-0.json"]
    record = records["c1/v1/trial-0.json"]
    assert record["run_id"] == f"{result.report['strength']['scoring_version']}/c1/v1"
    assert record["evaluator_recommendation"] is None


def test_the_report_and_artifacts_recompute_and_records_rescore(tmp_path: Path) -> None:
    from textcontract.model import Severity
    from textcontract.strength import (
        Probe,
        ProbeClass,
        ScoringPolicy,
        contradictions,
        parse_artifact,
        parse_audit_strength,
        parse_record,
        score_records,
    )

    text = (
        violation("v1", REFUND)
        + violation("v2", NOTHING)
        + preserve("p1", REWORD)
        + "- id: t\n  relation: violation\n  validity: valid\n  provenance: t\n"
        "  expect: [{rule: no-refund, code: NO_REFUND_PROMISE, scope: 'surface:body'}]\n"
        f"  trials: [{REFUND}, {NOTHING}, {REFUND}]\n"
    )
    corpus = write_corpus(tmp_path, {"c1.yaml": case_text(text)})
    result = audit_of(corpus)
    report = json.loads(json.dumps(result.report))
    assert contradictions(parse_audit_strength(report, "report.json")) == []
    artifacts = dict(result.artifacts())
    for name, artifact in artifacts.items():
        assert parse_artifact(json.loads(json.dumps(artifact)), name).contradictions() == []
    records = [
        parse_record(record, name) for name, record in result.records() if name.startswith("c1/t/")
    ]
    rescored = score_records(
        records,
        Probe("c1/t", ProbeClass.DEFECT, Severity.MEDIUM),
        ScoringPolicy(),
        report["corpus"]["digest"],
        report["corpus"]["fixture_digest"],
    )
    original = artifacts["c1/t.json"]
    for key in ("outcomes", "reduced_probe_outcomes", "strength", "scoring_version_inputs"):
        assert rescored[key] == original[key], key
