"""Known and held-out probes (SPEC §17.6): a declaration carried along, moving nothing."""

from __future__ import annotations

from pathlib import Path

from tests.audit.audit_builders import REFUND, case_text, violation, write_corpus
from tests.audit.run_builders import PENDING, STATUS, cli
from textcontract.audit import audit_directory, preflight_directory
from textcontract.strength import parse_probe


def _corpus(tmp_path: Path, case_exposure: str | None, variant_exposure: str | None) -> Path:
    extra = "" if variant_exposure is None else f"  exposure: {variant_exposure}\n"
    text = case_text(violation("v1", REFUND, extra=extra) + violation("v2", PENDING, expect=STATUS))
    if case_exposure is not None:
        text = text.replace("variants:\n", f"exposure: {case_exposure}\nvariants:\n", 1)
    return write_corpus(tmp_path, {"c1.yaml": text})


def test_a_case_declares_exposure_and_a_variant_overrides_it(tmp_path: Path) -> None:
    result = audit_directory(_corpus(tmp_path, "held-out", "known"))
    rows = {row["variant"]: row["exposure"] for row in result.report["variants"]}
    assert rows == {"v1": "known", "v2": "held-out"}
    artifacts = dict(result.artifacts())
    assert artifacts["c1/v2.json"]["probe"]["exposure"] == "held-out"
    probes = {p["probe_id"]: p["exposure"] for p in result.report["strength"]["probes"]}
    assert probes == {"c1/v1": "known", "c1/v2": "held-out"}
    plan = {
        p["probe_id"]: p["exposure"]
        for p in preflight_directory(tmp_path / "corpus").planned_probes()
    }
    assert plan == probes


def test_exposure_moves_no_rate_digest_or_verdict(tmp_path: Path) -> None:
    known = audit_directory(_corpus(tmp_path / "a", None, None)).report
    held = audit_directory(_corpus(tmp_path / "b", "held-out", None)).report
    for key in ("corpus", "contract", "detection", "verdict"):
        assert known[key] == held[key], key
    for key in ("scoring_version", "comparability_key", "classes"):
        assert known["strength"][key] == held["strength"][key], key


def test_an_unknown_exposure_is_an_input_error(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path, "secret", None)
    code, _, err = cli("audit", str(corpus))
    assert code == 2
    assert "c1.yaml:9:11: exposure: 'secret' is not one of known, held-out" in err


def test_aggregate_splits_known_and_held_out(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path, "held-out", "known")
    out = tmp_path / "out"
    assert cli("audit", str(corpus), "--artifacts", str(out))[0] == 0
    policy = tmp_path / "policy.yaml"
    policy.write_text("floors: {defect: 1.0}\n", encoding="utf-8")
    code, aggregated, _ = cli(
        "aggregate-strength", *sorted(map(str, out.rglob("*.json"))), "--policy", str(policy)
    )
    assert code == 0
    assert list(aggregated)[list(aggregated).index("classes") + 1] == "exposure"
    assert aggregated["exposure"]["known"]["defect"] == {
        "eligible": 1,
        "caught": 1,
        "exercised": 1,
        "rate": 1.0,
    }
    assert aggregated["exposure"]["held-out"]["defect"] == {
        "eligible": 1,
        "caught": 1,
        "exercised": 1,
        "rate": 1.0,
    }
    assert aggregated["exposure"]["held-out"]["zero-action"]["rate"] is None
    assert aggregated["classes"]["defect"]["eligible"] == 2


def test_a_probe_file_may_declare_exposure() -> None:
    base = {"probe_id": "c/p", "class": "defect", "severity": "high", "canary": False}
    assert parse_probe({**base, "clean_control": False}, "p.json").exposure.value == "known"
    held = parse_probe({**base, "clean_control": False, "exposure": "held-out"}, "p.json")
    assert held.exposure.value == "held-out"
