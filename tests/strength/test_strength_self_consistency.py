"""Version-2 artifacts that contradict themselves (SPEC §17.5, §17.12), and what ``score``
refuses (exit 2) or answers INVALID (exit 5) beside the worked examples."""

from __future__ import annotations

import copy
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from tests.strength.score_files import (
    P,
    preflight_verdict,
    record,
    score,
    write_json,
    write_policy,
    write_probe,
    write_records,
    write_waivers,
)
from tests.strength.strength_builders import (
    artifacts_of,
    audit_report,
    counted,
    policy,
    probe_trials,
    scored,
)
from textcontract.canonical import digest as canonical_digest
from textcontract.errors import InputError, RefusedArtifactSet
from textcontract.strength import (
    aggregate,
    compare,
    parse_artifact,
    parse_record,
    parse_waivers,
    score_records,
)
from textcontract.strength_files import read_policy_file, read_probe_file


def _artifact(**changes: Any) -> dict[str, Any]:
    ((_, artifact),) = artifacts_of([probe_trials("c/one", counted(caught=3))])
    changed: dict[str, Any] = copy.deepcopy(artifact)
    changed.update(changes)
    return changed


def test_an_invalid_verdict_contradicts_itself() -> None:
    bad = _artifact(verdict={"value": "INVALID", "reasons": ["re-execution-cap-exceeded"]})
    assert parse_artifact(bad, "a.json").contradictions()[0] == (
        "verdict.value is INVALID (an INVALID run mints no artifact)"
    )
    with pytest.raises(
        RefusedArtifactSet,
        match=r"a\.json: refused: the artifact contradicts itself: verdict\.value is INVALID",
    ):
        aggregate([("a.json", bad)], policy())
    good = _artifact()
    assert compare(("a.json", bad), ("b.json", good)) == {
        "relation": "incomparable",
        "reasons": ["integrity: a (verdict.value is INVALID (an INVALID run mints no artifact))"],
        "caveats": [],
    }


def test_a_breached_cap_contradicts_itself() -> None:
    trials = probe_trials("c/one", [counted(caught=1)[0], *counted(infrastructure_error=2)])
    ((_, artifact),) = artifacts_of([trials], policy(re_execution_cap=2))
    artifact["policy"]["re_execution_cap"] = 1
    found = parse_artifact(artifact, "a.json").contradictions()
    assert found[0] == "c/one has 2 invalidated attempts, more than its re_execution_cap 1"
    assert "policy digest does not recompute from the policy fields" in found


def test_waivers_and_as_of_must_agree_with_the_outcomes(tmp_path: Path) -> None:
    probe, policy_file = write_probe(tmp_path), write_policy(tmp_path)
    records = write_records(
        tmp_path, [record(i, "not-applicable", waiver="refund-wording-q4") for i in range(3)]
    )
    code, artifact, _ = score(
        records,
        probe,
        policy_file,
        "--waivers",
        str(write_waivers(tmp_path)),
        "--as-of",
        "2026-01-01",
    )
    assert code == 0
    assert parse_artifact(artifact, "a.json").contradictions() == []
    unlisted = copy.deepcopy(artifact)
    unlisted["waivers"] = []
    assert (
        "waivers does not list exactly the waivers the outcomes name"
        in parse_artifact(unlisted, "a.json").contradictions()
    )
    late = copy.deepcopy(artifact)
    late["as_of"] = "2027-02-01"
    assert (
        "waiver refund-wording-q4 had expired on the as_of date"
        in parse_artifact(late, "a.json").contradictions()
    )
    no_verdict = copy.deepcopy(artifact)
    no_verdict["verdict"] = {"value": "PASS", "reasons": []}
    assert (
        "verdict does not recompute from the outcomes and coverage gaps"
        in parse_artifact(no_verdict, "a.json").contradictions()
    )


def test_the_production_rungs_recompute(tmp_path: Path) -> None:
    records = write_records(
        tmp_path,
        [record(i, "caught", mode="production", recommendation="CONCERNS") for i in range(3)],
    )
    code, artifact, _ = score(records, write_probe(tmp_path), write_policy(tmp_path))
    assert (code, artifact["verdict"]["reasons"]) == (0, ["evaluator-recommendation-concerns"])
    flipped = copy.deepcopy(artifact)
    flipped["evaluator_recommendation"] = "PASS"
    assert parse_artifact(flipped, "a.json").contradictions() == [
        "verdict does not recompute from the outcomes and coverage gaps"
    ]
    flipped["evaluator_recommendation"] = "ship it"
    with pytest.raises(InputError, match="a production artifact needs one of PASS"):
        parse_artifact(flipped, "a.json")


def test_compare_names_the_lineage_of_two_audit_reports() -> None:
    result = scored([probe_trials("c/one", counted(caught=3))])
    parent = "sha256:" + "1" * 64
    a = audit_report(result, digest=parent)
    b = audit_report(
        result, digest="sha256:" + "2" * 64, lineage={"parent_digest": parent, "revision_count": 4}
    )
    assert (
        compare(("a.json", a), ("b.json", b))["reasons"][-1] == "lineage: b revises a (revision 4)"
    )
    assert (
        compare(("b.json", b), ("a.json", a))["reasons"][-1] == "lineage: a revises b (revision 4)"
    )
    assert not any(
        r.startswith("lineage") for r in compare(("a.json", a), ("c.json", a))["reasons"]
    )


def test_a_record_waiver_on_another_state_is_malformed() -> None:
    with pytest.raises(InputError, match="a waiver is allowed only with state not-applicable"):
        parse_record(record(0, "missed", waiver="w"), "trial-0.json")


def test_a_record_naming_a_waiver_needs_waivers(tmp_path: Path) -> None:
    records = write_records(tmp_path, [record(0, "not-applicable", waiver="refund-wording-q4")])
    code, out, err = score(records, write_probe(tmp_path), write_policy(tmp_path))
    assert (code, out) == (2, None)
    assert "the record names a waiver: pass the waivers with --waivers" in err


@pytest.mark.parametrize(
    ("waivers_probe", "waiver", "detail"),
    [
        (P, "other-waiver", "waiver 'other-waiver' is not declared in --waivers"),
        ("c/else", "refund-wording-q4", f"waiver 'refund-wording-q4' does not cover probe {P}"),
    ],
)
def test_unhonourable_waivers(tmp_path: Path, waivers_probe: str, waiver: str, detail: str) -> None:
    records = write_records(tmp_path, [record(0, "not-applicable", waiver=waiver)])
    waivers = write_waivers(tmp_path, probes=(waivers_probe,))
    code, invalid, _ = score(
        records,
        write_probe(tmp_path),
        write_policy(tmp_path),
        "--waivers",
        str(waivers),
        "--as-of",
        "2026-01-01",
    )
    assert code == 5
    assert invalid["verdict"]["reasons"] == ["unhonourable-waiver"]
    assert invalid["details"] == [f"{records[0]}: {detail}"]


def test_a_rules_scope_covers_the_probe_through_its_oracle(tmp_path: Path) -> None:
    waivers = parse_waivers(
        {
            "waivers": [
                {
                    "id": "w",
                    "rules": ["no-refund-promise"],
                    "reason": "r",
                    "approved_by": "a",
                    "expires": "2026-12-31",
                }
            ],
            "contract": "ignored.yaml",
        },
        "audit.yaml",
    )
    result = score_records(
        [
            parse_record(record(0, "not-applicable", waiver="w"), "t0.json"),
            parse_record(record(1, "caught"), "t1.json"),
            parse_record(record(2, "caught"), "t2.json"),
        ],
        read_probe_file(write_probe(tmp_path)),
        read_policy_file(write_policy(tmp_path)),
        waivers=waivers,
        as_of=date(2026, 12, 31),
    )
    assert result["verdict"]["value"] == "WAIVED"


def test_preflight_mismatches_are_each_listed(tmp_path: Path) -> None:
    probe, policy_file = write_probe(tmp_path), write_policy(tmp_path)
    records = write_records(tmp_path, [record(i, "caught") for i in range(3)])
    verdict = write_json(
        tmp_path / "v.json",
        preflight_verdict(policy_digest="sha256:" + "0" * 64, mode="production", probes=("c/x",)),
    )
    code, invalid, _ = score(records, probe, policy_file, "--preflight-verdict", str(verdict))
    assert (code, invalid["verdict"]["reasons"]) == (5, ["preflight-mismatch"])
    assert invalid["details"] == [
        f"{verdict}: policy_digest differs from the digest of --policy",
        f"{verdict}: mode differs from mode in {records[0]}",
        f"{verdict}: plan.probes does not list probe {P}",
    ]


def test_a_passing_preflight_supplies_the_digests_and_its_own(tmp_path: Path) -> None:
    probe, policy_file = write_probe(tmp_path), write_policy(tmp_path)
    records = write_records(tmp_path, [record(i, "caught") for i in range(3)])
    digest = read_policy_file(policy_file).digest
    given = preflight_verdict(policy_digest=digest)
    verdict = write_json(tmp_path / "v.json", given)
    code, artifact, _ = score(records, probe, policy_file, "--preflight-verdict", str(verdict))
    assert code == 0
    assert artifact["scoring_version_inputs"]["corpus_digest"] == given["corpus_digest"]
    assert artifact["scoring_version_inputs"]["fixture_digest"] == given["fixture_digest"]
    assert artifact["attested_inputs"] == [
        "corpus_digest",
        "evaluator_configuration_digest",
        "fixture_digest",
        "mode",
    ]
    assert artifact["preflight_digest"] == canonical_digest(given)
    code, out, err = score(
        records,
        probe,
        policy_file,
        "--preflight-verdict",
        str(verdict),
        "--corpus-digest",
        "sha256:other",
    )
    assert (code, out) == (2, None)
    assert "conflicts with corpus_digest" in err
    broken = write_json(tmp_path / "broken.json", {**given, "passed": "yes"})
    code, _, err = score(records, probe, policy_file, "--preflight-verdict", str(broken))
    assert code == 2
    assert "passed: expected true or false" in err


def test_score_records_an_attested_source_revision_and_refuses_auto(tmp_path: Path) -> None:
    probe, policy_file = write_probe(tmp_path), write_policy(tmp_path)
    records = write_records(tmp_path, [record(i, "caught") for i in range(3)])
    commit = "f" * 40
    code, artifact, _ = score(records, probe, policy_file, "--source-revision", f"{commit}+dirty")
    assert code == 0
    assert artifact["source_revision"] == {"commit": commit, "dirty": True, "basis": "attested"}
    plain = score(records, probe, policy_file)[1]
    assert {k for k in artifact if artifact[k] != plain[k]} == {"source_revision"}
    code, _, err = score(records, probe, policy_file, "--source-revision", "auto")
    assert code == 2
    assert "auto is only for audit" in err
    code, _, err = score(records, probe, policy_file, "--source-revision", "abc")
    assert code == 2
    assert "is not a source revision" in err


def test_waivers_file_errors_name_line_and_column(tmp_path: Path) -> None:
    bad = tmp_path / "w.yaml"
    bad.write_text(
        "waivers:\n  - id: w\n    probes: [x]\n    reason: r\n    expires: 31-12-2026\n", "utf-8"
    )
    records = write_records(tmp_path, [record(0, "caught")])
    code, _, err = score(
        records, write_probe(tmp_path), write_policy(tmp_path), "--waivers", str(bad)
    )
    assert code == 2
    assert f"{bad}:2:5: waivers[0]: missing required key 'approved_by'" in err
    assert f"{bad}:5:14: waivers[0].expires: '31-12-2026' is not a date (YYYY-MM-DD)" in err
