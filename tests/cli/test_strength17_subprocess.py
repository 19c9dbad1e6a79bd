"""SPEC §17's exit codes from a real process: 0 (PASS, WAIVED), 1 (FAIL), 2 (input), 4
(refused), 5 (INVALID: a failed preflight, contradictory records)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "textcontract", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )


def test_exit_codes_of_the_shipped_fixtures(tmp_path: Path) -> None:
    waived = _run("audit", "fixtures/production", "--as-of", "2026-11-30", "--format", "json")
    assert waived.returncode == 0, waived.stderr
    assert json.loads(waived.stdout)["verdict"]["value"] == "WAIVED"
    failed = _run("audit", "fixtures/mutations", "--mode", "production", "--format", "json")
    assert failed.returncode == 1
    assert json.loads(failed.stdout)["verdict"]["reasons"][0] == "evaluator-recommendation-fail"
    bad = _run("audit", "fixtures/production", "--as-of", "tomorrow")
    assert (bad.returncode, bad.stdout) == (2, "")
    assert "--as-of" in bad.stderr
    preflight = _run("preflight", "fixtures/preflight/mutations")
    assert preflight.returncode == 5
    assert json.loads(preflight.stdout)["passed"] is False
    out = tmp_path / "out"
    audited = _run(
        "audit", "fixtures/preflight/mutations", "--artifacts", str(out), "--format", "json"
    )
    assert (audited.returncode, audited.stdout) == (5, preflight.stdout)
    assert not out.exists()


def test_refused_and_invalid_from_score(tmp_path: Path) -> None:
    production, scoring = tmp_path / "p", tmp_path / "c"
    assert (
        _run(
            "audit",
            "fixtures/production",
            "--as-of",
            "2026-11-30",
            "--artifacts",
            str(production),
            "--records",
            str(tmp_path / "rec"),
        ).returncode
        == 0
    )
    assert (
        _run(
            "audit",
            "fixtures/production",
            "--as-of",
            "2026-11-30",
            "--mode",
            "contract-scoring",
            "--artifacts",
            str(scoring),
        ).returncode
        == 0
    )
    policy = tmp_path / "policy.yaml"
    policy.write_text(
        "catch_threshold: 0.5\nminimum_trial_count: 3\nseverity_floor: high\nre_execution_cap: 1\n",
        encoding="utf-8",
    )
    name = "order-3001/total-mismatch.json"
    refused = _run(
        "aggregate-strength", str(production / name), str(scoring / name), "--policy", str(policy)
    )
    assert (refused.returncode, refused.stdout) == (4, "")
    assert len(refused.stderr.strip().splitlines()) == 1
    records = sorted((tmp_path / "rec" / "order-3001" / "total-mismatch").glob("trial-*.json"))
    changed = json.loads(records[1].read_text(encoding="utf-8"))
    changed["evaluator_recommendation"] = "FAIL"
    records[1].write_text(json.dumps(changed), encoding="utf-8")
    probe = tmp_path / "probe.json"
    probe.write_text(
        json.dumps(json.loads((production / name).read_text("utf-8"))["probe"]), "utf-8"
    )
    args = ["score", "--probe", str(probe), "--policy", str(policy)]
    for record in records:
        args += ["--record", str(record)]
    invalid = _run(*args)
    assert invalid.returncode == 5
    assert json.loads(invalid.stdout)["verdict"] == {
        "value": "INVALID",
        "reasons": ["trial-set-disagreement"],
    }
    target = tmp_path / "invalid.json"
    written = _run(*args, "--output", str(target))
    assert (written.returncode, written.stdout) == (5, "")
    assert json.loads(target.read_text("utf-8"))["invalid_version"] == 1


def test_lineage_exit_codes(tmp_path: Path) -> None:
    root = tmp_path / "v1.yaml"
    root.write_text(
        "textcontract: 1\nid: c\nrules:\n  - {id: s, type: RequiredFact, key: k}\n"
        "lineage: {parent_digest: null, revision_count: 0}\n",
        encoding="utf-8",
    )
    assert _run("lineage", str(root)).returncode == 0
    assert _run("lineage", str(root), "--max-revisions", "0").returncode == 0
    orphan = tmp_path / "v2.yaml"
    orphan.write_text(
        root.read_text("utf-8").replace(
            "parent_digest: null, revision_count: 0",
            f'parent_digest: "sha256:{"9" * 64}", revision_count: 1',
        ),
        encoding="utf-8",
    )
    assert _run("lineage", str(root), str(orphan)).returncode == 1
    assert _run("lineage", str(tmp_path / "absent.yaml")).returncode == 2
