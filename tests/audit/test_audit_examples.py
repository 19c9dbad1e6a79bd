"""SPEC §17.10's worked examples that ``audit`` and ``preflight`` answer (2, 3, 4, 8, 12),
each through the CLI with its exit code; the others: tests/strength/test_strength_examples.py."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.audit.audit_builders import write_corpus
from tests.audit.run_builders import (
    P,
    audit_cli,
    cli,
    full_case,
    read_tree,
    refund_corpus,
    rejected_case,
)

REPO = Path(__file__).resolve().parents[2]
VACUOUS = REPO / "fixtures" / "preflight" / "mutations"


def test_example_2_production_audit(tmp_path: Path) -> None:
    corpus = write_corpus(
        tmp_path,
        {"c1.yaml": full_case(), "order-1003.yaml": rejected_case()},
        audit="contract: ../contract.yaml\nmode: production\n",
    )
    records = tmp_path / "records"
    code, report, _ = audit_cli(str(corpus), "--format", "json", "--records", str(records))
    assert code == 1
    assert report["mode"] == "production"
    assert report["evaluator_recommendation"] == "FAIL"
    assert report["excluded"] == [
        {"case": "order-1003", "variant": "v-refund", "reason": "invalid-baseline"}
    ]
    assert report["verdict"] == {"value": "FAIL", "reasons": ["evaluator-recommendation-fail"]}
    assert report["strength"]["scoring_version_inputs"]["mode"] == "production"
    written = read_tree(records)
    assert len(written) == 4
    assert {r["evaluator_recommendation"] for r in written.values()} == {"FAIL"}
    assert {r["mode"] for r in written.values()} == {"production"}


def test_example_3_waiver_honoured(tmp_path: Path) -> None:
    corpus = refund_corpus(tmp_path)
    artifacts = tmp_path / "out"
    code, report, _ = audit_cli(
        str(corpus), "--format", "json", "--as-of", "2026-12-31", "--artifacts", str(artifacts)
    )
    assert code == 0
    (probe,) = report["strength"]["probes"]
    assert [o["state"] for o in probe["outcomes"]] == ["not-applicable", "not-applicable", "caught"]
    assert [o["waiver"] for o in probe["outcomes"]] == [
        "refund-wording-q4",
        "refund-wording-q4",
        None,
    ]
    assert (probe["reduced"]["valid_count"], probe["reduced"]["caught"]) == (1, True)
    defect = report["strength"]["classes"]["defect"]
    assert (defect["caught"], defect["exercised"], defect["rate"]) == (1, 1, 1.0)
    assert report["verdict"] == {"value": "WAIVED", "reasons": ["waiver-honoured"]}
    assert report["waivers"] == {
        "as_of": "2026-12-31",
        "declared": [
            {
                "id": "refund-wording-q4",
                "reason": "refund wording under legal review",
                "approved_by": "j.doe",
                "expires": "2026-12-31",
                "scope": {"probes": [P], "rules": []},
                "status": "honoured",
                "trials": [f"{P}#0", f"{P}#1"],
            }
        ],
    }
    artifact = read_tree(artifacts)[f"{P}.json"]
    assert artifact["verdict"] == {"value": "WAIVED", "reasons": ["waiver-honoured"]}
    assert [w["id"] for w in artifact["waivers"]] == ["refund-wording-q4"]
    assert artifact["as_of"] == "2026-12-31"


def test_example_4_waiver_expired(tmp_path: Path) -> None:
    corpus = refund_corpus(tmp_path)
    code, report, _ = audit_cli(str(corpus), "--format", "json", "--as-of", "2027-01-01")
    assert code == 0
    (probe,) = report["strength"]["probes"]
    assert [o["state"] for o in probe["outcomes"]] == ["missed", "missed", "caught"]
    assert {o["waiver"] for o in probe["outcomes"]} == {None}
    assert (probe["reduced"]["caught_count"], probe["reduced"]["valid_count"]) == (1, 3)
    assert probe["reduced"]["caught"] is False
    assert report["verdict"] == {
        "value": "CONCERNS",
        "reasons": ["behavioural-failure-below-floor"],
    }
    (declared,) = report["waivers"]["declared"]
    assert (declared["status"], declared["trials"]) == ("expired", [])


def test_example_8_vacuous_probe(tmp_path: Path) -> None:
    code, verdict, _ = cli("preflight", str(VACUOUS))
    assert code == 5
    assert verdict["passed"] is False
    failed = [check for check in verdict["checks"] if check["outcome"] == "failed"]
    assert failed == [
        {
            "kind": "fault-scoped",
            "subject": "order-1004/cheapen#tone:FORBIDDEN_PATTERN:surface:body",
            "outcome": "failed",
            "note": failed[0]["note"],
        }
    ]
    assert failed[0]["note"]
    out = tmp_path / "out"
    out.mkdir()
    printed = cli("preflight", str(VACUOUS))
    code, audited, _ = audit_cli(str(VACUOUS), "--artifacts", str(out), "--format", "json")
    assert code == 5
    assert audited == printed[1]
    assert list(out.iterdir()) == []


def _git(folder: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-C", str(folder), *args],
        check=True,
        capture_output=True,
    )


def test_example_12_source_revision(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    corpus = write_corpus(tmp_path / "plain", {"c1.yaml": full_case()})
    plain_code, plain, _ = audit_cli(str(corpus), "--format", "json")
    code, report, _ = audit_cli(str(corpus), "--format", "json", "--source-revision", "auto")
    assert report["source_revision"] == {"commit": None, "dirty": None, "basis": "unknown"}
    assert code == plain_code
    assert report["strength"]["scoring_version"] == plain["strength"]["scoring_version"]
    assert report["corpus"] == plain["corpus"]

    commit = "0123456789abcdef0123456789ABCDEF01234567"
    code, report, _ = audit_cli(str(corpus), "--format", "json", "--source-revision", commit)
    assert report["source_revision"] == {
        "commit": commit.lower(),
        "dirty": None,
        "basis": "attested",
    }
    assert code == plain_code

    repo = tmp_path / "repo"
    corpus = write_corpus(repo, {"c1.yaml": full_case()})
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "corpus")
    code, report, _ = audit_cli(str(corpus), "--format", "json", "--source-revision", "auto")
    head = subprocess.run(
        ["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert report["source_revision"] == {"commit": head, "dirty": False, "basis": "git"}
    (corpus / "c2.yaml").write_text(full_case("c2"), encoding="utf-8")
    code, report, _ = audit_cli(str(corpus), "--format", "json", "--source-revision", "auto")
    assert report["source_revision"] == {"commit": head, "dirty": True, "basis": "git"}
    assert code == 0


def test_example_12_without_git_the_revision_is_unknown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus = write_corpus(tmp_path, {"c1.yaml": full_case()})
    monkeypatch.setenv("PATH", str(tmp_path / "no-bin"))
    assert os.environ["PATH"].endswith("no-bin")
    _, report, _ = audit_cli(str(corpus), "--format", "json", "--source-revision", "auto")
    assert report["source_revision"] == {"commit": None, "dirty": None, "basis": "unknown"}
