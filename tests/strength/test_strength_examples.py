"""SPEC §17.10's worked examples that ``score``, ``aggregate-strength`` and ``compare`` answer,
each through the CLI with its exit code (the audit's examples: tests/audit/test_audit_examples.py;
lineage: tests/test_lineage.py; source revision: tests/test_environment.py).

Policy unless stated: catch_threshold 0.5, minimum_trial_count 3, severity_floor high;
P = order-1002/refund-reoffer, class defect; records share every identity field.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.strength.score_files import (
    P,
    invoke,
    preflight_verdict,
    record,
    score,
    write_json,
    write_policy,
    write_probe,
    write_records,
    write_waivers,
)
from textcontract.strength_files import read_policy_file


def _three(folder: Path, states: list[str], **fields: Any) -> list[Path]:
    return write_records(folder, [record(i, s, **fields) for i, s in enumerate(states)])


def test_example_1_production_vs_contract_scoring(tmp_path: Path) -> None:
    probe, policy = write_probe(tmp_path), write_policy(tmp_path)
    production = _three(tmp_path / "prod", ["caught"] * 3, mode="production", recommendation="FAIL")
    code, artifact, _ = score(production, probe, policy)
    assert (code, artifact["verdict"]) == (
        1,
        {"value": "FAIL", "reasons": ["evaluator-recommendation-fail"]},
    )
    assert artifact["mode"] == "production"
    assert artifact["evaluator_recommendation"] == "FAIL"
    scoring = _three(
        tmp_path / "cs", ["caught"] * 3, mode="contract-scoring", recommendation="FAIL"
    )
    code, artifact, _ = score(scoring, probe, policy)
    assert (code, artifact["verdict"]) == (0, {"value": "PASS", "reasons": []})
    assert artifact["evaluator_recommendation"] == "FAIL"  # recorded, never read


def test_example_3_waiver_honoured_in_score(tmp_path: Path) -> None:
    probe, policy = write_probe(tmp_path, severity="medium"), write_policy(tmp_path)
    waivers = write_waivers(tmp_path)
    records = write_records(
        tmp_path,
        [
            record(0, "not-applicable", waiver="refund-wording-q4"),
            record(1, "not-applicable", waiver="refund-wording-q4"),
            record(2, "caught"),
        ],
    )
    code, artifact, _ = score(
        records, probe, policy, "--waivers", str(waivers), "--as-of", "2026-12-31"
    )
    assert code == 0
    assert [o["state"] for o in artifact["outcomes"]] == [
        "not-applicable",
        "not-applicable",
        "caught",
    ]
    reduced = artifact["reduced_probe_outcomes"][0]
    assert (reduced["valid_count"], reduced["caught"]) == (1, True)
    defect = artifact["strength"]["classes"]["defect"]
    assert (defect["caught"], defect["exercised"]) == (1, 1)
    assert artifact["verdict"] == {"value": "WAIVED", "reasons": ["waiver-honoured"]}
    assert artifact["waivers"] == [
        {
            "id": "refund-wording-q4",
            "reason": "refund wording under legal review",
            "approved_by": "j.doe",
            "expires": "2026-12-31",
            "status": "honoured",
        }
    ]
    assert artifact["as_of"] == "2026-12-31"


def test_example_4_waiver_expired_in_score_is_unhonourable(tmp_path: Path) -> None:
    """In ``score`` a record naming an expired waiver cannot be honoured (score never
    waives itself); the audit's form of example 4 keeps the misses (tests/audit)."""
    probe, policy = write_probe(tmp_path, severity="medium"), write_policy(tmp_path)
    records = write_records(
        tmp_path,
        [
            record(0, "not-applicable", waiver="refund-wording-q4"),
            record(1, "not-applicable", waiver="refund-wording-q4"),
            record(2, "caught"),
        ],
    )
    waivers = write_waivers(tmp_path)
    code, invalid, _ = score(
        records, probe, policy, "--waivers", str(waivers), "--as-of", "2027-01-01"
    )
    assert code == 5
    assert invalid["verdict"] == {"value": "INVALID", "reasons": ["unhonourable-waiver"]}
    assert invalid["details"][0].endswith(
        "waiver 'refund-wording-q4' expired on 2026-12-31 (as of 2027-01-01)"
    )
    unwaived = _three(tmp_path / "plain", ["missed", "missed", "caught"])
    code, artifact, _ = score(unwaived, probe, policy)
    assert (code, artifact["verdict"]) == (
        0,
        {"value": "CONCERNS", "reasons": ["behavioural-failure-below-floor"]},
    )


def _artifact(tmp_path: Path, name: str, probe: Path, records: list[Path], *extra: str) -> Path:
    code, artifact, stderr = score(
        records, probe, write_policy(tmp_path, "floors: {defect: 0.75}\n"), *extra
    )
    assert code in (0, 1), stderr
    return write_json(tmp_path / f"{name}.artifact.json", artifact)


def test_example_5_waived_probe_and_a_floor(tmp_path: Path) -> None:
    policy = write_policy(tmp_path, "floors: {defect: 0.75}\n")
    a = _artifact(
        tmp_path,
        "a",
        write_probe(tmp_path, "c/a"),
        _three(tmp_path / "a", ["caught"] * 3, probe_id="c/a"),
    )
    waivers = write_waivers(tmp_path, probes=("c/b",))
    waived = write_records(
        tmp_path / "b",
        [record(i, "not-applicable", probe_id="c/b", waiver="refund-wording-q4") for i in range(3)],
    )
    b = _artifact(
        tmp_path,
        "b",
        write_probe(tmp_path, "c/b"),
        waived,
        "--waivers",
        str(waivers),
        "--as-of",
        "2026-12-01",
    )
    b_json = json.loads(b.read_text(encoding="utf-8"))
    assert b_json["verdict"] == {"value": "WAIVED", "reasons": ["waiver-honoured"]}
    assert (
        b_json["strength"]["classes"]["defect"]["exercised"],
        b_json["strength"]["classes"]["defect"]["rate"],
    ) == (0, None)
    code, aggregated, _ = invoke("aggregate-strength", str(a), str(b), "--policy", str(policy))
    assert code == 0
    defect = aggregated["classes"]["defect"]
    assert {k: defect[k] for k in ("eligible", "caught", "exercised", "rate", "waived")} == {
        "eligible": 2,
        "caught": 1,
        "exercised": 1,
        "rate": 1.0,
        "waived": 1,
    }
    assert (defect["basis"], defect["meets_floor"]) == ("rate-meets-floor", True)

    missed = _three(tmp_path / "b2", ["missed"] * 3, probe_id="c/b")
    b2 = _artifact(tmp_path, "b2", write_probe(tmp_path, "c/b"), missed)
    code, aggregated, _ = invoke("aggregate-strength", str(a), str(b2), "--policy", str(policy))
    assert code == 1
    defect = aggregated["classes"]["defect"]
    assert (defect["rate"], defect["waived"], defect["basis"]) == (0.5, 0, "rate-below-floor")


def test_example_6_contradictory_records(tmp_path: Path) -> None:
    probe, policy = write_probe(tmp_path), write_policy(tmp_path)
    records = write_records(
        tmp_path,
        [
            record(0, "caught", mode="production", recommendation="PASS"),
            record(1, "caught", mode="production", recommendation="FAIL"),
            record(2, "caught", mode="production", recommendation="PASS"),
        ],
    )
    code, invalid, _ = score(records, probe, policy)
    assert code == 5
    assert list(invalid) == ["invalid_version", "engine", "probe_id", "verdict", "details"]
    assert invalid["invalid_version"] == 1
    assert invalid["probe_id"] == P
    assert invalid["verdict"] == {"value": "INVALID", "reasons": ["trial-set-disagreement"]}
    assert invalid["details"] == [
        f"{records[1]}: evaluator_recommendation differs from {records[0]}"
    ]

    repeated = write_records(tmp_path / "r", [record(0, "caught"), record(0, "caught")])
    code, invalid, _ = score(repeated, probe, policy)
    assert (code, invalid["verdict"]["reasons"]) == (5, ["repeated-trial-index"])

    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    code, out, stderr = score([broken], probe, policy)
    assert (code, out) == (2, None)
    assert str(broken) in stderr


def test_example_6_names_the_files_as_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Run from the records' folder, the details read as in SPEC: ``trial-1.json: …``."""
    write_records(
        tmp_path,
        [
            record(0, "caught", mode="production", recommendation="PASS"),
            record(1, "caught", mode="production", recommendation="FAIL"),
            record(2, "caught", mode="production", recommendation="PASS"),
        ],
    )
    write_probe(tmp_path)
    write_policy(tmp_path)
    monkeypatch.chdir(tmp_path)
    code, invalid, _ = score(
        [Path("trial-0.json"), Path("trial-1.json"), Path("trial-2.json")],
        Path(f"{P.replace('/', '_')}.probe.json"),
        Path("policy.yaml"),
    )
    assert code == 5
    assert invalid["details"] == [
        "trial-1.json: evaluator_recommendation differs from trial-0.json"
    ]


def test_example_7_failed_preflight_in_score(tmp_path: Path) -> None:
    probe, policy = write_probe(tmp_path), write_policy(tmp_path)
    digest = read_policy_file(policy).digest
    records = _three(tmp_path, ["caught"] * 3)
    failed = write_json(
        tmp_path / "failed.json", preflight_verdict(passed=False, policy_digest=digest)
    )
    code, invalid, _ = score(records, probe, policy, "--preflight-verdict", str(failed))
    assert (code, invalid["verdict"]) == (5, {"value": "INVALID", "reasons": ["preflight-failed"]})
    other = write_json(
        tmp_path / "other.json",
        preflight_verdict(contract="sha256:" + "d" * 64, policy_digest=digest),
    )
    code, invalid, _ = score(records, probe, policy, "--preflight-verdict", str(other))
    assert (code, invalid["verdict"]["reasons"]) == (5, ["preflight-mismatch"])
    assert invalid["details"] == [
        f"{other}: contract.digest differs from contract_digest in {records[0]}"
    ]


def test_example_9_re_execution_cap(tmp_path: Path) -> None:
    probe = write_probe(tmp_path)
    states = ["infrastructure-error", "infrastructure-error", "caught"]
    records = _three(tmp_path, states)
    capped = write_policy(tmp_path, "re_execution_cap: 1\n", name="cap1.yaml")
    code, invalid, _ = score(records, probe, capped)
    assert (code, invalid["verdict"]) == (
        5,
        {"value": "INVALID", "reasons": ["re-execution-cap-exceeded"]},
    )
    assert "invalid_version" in invalid
    roomy = write_policy(tmp_path, "re_execution_cap: 2\n", name="cap2.yaml")
    code, artifact, _ = score(records, probe, roomy)
    assert (code, artifact["verdict"]) == (
        1,
        {"value": "FAIL", "reasons": ["invalidated-trial-at-or-above-floor"]},
    )
    assert artifact["policy"]["re_execution_cap"] == 2
    plain = read_policy_file(write_policy(tmp_path, name="plain.yaml"))
    assert (
        plain.digest
        == read_policy_file(
            write_policy(tmp_path, "re_execution_cap: null\n", name="n.yaml")
        ).digest
    )
    assert read_policy_file(roomy).digest != plain.digest
    # the digest object of a policy without the key is 0.1's: three fields
    assert plain.digest_inputs() == {
        "catch_threshold": 0.5,
        "minimum_trial_count": 3,
        "severity_floor": "high",
    }


def test_example_10_modes_never_compare(tmp_path: Path) -> None:
    probe, policy = write_probe(tmp_path), write_policy(tmp_path)
    production = _three(tmp_path / "p", ["caught"] * 3, mode="production", recommendation="PASS")
    scoring = _three(tmp_path / "c", ["caught"] * 3)
    a = write_json(tmp_path / "a.json", score(production, probe, policy)[1])
    b = write_json(tmp_path / "b.json", score(scoring, probe, policy)[1])
    a_json = json.loads(a.read_text(encoding="utf-8"))
    b_json = json.loads(b.read_text(encoding="utf-8"))
    assert a_json["comparability_key"] == b_json["comparability_key"]
    code, compared, _ = invoke("compare", str(a), str(b))
    assert (code, compared) == (
        0,
        {"relation": "incomparable", "reasons": ["mode-differs"], "caveats": []},
    )
    code, out, stderr = invoke("aggregate-strength", str(a), str(b), "--policy", str(policy))
    assert (code, out) == (4, "")
    assert "scoring_version differs" in stderr
