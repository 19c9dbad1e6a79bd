"""Files for ``score`` written to a temporary folder: records, probes, policies, waivers,
preflight verdicts (not a test module)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from textcontract.cli import app

runner = CliRunner()

P = "order-1002/refund-reoffer"
ORACLE = "no-refund-promise:NO_REFUND_PROMISE:surface:body"
CONTRACT = "sha256:" + "c" * 64
POLICY_LINES = "catch_threshold: 0.5\nminimum_trial_count: 3\nseverity_floor: high\n"


def write_json(path: Path, value: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=2), encoding="utf-8")
    return path


def write_policy(folder: Path, extra: str = "", name: str = "policy.yaml") -> Path:
    path = folder / name
    path.write_text(POLICY_LINES + extra, encoding="utf-8")
    return path


def write_probe(folder: Path, probe_id: str = P, severity: str = "high", **extra: Any) -> Path:
    probe = {
        "probe_id": probe_id,
        "class": "defect",
        "severity": severity,
        "canary": False,
        "clean_control": False,
        **extra,
    }
    return write_json(folder / f"{probe_id.replace('/', '_')}.probe.json", probe)


def record(
    index: int,
    state: str | None,
    *,
    mode: str = "contract-scoring",
    recommendation: Any = None,
    probe_id: str = P,
    waiver: str | None = None,
    **changes: Any,
) -> dict[str, Any]:
    outcomes: list[dict[str, Any]] = []
    if state is not None:
        outcome: dict[str, Any] = {"probe_id": probe_id, "oracle": ORACLE, "state": state}
        if waiver is not None:
            outcome["waiver"] = waiver
        outcomes.append(outcome)
    return {
        "record_version": 1,
        "run_id": f"run/{probe_id}",
        "trial_index": index,
        "mode": mode,
        "contract_digest": CONTRACT,
        "evaluator_configuration_digest": CONTRACT,
        "evaluator_recommendation": recommendation,
        "outcomes": outcomes,
    } | changes


def write_records(folder: Path, values: Sequence[dict[str, Any]]) -> list[Path]:
    """``trial-<i>.json`` for the i-th value given, in ``folder``."""
    return [write_json(folder / f"trial-{i}.json", value) for i, value in enumerate(values)]


def write_waivers(folder: Path, probes: Sequence[str] = (P,), expires: str = "2026-12-31") -> Path:
    path = folder / "waivers.yaml"
    path.write_text(
        "waivers:\n"
        "  - id: refund-wording-q4\n"
        f"    probes: [{', '.join(probes)}]\n"
        '    reason: "refund wording under legal review"\n'
        '    approved_by: "j.doe"\n'
        f"    expires: {expires}\n",
        encoding="utf-8",
    )
    return path


def preflight_verdict(
    *,
    passed: bool = True,
    contract: str = CONTRACT,
    policy_digest: str,
    mode: str = "contract-scoring",
    probes: Sequence[str] = (P,),
) -> dict[str, Any]:
    """A preflight verdict of the shape ``textcontract preflight`` prints."""
    return {
        "preflight_version": 1,
        "engine": {"name": "textcontract", "version": "0.1.0"},
        "contract": {"id": "order-confirmation", "version": "3", "digest": contract},
        "corpus_digest": "sha256:" + "a" * 64,
        "fixture_digest": "sha256:" + "f" * 64,
        "policy_digest": policy_digest,
        "mode": mode,
        "passed": passed,
        "checks": [
            {
                "kind": "fault-scoped",
                "subject": f"{P}#{ORACLE}",
                "outcome": "satisfied" if passed else "failed",
                "note": None,
            }
        ],
        "plan": {
            "probes": [
                {
                    "probe_id": probe,
                    "class": "defect",
                    "severity": "high",
                    "canary": False,
                    "clean_control": False,
                    "exposure": "known",
                    "trials": 3,
                }
                for probe in probes
            ],
            "excluded": [],
            "trials_total": 3 * len(probes),
        },
    }


def score(records: Sequence[Path], probe: Path, policy: Path, *extra: str) -> tuple[int, Any, str]:
    """``textcontract score`` through the CliRunner: (exit code, parsed stdout, stderr)."""
    args = ["score", "--probe", str(probe), "--policy", str(policy), *extra]
    for path in records:
        args += ["--record", str(path)]
    result = runner.invoke(app, args)
    parsed = json.loads(result.stdout) if result.stdout.strip() else None
    return result.exit_code, parsed, result.stderr


def invoke(*args: str) -> tuple[int, Any, str]:
    result = runner.invoke(app, list(args))
    parsed = json.loads(result.stdout) if result.stdout.strip().startswith("{") else result.stdout
    return result.exit_code, parsed, result.stderr
