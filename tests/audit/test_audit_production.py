"""Modes, the shipped production corpus, an INVALID audit, and ``score`` reproducing an audit."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from tests.audit.audit_builders import REFUND, case_text, violation, write_corpus
from tests.audit.run_builders import audit_cli, cli, full_case, read_tree
from textcontract.audit import audit_directory
from textcontract.strength import parse_artifact

REPO = Path(__file__).resolve().parents[2]
PRODUCTION = REPO / "fixtures" / "production"

INCOMPLETE_CONTRACT = """\
textcontract: 1
id: mini
rules:
  - {id: status, type: RequiredFact, key: order.status, equals: shipped, severity: high}
  - id: no-refund
    type: ForbiddenPattern
    code: NO_REFUND_PROMISE
    surfaces: [body]
    patterns: ['money back']
  - {id: carrier, type: RequiredFact, key: order.carrier, enforcement: advisory, severity: low}
"""
"""``carrier`` is advisory and its fact absent: baselines are accepted but not complete."""


def test_recommendation_concerns_when_a_baseline_is_accepted_but_incomplete(tmp_path: Path) -> None:
    corpus = write_corpus(
        tmp_path,
        {"c1.yaml": case_text(violation("v1", REFUND))},
        audit="contract: ../contract.yaml\nmode: production\n",
        contract=INCOMPLETE_CONTRACT,
    )
    report = audit_directory(corpus).report
    assert report["evaluator_recommendation"] == "CONCERNS"
    assert "evaluator-recommendation-concerns" in report["verdict"]["reasons"]
    # every variant of an incomplete baseline is excluded, as in contract-scoring
    assert report["excluded"] == [{"case": "c1", "variant": "v1", "reason": "invalid-baseline"}]


def test_mode_from_audit_yaml_and_the_flag_changes_the_scoring_version_only(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path, {"c1.yaml": full_case()})
    scoring = audit_directory(corpus)
    production = audit_directory(corpus, mode="production")
    a, b = scoring.report, production.report
    assert (a["mode"], b["mode"]) == ("contract-scoring", "production")
    assert (a["evaluator_recommendation"], b["evaluator_recommendation"]) == (None, "PASS")
    assert a["strength"]["scoring_version"] != b["strength"]["scoring_version"]
    for key in ("comparability_key", "classes"):
        assert a["strength"][key] == b["strength"][key]
    assert a["corpus"] == b["corpus"]
    assert a["contract"]["digest"] == b["contract"]["digest"]
    artifact = dict(production.artifacts())["c1/v-refund.json"]
    assert (artifact["mode"], artifact["evaluator_recommendation"]) == ("production", "PASS")
    assert {r["evaluator_recommendation"] for _, r in production.records()} == {"PASS"}
    assert {r["evaluator_recommendation"] for _, r in scoring.records()} == {None}


def test_the_shipped_production_corpus_is_waived_then_expired() -> None:
    waived = audit_directory(PRODUCTION, as_of=date(2026, 11, 30))
    report = waived.report
    assert report["mode"] == "production"
    assert report["evaluator_recommendation"] == "PASS"
    assert report["verdict"] == {"value": "WAIVED", "reasons": ["waiver-honoured"]}
    assert report["waivers"]["declared"][0]["trials"] == [
        "order-3001/refund-reoffer#0",
        "order-3001/refund-reoffer#1",
    ]
    assert report["policy"]["re_execution_cap"] == 1
    exposure = {row["variant"]: row["exposure"] for row in report["variants"]}
    assert exposure["foreign-help-link"] == "held-out"
    assert waived.exit_code == 0
    expired = audit_directory(PRODUCTION, as_of=date(2027, 1, 1)).report
    assert expired["verdict"] == {
        "value": "CONCERNS",
        "reasons": ["behavioural-failure-below-floor"],
    }
    assert expired["waivers"]["declared"][0]["status"] == "expired"


def test_score_reproduces_every_artifact_of_a_production_audit_with_waivers(
    tmp_path: Path,
) -> None:
    """SPEC §17.9: ``audit --records`` then ``score`` with the same policy, digests,
    ``--preflight-verdict``, ``--waivers`` and ``--as-of`` reproduces each artifact except
    ``attested_inputs`` and ``source_revision``."""
    out, rec, verdict = tmp_path / "out", tmp_path / "rec", tmp_path / "preflight.json"
    commit = "ab" * 20
    code, _, _ = audit_cli(
        str(PRODUCTION),
        "--as-of",
        "2026-11-30",
        "--artifacts",
        str(out),
        "--records",
        str(rec),
        "--source-revision",
        commit + "+clean",
    )
    assert code == 0
    assert cli("preflight", str(PRODUCTION), "--output", str(verdict))[0] == 0
    policy = tmp_path / "policy.yaml"
    policy.write_text(
        "catch_threshold: 0.5\nminimum_trial_count: 3\nseverity_floor: high\nre_execution_cap: 1\n",
        encoding="utf-8",
    )
    artifacts = read_tree(out)
    assert len(artifacts) == 5
    for name, artifact in artifacts.items():
        probe_id = name.removesuffix(".json")
        probe = tmp_path / "probes" / f"{probe_id}.json"
        probe.parent.mkdir(parents=True, exist_ok=True)
        probe.write_text(json.dumps(artifact["probe"]), encoding="utf-8")
        args = ["score", "--probe", str(probe), "--policy", str(policy)]
        args += ["--preflight-verdict", str(verdict), "--waivers", str(PRODUCTION / "audit.yaml")]
        args += ["--as-of", "2026-11-30"]
        for record in sorted((rec / probe_id).glob("trial-*.json")):
            args += ["--record", str(record)]
        code, rescored, err = cli(*args)
        assert code == 0, err
        different = {key for key in artifact if artifact[key] != rescored[key]}
        assert different == {"attested_inputs", "source_revision"}, name
        assert artifact["source_revision"] == {
            "commit": commit,
            "dirty": False,
            "basis": "attested",
        }
        assert rescored["source_revision"] is None
        assert rescored["preflight_digest"] == artifact["preflight_digest"]
        assert parse_artifact(rescored, name).contradictions() == []


def test_a_breached_cap_makes_the_audit_invalid_and_writes_no_artifact(tmp_path: Path) -> None:
    corpus = write_corpus(
        tmp_path,
        {"c1.yaml": case_text(violation("v1", "{document: {surfaces: {title: {text: x}}}}"))},
        audit="contract: ../contract.yaml\npolicy: {re_execution_cap: 0}\n",
    )
    result = audit_directory(corpus)
    (probe,) = result.report["strength"]["probes"]
    assert probe["outcomes"][0]["state"] == "oracle-error"
    assert result.verdict.to_json() == {
        "value": "INVALID",
        "reasons": ["re-execution-cap-exceeded"],
    }
    assert result.exit_code == 5
    assert list(result.artifacts()) == []
    assert list(result.records()) == []
    out, rec = tmp_path / "out", tmp_path / "rec"
    code, report, _ = audit_cli(
        str(corpus), "--format", "json", "--artifacts", str(out), "--records", str(rec)
    )
    assert code == 5
    assert report["verdict"]["value"] == "INVALID"
    assert report["detection"]["eligible"] == 1  # figures as computed
    assert not out.exists()
    assert not rec.exists()


@pytest.mark.parametrize("flag", ["--mode", "--source-revision"])
def test_bad_flags_are_input_errors_before_anything_runs(tmp_path: Path, flag: str) -> None:
    corpus = write_corpus(tmp_path, {"c1.yaml": full_case()})
    code, out, err = audit_cli(str(corpus), flag, "bogus")
    assert (code, out) == (2, "")
    assert flag in err


def test_workers_give_the_same_bytes_with_waivers_production_and_a_failed_preflight(
    tmp_path: Path,
) -> None:
    """Past 32 cases the first pass, the preflight's digest pass and the audit pass run in
    worker processes: waivers, plans and the recommendation travel with them."""
    from tests.audit.run_builders import ALSO_NOTHING, NOTHING, REFUND_CONTRACT, refund_case
    from textcontract.formats.json_text import dumps_pretty

    trials = f"[{NOTHING}, {ALSO_NOTHING}, {REFUND}]"
    cases = {
        f"order-{n:04}.yaml": refund_case(trials).replace("id: order-1002", f"id: order-{n:04}")
        for n in range(40)
    }
    waiver = (
        "waivers:\n  - {id: by-rule, rules: [no-refund-promise], reason: r, approved_by: a,"
        " expires: 2026-12-31}\n"
    )
    corpus = write_corpus(
        tmp_path,
        cases,
        audit="contract: ../contract.yaml\nmode: production\n" + waiver,
        contract=REFUND_CONTRACT,
    )
    one = audit_directory(corpus, as_of=date(2026, 6, 1), jobs=1)
    two = audit_directory(corpus, as_of=date(2026, 6, 1), jobs=2)
    assert dumps_pretty(one.report) == dumps_pretty(two.report)
    assert one.report["verdict"] == {"value": "WAIVED", "reasons": ["waiver-honoured"]}
    assert len(one.report["waivers"]["declared"][0]["trials"]) == 80
    assert dict(one.artifacts()) == dict(two.artifacts())
    code_1, out_1, _ = cli("preflight", str(corpus), "--jobs", "1")
    code_2, out_2, _ = cli("preflight", str(corpus), "--jobs", "2")
    assert (code_1, code_2) == (0, 0)
    assert out_1 == out_2
    assert out_1["corpus_digest"] == one.report["corpus"]["digest"]
