"""The preflight (SPEC §17.3): baselines only, its checks, its plan, and audit running it first."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

import textcontract.audit.running._case_passes as case_passes
from tests.audit.audit_builders import (
    REFUND,
    REWORD,
    case_text,
    preserve,
    violation,
    write_corpus,
)
from tests.audit.run_builders import audit_cli, cli, full_case, rejected_case
from textcontract.audit import PreflightFailed, audit_directory, preflight_directory
from textcontract.canonical import digest
from textcontract.formats.json_text import dumps_pretty, write_pretty
from textcontract.model import Check, Kind, Status
from textcontract.rules import BUILTIN_TYPES, Code, Registry, RuleType, Subject

ADVISORY_CONTRACT = """\
textcontract: 1
id: tone
version: 1
rules:
  - {id: status, type: RequiredFact, key: order.status, equals: shipped, severity: high}
  - id: tone
    type: ForbiddenPattern
    enforcement: advisory
    surfaces: [body]
    patterns: ['shipped today']
"""
TONE = "{rule: tone, code: FORBIDDEN_PATTERN, scope: 'surface:body'}"


class Flaky(RuleType):
    """Satisfied on odd calls, an error on even ones: a baseline that is not deterministic.

    Violated::

        (never)

    Satisfied::

        {id: flaky, type: Flaky}
        document: "Any text"
    """

    name = "Flaky"
    kind = Kind.INVARIANT
    summary = "alternates between satisfied and error (a pattern that times out on one run)"
    codes: ClassVar[tuple[Code, ...]] = (
        Code.of("STEADY", "the same every time", Status.SATISFIED, Status.ERROR),
    )
    main_code = "STEADY"
    calls: ClassVar[Iterator[int]] = itertools.count()

    def evaluate(self, subject: Subject) -> Iterator[Check]:
        del subject
        if next(Flaky.calls) % 2:
            yield self.check(Status.ERROR, "PATTERN_TIMEOUT", "surface:body", "timed out")
        else:
            yield self.check(Status.SATISFIED, "STEADY", "surface:body", "steady")


def test_the_verdict_has_the_spec_keys_and_sorted_checks(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path, {"c1.yaml": full_case(), "c0.yaml": rejected_case("c0")})
    verdict = preflight_directory(corpus).to_json()
    assert list(verdict) == [
        "preflight_version",
        "engine",
        "contract",
        "corpus_digest",
        "fixture_digest",
        "policy_digest",
        "mode",
        "passed",
        "checks",
        "plan",
    ]
    assert list(verdict["plan"]) == ["probes", "excluded", "trials_total"]
    kinds = [(c["kind"], c["subject"]) for c in verdict["checks"]]
    assert kinds == sorted(kinds)
    assert kinds[:2] == [("baseline-deterministic", "c0"), ("baseline-deterministic", "c1")]
    assert ("fault-scoped", "c1/v-claims#claims:CLAIM_STATE_MISMATCH:surface:body") in kinds
    assert [p["probe_id"] for p in verdict["plan"]["probes"]] == [
        "c1/p1",
        "c1/v-claims",
        "c1/v-refund",
        "c1/v-status",
    ]
    assert verdict["plan"]["probes"][0] == {
        "probe_id": "c1/p1",
        "class": "defect",
        "severity": "medium",
        "canary": False,
        "clean_control": True,
        "exposure": "known",
        "trials": 1,
    }
    assert verdict["plan"]["excluded"] == [
        {"case": "c0", "variant": "v-refund", "reason": "invalid-baseline"}
    ]
    assert verdict["plan"]["trials_total"] == 4
    assert verdict["passed"] is True


def test_the_digest_is_over_the_canonical_verdict_and_the_report_names_it(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path, {"c1.yaml": full_case()})
    preflight = preflight_directory(corpus)
    assert preflight.digest == digest(preflight.to_json())
    pieces: list[str] = []
    write_pretty(preflight.streamed_json(), pieces.append)
    assert "".join(pieces) == dumps_pretty(preflight.to_json())
    report = audit_directory(corpus).report
    assert report["preflight"] == {"passed": True, "digest": preflight.digest}
    assert report["corpus"] == {
        "digest": preflight.corpus_digest,
        "fixture_digest": preflight.fixture_digest,
    }


def test_preflight_evaluates_no_trial(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    corpus = write_corpus(tmp_path, {"c1.yaml": full_case()})

    def no_trials(*_: Any) -> Any:
        raise AssertionError("a trial was evaluated")

    monkeypatch.setattr(case_passes, "evaluate_trials", no_trials)
    assert preflight_directory(corpus).passed is True


def test_a_vacuous_fault_fails_the_fault_scoped_check(tmp_path: Path) -> None:
    corpus = write_corpus(
        tmp_path,
        {
            "c1.yaml": case_text(
                violation("vacuous", REFUND, expect=TONE) + violation("fine", REFUND, expect=TONE)
            )
        },
        contract=ADVISORY_CONTRACT,
    )
    preflight = preflight_directory(corpus)
    assert preflight.passed is False
    faults = [c for c in preflight.checks() if c["kind"] == "fault-scoped"]
    assert [(c["subject"], c["outcome"]) for c in faults] == [
        ("c1/fine#tone:FORBIDDEN_PATTERN:surface:body", "failed"),
        ("c1/vacuous#tone:FORBIDDEN_PATTERN:surface:body", "failed"),
    ]
    with pytest.raises(PreflightFailed) as caught:
        audit_directory(corpus)
    assert caught.value.exit_code == 5
    assert "c1/fine#tone" in str(caught.value)


def test_a_rule_absent_under_allow_missing_rules_is_exempt(tmp_path: Path) -> None:
    gone = "{rule: retired, code: GONE, scope: 'surface:body'}"
    corpus = write_corpus(tmp_path, {"c1.yaml": case_text(violation("v1", REFUND, expect=gone))})
    preflight = preflight_directory(corpus, allow_missing_rules=True)
    (fault,) = [c for c in preflight.checks() if c["kind"] == "fault-scoped"]
    assert fault == {
        "kind": "fault-scoped",
        "subject": "c1/v1#retired:GONE:surface:body",
        "outcome": "exempt",
        "note": "rule absent",
    }
    assert preflight.passed is True


def test_a_baseline_that_differs_between_two_runs_fails(tmp_path: Path) -> None:
    contract = "textcontract: 1\nid: f\nrules:\n  - {id: flaky, type: Flaky}\n"
    corpus = write_corpus(
        tmp_path, {"c1.yaml": case_text(preserve("p1", REWORD))}, contract=contract
    )
    registry = Registry([*(("builtin", t) for t in BUILTIN_TYPES), ("test", Flaky)])
    Flaky.calls = itertools.count()
    preflight = preflight_directory(corpus, registry=registry)
    (check,) = [c for c in preflight.checks() if c["kind"] == "baseline-deterministic"]
    assert check["outcome"] == "failed"
    assert check["note"] == (
        "check 1 (flaky STEADY at surface:body) was satisfied on the first run and error "
        "(PATTERN_TIMEOUT) on the second"
    )
    assert preflight.passed is False


def test_audit_on_a_failed_preflight_writes_only_the_verdict(tmp_path: Path) -> None:
    corpus = write_corpus(
        tmp_path,
        {"c1.yaml": case_text(violation("vacuous", REFUND, expect=TONE))},
        contract=ADVISORY_CONTRACT,
    )
    out, records, report = tmp_path / "out", tmp_path / "records", tmp_path / "report.json"
    code, printed, _ = audit_cli(
        str(corpus),
        "--artifacts",
        str(out),
        "--records",
        str(records),
        "--output",
        str(report),
        "--format",
        "json",
    )
    assert (code, printed) == (5, "")
    assert not out.exists()
    assert not records.exists()
    written = json.loads(report.read_text(encoding="utf-8"))
    assert written["preflight_version"] == 1
    assert written["passed"] is False
    code, text, _ = audit_cli(str(corpus))
    assert code == 5
    assert "verdict: failed" in text
    assert "c1/vacuous#tone:FORBIDDEN_PATTERN:surface:body" in " ".join(text.split())


def test_preflight_command_formats_and_modes(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path, {"c1.yaml": full_case()})
    code, verdict, _ = cli("preflight", str(corpus))
    assert (code, verdict["mode"], verdict["passed"]) == (0, "contract-scoring", True)
    code, verdict, _ = cli("preflight", str(corpus), "--mode", "production")
    assert (code, verdict["mode"]) == (0, "production")
    code, text, _ = cli("preflight", str(corpus), "--format", "text")
    assert code == 0
    assert "verdict: passed" in text
    target = tmp_path / "verdict.json"
    code, printed, _ = cli("preflight", str(corpus), "--output", str(target))
    assert (code, printed) == (0, "")
    assert json.loads(target.read_text(encoding="utf-8"))["passed"] is True
    code, _, err = cli("preflight", str(tmp_path / "missing"))
    assert code == 2
    assert "does not exist" in err


def test_a_baseline_check_that_raises_waits_for_the_whole_corpus_to_validate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first pass checks baselines as it reads; an exception there is raised only when
    every input is valid (else the input errors are what the user sees, exit 2)."""
    import textcontract.audit.running._planning as planning

    def broken(*_: Any) -> Any:
        raise RuntimeError("the engine broke")

    monkeypatch.setattr(planning, "check_trial", broken)
    invalid = write_corpus(
        tmp_path / "a",
        {
            "c1.yaml": full_case(),
            "c2.yaml": case_text(preserve("p1", "{replace: [{find: zz, with: y}]}"), "c2"),
        },
    )
    code, _, err = audit_cli(str(invalid))
    assert code == 2
    assert "replace finds nothing" in err
    valid = write_corpus(tmp_path / "b", {"c1.yaml": full_case()})
    code, _, err = audit_cli(str(valid))
    assert code == 3
    assert "the engine broke" in err
