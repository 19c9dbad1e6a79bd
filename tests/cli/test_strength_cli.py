"""``score``, ``aggregate-strength`` and ``compare`` end to end through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from textcontract.cli import app
from textcontract.model import Severity
from textcontract.strength import (
    OutcomeState,
    Probe,
    ProbeClass,
    ProbeTrials,
    TrialOutcome,
    build_trial_records,
)

runner = CliRunner()
ORACLE = "claims:CLAIM_STATE_MISMATCH:surface:body"


def _write_probe_set(
    root: Path, probe_id: str, probe_class: ProbeClass, states: list[OutcomeState]
) -> tuple[Path, list[Path]]:
    probe = Probe(probe_id, probe_class, Severity.HIGH)
    probe_file = root / f"{probe_id.replace('/', '_')}.probe.json"
    probe_file.write_text(
        json.dumps(
            {
                "probe_id": probe_id,
                "class": probe_class.value,
                "severity": "high",
                "canary": False,
                "clean_control": False,
            }
        ),
        encoding="utf-8",
    )
    trials = ProbeTrials(
        probe, tuple(TrialOutcome(i, ORACLE, state) for i, state in enumerate(states))
    )
    paths = []
    for relative, record in build_trial_records(trials, "sha256:" + "0" * 64, "sha256:" + "1" * 64):
        path = root / "records" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(record), encoding="utf-8")
        paths.append(path)
    return probe_file, paths


def _score(tmp_path: Path, probe_id: str, cls: ProbeClass, states: list[OutcomeState]) -> Path:
    policy = tmp_path / "policy.yaml"
    policy.write_text("catch_threshold: 0.5\nfloors: {defect: 0.75}\n", encoding="utf-8")
    probe_file, records = _write_probe_set(tmp_path, probe_id, cls, states)
    out = tmp_path / f"{probe_id.replace('/', '_')}.artifact.json"
    args = ["score", "--probe", str(probe_file), "--policy", str(policy), "--output", str(out)]
    for record in records:
        args += ["--record", str(record)]
    result = runner.invoke(app, args)
    assert result.exit_code in (0, 1), result.stderr
    return out


def test_score_then_aggregate_then_compare(tmp_path: Path) -> None:
    caught, missed = OutcomeState.CAUGHT, OutcomeState.MISSED
    a = _score(tmp_path, "c/one", ProbeClass.DEFECT, [caught, caught, missed])
    b = _score(tmp_path, "c/two", ProbeClass.DEFECT, [caught, missed])
    artifact = json.loads(a.read_text(encoding="utf-8"))
    assert artifact["reduced_probe_outcomes"][0]["caught"] is True
    assert artifact["strength"]["classes"]["defect"]["rate"] == 1.0
    tie = json.loads(b.read_text(encoding="utf-8"))
    assert tie["reduced_probe_outcomes"][0]["caught"] is False
    assert tie["verdict"]["value"] == "FAIL"

    policy = str(tmp_path / "policy.yaml")
    result = runner.invoke(app, ["aggregate-strength", str(a), str(b), "--policy", policy])
    assert result.exit_code == 1
    aggregated = json.loads(result.stdout)
    assert aggregated["classes"]["defect"]["rate"] == 0.5
    assert aggregated["classes"]["defect"]["basis"] == "rate-below-floor"
    reversed_order = runner.invoke(app, ["aggregate-strength", str(b), str(a), "--policy", policy])
    assert reversed_order.stdout == result.stdout

    compared = runner.invoke(app, ["compare", str(a), str(b)])
    assert compared.exit_code == 0
    assert json.loads(compared.stdout)["relation"] == "incomparable"


def test_aggregate_refuses_a_shared_probe_with_exit_4(tmp_path: Path) -> None:
    a = _score(tmp_path, "c/one", ProbeClass.DEFECT, [OutcomeState.CAUGHT])
    copy = tmp_path / "copy.json"
    copy.write_text(a.read_text(encoding="utf-8"), encoding="utf-8")
    policy = str(tmp_path / "policy.yaml")
    result = runner.invoke(app, ["aggregate-strength", str(a), str(copy), "--policy", policy])
    assert result.exit_code == 4
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    assert str(copy) in result.stderr


def test_score_answers_records_that_disagree_with_invalid(tmp_path: Path) -> None:
    probe_file, records = _write_probe_set(
        tmp_path, "c/one", ProbeClass.DEFECT, [OutcomeState.CAUGHT, OutcomeState.CAUGHT]
    )
    data = json.loads(records[1].read_text(encoding="utf-8"))
    data["run_id"] = "another-run"
    records[1].write_text(json.dumps(data), encoding="utf-8")
    policy = tmp_path / "policy.yaml"
    policy.write_text("{}\n", encoding="utf-8")
    result = runner.invoke(
        app,
        ["score", "--probe", str(probe_file), "--policy", str(policy)]
        + [arg for record in records for arg in ("--record", str(record))],
    )
    assert result.exit_code == 5
    invalid = json.loads(result.stdout)
    assert invalid["verdict"] == {"value": "INVALID", "reasons": ["trial-set-disagreement"]}
    assert invalid["details"] == [f"{records[1]}: run_id differs from {records[0]}"]
