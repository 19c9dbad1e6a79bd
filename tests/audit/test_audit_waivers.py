"""Waivers (SPEC §17.4): declared in audit.yaml, checked at load, applied to missed trials."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from tests.audit.audit_builders import REFUND, REWORD, case_text, preserve, violation, write_corpus
from tests.audit.run_builders import (
    ALSO_NOTHING,
    NOTHING,
    audit_cli,
    refund_corpus,
)
from textcontract.audit import audit_directory
from textcontract.errors import InputError

PROBLEMATIC = """\
contract: ../contract.yaml
waivers:
  - id: Bad_Id
    probes: [c1/v1]
    reason: "x"
    approved_by: "y"
    expires: 2026-12-31
  - id: no-reason
    probes: [c1/v1]
    reason: "  "
    approved_by: "y"
    expires: 2026-02-30
  - id: no-scope
    reason: "x"
    expires: 2026-12-31
    owner: me
  - id: dup
    rules: [no-refund]
    reason: "x"
    approved_by: "y"
    expires: 2026-12-31
  - id: dup
    rules: [no-refund]
    reason: "x"
    approved_by: "y"
    expires: 2026-12-31
  - id: missing
    probes: [c1/nope, c1/can, c1/p1]
    rules: [no-refnd]
    reason: "x"
    approved_by: "y"
    expires: 2026-12-31
"""


def _problems(tmp_path: Path, audit: str) -> list[str]:
    canary = violation("can", REFUND, extra="  canary: true\n")
    corpus = write_corpus(
        tmp_path,
        {"c1.yaml": case_text(violation("v1", REFUND) + canary + preserve("p1", REWORD))},
        audit=audit,
    )
    with pytest.raises(InputError) as caught:
        audit_directory(corpus)
    return [problem.render() for problem in caught.value.problems]


def test_every_waiver_problem_is_reported_together_with_its_place(tmp_path: Path) -> None:
    shown = f"{tmp_path}/corpus/audit.yaml"
    problems = _problems(tmp_path, PROBLEMATIC)
    assert problems == [
        f"{shown}:3:9: waivers[0].id: waiver id 'Bad_Id' does not match [a-z0-9][a-z0-9_.-]*",
        f"{shown}:10:13: waivers[1].reason: must not be blank",
        f"{shown}:12:14: waivers[1].expires: '2026-02-30' is not a date (YYYY-MM-DD)",
        f"{shown}:16:5: waivers[2].owner: unknown key 'owner' (known keys: id, probes, rules,"
        " reason, approved_by, expires)",
        f"{shown}:13:5: waivers[2]: a waiver needs a scope: 'probes', 'rules' or both",
        f"{shown}:13:5: waivers[2]: missing required key 'approved_by'",
        f"{shown}:22:9: waivers[4].id: duplicate waiver id 'dup' (also waivers[3])",
        f"{shown}:28:14: waivers[5].probes[0]: waiver 'missing': the corpus has no probe 'c1/nope'",
        f"{shown}:28:23: waivers[5].probes[1]: waiver 'missing': 'c1/can' is a canary;"
        " only eligible probes are waivable",
        f"{shown}:28:31: waivers[5].probes[2]: waiver 'missing': 'c1/p1' is a clean control"
        " (a preserve variant); only eligible probes are waivable",
        f"{shown}:29:13: waivers[5].rules[0]: waiver 'missing': the contract has no rule"
        " 'no-refnd' (did you mean 'no-refund'?)",
    ]


def test_an_unknown_mode_is_an_input_error(tmp_path: Path) -> None:
    problems = _problems(tmp_path, "contract: ../contract.yaml\nmode: staging\n")
    assert problems == [
        f"{tmp_path}/corpus/audit.yaml:2:7: mode: 'staging' is not one of contract-scoring,"
        " production"
    ]
    corpus = tmp_path / "corpus"
    code, _, err = audit_cli(str(corpus.parent / "corpus"), "--mode", "staging")
    assert code == 2
    assert "--mode" in err


def test_only_missed_trials_of_in_scope_probes_are_waived(tmp_path: Path) -> None:
    no_body = "{document: {surfaces: {title: {text: 'Shipped'}}}}"
    trials = f"[{NOTHING}, {no_body}, {REFUND}]"
    corpus = refund_corpus(tmp_path, trials=trials)
    result = audit_directory(corpus, as_of=date(2026, 6, 1))
    (probe,) = result.report["strength"]["probes"]
    states = [(o["state"], o["waiver"]) for o in probe["outcomes"]]
    # an error or an unvoted state is never waived: only ``missed``
    assert states[0] == ("not-applicable", "refund-wording-q4")
    assert states[1] == ("oracle-error", None)
    assert states[2] == ("caught", None)


def test_rules_scope_covers_probes_whose_expectations_name_the_rule(tmp_path: Path) -> None:
    by_rule = """\
waivers:
  - id: zz-by-rule
    rules: [no-refund-promise]
    reason: "r"
    approved_by: "a"
    expires: 2026-12-31
  - id: refund-wording-q4
    probes: [order-1002/refund-reoffer]
    reason: "r"
    approved_by: "a"
    expires: 2026-12-31
"""
    result = audit_directory(refund_corpus(tmp_path, by_rule), as_of=date(2026, 12, 31))
    (probe,) = result.report["strength"]["probes"]
    # both cover the probe: the lowest id wins
    assert [o["waiver"] for o in probe["outcomes"]] == ["refund-wording-q4"] * 2 + [None]
    statuses = {w["id"]: w["status"] for w in result.report["waivers"]["declared"]}
    assert statuses == {"refund-wording-q4": "honoured", "zz-by-rule": "unused"}


def test_an_unused_waiver_and_no_waiver_block_without_waivers(tmp_path: Path) -> None:
    all_caught = f"[{REFUND}, {REFUND}, {REFUND}]"
    result = audit_directory(refund_corpus(tmp_path, trials=all_caught), as_of=date(2026, 1, 1))
    assert result.report["waivers"]["declared"][0]["status"] == "unused"
    assert result.verdict.value.value == "PASS"
    plain = audit_directory(refund_corpus(tmp_path / "plain", audit_extra=""))
    assert plain.report["waivers"] is None


def test_the_clock_is_read_only_with_waivers_and_then_recorded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import textcontract.audit.running._runner as runner_module

    calls: list[int] = []

    def fake_today() -> date:
        calls.append(1)
        return date(2026, 7, 14)

    monkeypatch.setattr(runner_module, "today_utc", fake_today)
    plain = audit_directory(refund_corpus(tmp_path / "plain", audit_extra=""))
    assert calls == []
    assert plain.report["waivers"] is None
    waived = audit_directory(refund_corpus(tmp_path / "waived"))
    assert calls == [1]
    assert waived.report["waivers"]["as_of"] == "2026-07-14"
    artifacts = dict(waived.artifacts())
    assert {a["as_of"] for a in artifacts.values()} == {"2026-07-14"}
    given = audit_directory(refund_corpus(tmp_path / "given"), as_of=date(2026, 1, 2))
    assert calls == [1]
    assert given.report["waivers"]["as_of"] == "2026-01-02"


def test_a_waived_first_trial_gives_the_reason_waived(tmp_path: Path) -> None:
    all_missed = f"[{NOTHING}, {ALSO_NOTHING}, {NOTHING}]"
    result = audit_directory(
        refund_corpus(tmp_path, trials=all_missed),
        as_of=date(2026, 1, 1),
    )
    (row,) = result.report["variants"]
    assert (row["outcome"], row["reason"]) == ("undetected", "waived")
    (probe,) = result.report["strength"]["probes"]
    assert probe["reduced"]["exercised"] is False
    assert result.report["verdict"] == {"value": "WAIVED", "reasons": ["waiver-honoured"]}


def test_records_carry_the_waiver_and_an_invalid_as_of_is_exit_2(tmp_path: Path) -> None:
    corpus = refund_corpus(tmp_path)
    records = tmp_path / "records"
    code, _, _ = audit_cli(str(corpus), "--as-of", "2026-12-31", "--records", str(records))
    assert code == 0
    first = (records / "order-1002" / "refund-reoffer" / "trial-0.json").read_text("utf-8")
    assert '"waiver": "refund-wording-q4"' in first
    third = (records / "order-1002" / "refund-reoffer" / "trial-2.json").read_text("utf-8")
    assert "waiver" not in third
    code, out, err = audit_cli(str(corpus), "--as-of", "2026-13-01")
    assert (code, out) == (2, "")
    assert "--as-of: '2026-13-01' is not a date (YYYY-MM-DD)" in err
