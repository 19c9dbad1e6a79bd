"""Sealed trial records and ``score``: one probe scored over a trial set."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.strength.strength_builders import (
    CAUGHT,
    MISSED,
    ORACLE,
    counted,
    policy,
    probe_trials,
    scored,
)
from textcontract.errors import ExitCode, InputError
from textcontract.model import Severity
from textcontract.strength import (
    OutcomeState,
    Probe,
    ProbeClass,
    SealedRecord,
    artifact_exit_code,
    build_trial_records,
    parse_probe,
    parse_record,
    score_records,
)
from textcontract.strength_files import read_probe_file, read_record_file

PROBE = Probe("order-1/total", ProbeClass.DEFECT, Severity.HIGH)


def record(index: int, *outcomes: dict[str, Any], **changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "record_version": 1,
        "run_id": "run-7",
        "trial_index": index,
        "mode": "contract-scoring",
        "contract_digest": "sha256:contract",
        "evaluator_configuration_digest": "sha256:evaluator",
        "evaluator_recommendation": None,
        "outcomes": list(outcomes),
    }
    return base | changes


def outcome(
    state: str, probe_id: str = PROBE.probe_id, oracle: str | None = ORACLE
) -> dict[str, Any]:
    return {"probe_id": probe_id, "oracle": oracle, "state": state}


def records(*values: dict[str, Any]) -> list[SealedRecord]:
    return [parse_record(value, f"trial-{i}.json") for i, value in enumerate(values)]


def test_score_sorts_by_trial_index_and_synthesises_not_applicable() -> None:
    artifact = score_records(
        records(
            record(2, outcome("caught")),
            record(0, outcome("caught"), outcome("missed", probe_id="other/probe")),
            record(1, outcome("missed", probe_id="other/probe")),
        ),
        PROBE,
        policy(),
    )
    assert artifact["outcomes"] == [
        {"trial_index": 0, "oracle": ORACLE, "state": "caught", "waiver": None},
        {"trial_index": 1, "oracle": None, "state": "not-applicable", "waiver": None},
        {"trial_index": 2, "oracle": ORACLE, "state": "caught", "waiver": None},
    ]
    assert artifact["trials"] == {"completed": 3, "declared_minimum": 1}
    (reduced,) = artifact["reduced_probe_outcomes"]
    assert (reduced["valid_count"], reduced["caught_count"], reduced["caught"]) == (2, 2, True)
    assert artifact["strength"]["classes"]["defect"]["rate"] == 1.0
    assert artifact["coverage_gaps"] == []
    assert artifact["verdict"] == {"value": "PASS", "reasons": []}
    assert artifact_exit_code(artifact) is ExitCode.OK


def test_score_records_which_inputs_were_attested() -> None:
    given = records(record(0, outcome("caught")))
    plain = score_records(given, PROBE, policy())
    assert plain["attested_inputs"] == ["evaluator_configuration_digest", "mode"]
    assert plain["scoring_version_inputs"]["corpus_digest"] is None
    assert plain["scoring_version_inputs"]["evaluator_configuration_digest"] == "sha256:evaluator"
    flagged = score_records(
        given, PROBE, policy(), corpus_digest="sha256:c", fixture_digest="sha256:f"
    )
    assert flagged["attested_inputs"] == [
        "corpus_digest",
        "evaluator_configuration_digest",
        "fixture_digest",
        "mode",
    ]
    assert flagged["scoring_version"] != plain["scoring_version"]


def test_score_artifact_keys_are_in_spec_order() -> None:
    artifact = score_records(records(record(0, outcome("caught"))), PROBE, policy())
    assert list(artifact) == [
        "artifact_version",
        "engine",
        "mode",
        "scoring_version",
        "scoring_version_inputs",
        "comparability_key",
        "attested_inputs",
        "policy",
        "probe",
        "trials",
        "outcomes",
        "reduced_probe_outcomes",
        "strength",
        "coverage_gaps",
        "evaluator_recommendation",
        "waivers",
        "as_of",
        "preflight_digest",
        "source_revision",
        "verdict",
    ]
    assert artifact["artifact_version"] == 2
    assert list(artifact["policy"]) == [
        "digest",
        "catch_threshold",
        "minimum_trial_count",
        "severity_floor",
        "re_execution_cap",
    ]
    assert list(artifact["probe"]) == [
        "probe_id",
        "class",
        "severity",
        "canary",
        "clean_control",
        "exposure",
    ]
    assert (artifact["waivers"], artifact["as_of"], artifact["source_revision"]) == ([], None, None)


def test_a_failing_verdict_exits_one_and_concerns_exit_zero() -> None:
    failed = score_records(records(record(0, outcome("missed"))), PROBE, policy())
    assert failed["verdict"] == {
        "value": "FAIL",
        "reasons": ["behavioural-failure-at-or-above-floor"],
    }
    assert artifact_exit_code(failed) is ExitCode.FAILED
    thin = score_records(
        records(record(0, outcome("caught"))), PROBE, policy(minimum_trial_count=2)
    )
    assert thin["verdict"]["value"] == "CONCERNS"
    assert artifact_exit_code(thin) is ExitCode.OK


def test_control_in_score_is_preserved_by_majority_of_passed_clean_trials() -> None:
    control = Probe("order-1/reword", ProbeClass.DEFECT, Severity.MEDIUM, clean_control=True)
    rejected = score_records(
        records(
            record(0, outcome("passed-clean-control", control.probe_id, "clean-control")),
            record(1, outcome("false-positive", control.probe_id, "clean-control")),
        ),
        control,
        policy(),
    )
    assert rejected["verdict"] == {"value": "CONCERNS", "reasons": ["clean-control-rejected"]}


@pytest.mark.parametrize(
    ("field", "other"),
    [
        ("run_id", "run-8"),
        ("contract_digest", "sha256:other"),
        ("evaluator_configuration_digest", "sha256:other"),
        ("evaluator_recommendation", "ship"),
    ],
)
def test_records_that_disagree_make_the_run_invalid_naming_file_and_field(
    field: str, other: str
) -> None:
    given = records(record(0, outcome("caught")), record(1, outcome("caught"), **{field: other}))
    invalid = score_records(given, PROBE, policy())
    assert invalid["verdict"] == {"value": "INVALID", "reasons": ["trial-set-disagreement"]}
    assert invalid["details"] == [f"trial-1.json: {field} differs from trial-0.json"]
    assert artifact_exit_code(invalid) is ExitCode.INVALID


def test_a_repeated_trial_index_makes_the_run_invalid_naming_both_files() -> None:
    given = records(record(4, outcome("caught")), record(4, outcome("missed")))
    invalid = score_records(given, PROBE, policy())
    assert invalid["verdict"]["reasons"] == ["repeated-trial-index"]
    assert invalid["details"] == ["trial-1.json: trial_index 4 repeats the one in trial-0.json"]


def test_two_outcomes_for_the_scored_probe_make_the_run_invalid() -> None:
    given = records(record(0, outcome("caught"), outcome("missed")))
    invalid = score_records(given, PROBE, policy())
    assert invalid["verdict"]["reasons"] == ["duplicate-probe-outcome"]
    assert invalid["details"] == [
        "trial-0.json: outcomes holds 2 outcomes for probe order-1/total (at most one per record)"
    ]


def test_two_outcomes_for_another_probe_are_ignored_with_the_rest_of_that_probe() -> None:
    other = outcome("missed", probe_id="other/probe")
    artifact = score_records(records(record(0, outcome("caught"), other, other)), PROBE, policy())
    assert artifact["verdict"]["value"] == "PASS"


def test_an_unknown_mode_is_an_input_error() -> None:
    with pytest.raises(InputError, match="mode: 'staging' is not one of contract-scoring"):
        parse_record(record(0, mode="staging"), "trial-0.json")


def test_a_production_record_needs_a_recommendation() -> None:
    with pytest.raises(InputError) as caught:
        parse_record(record(0, mode="production"), "trial-0.json")
    assert [p.render() for p in caught.value.problems] == [
        "trial-0.json: evaluator_recommendation: a production record needs one of PASS,"
        " CONCERNS, FAIL, got None"
    ]


def test_no_records_is_an_input_error() -> None:
    with pytest.raises(InputError, match="no trial records"):
        score_records([], PROBE, policy())


def test_a_malformed_record_reports_every_problem() -> None:
    broken = record(-1, outcome("caugth"))
    del broken["run_id"]
    broken["record_version"] = 2
    with pytest.raises(InputError) as caught:
        parse_record(broken, "trial-0.json")
    rendered = [p.render() for p in caught.value.problems]
    assert rendered == [
        "trial-0.json: missing required key 'run_id'",
        "trial-0.json: record_version: expected 1, got 2",
        "trial-0.json: outcomes[0].state: 'caugth' is not one of caught, confirmed, missed,"
        " abstained, bypassed, passed-clean-control, false-positive, not-applicable, unreached,"
        " oracle-error, judge-error, infrastructure-error (did you mean 'caught'?)",
        "trial-0.json: trial_index: must be at least 0, got -1",
    ]


def test_record_and_probe_files_load_from_disk(tmp_path: Path) -> None:
    (tmp_path / "r.json").write_text(json.dumps(record(0, outcome("caught"))))
    (tmp_path / "p.json").write_text(json.dumps(PROBE.to_json()))
    loaded = read_record_file(tmp_path / "r.json", "r.json")
    assert loaded.source == "r.json"
    assert loaded.outcome_for(PROBE.probe_id) is not None
    assert read_probe_file(tmp_path / "p.json") == PROBE


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"class": "defects"}, "p.json: class: 'defects' is not one of"),
        ({"severity": 3}, "p.json: severity: expected one of low, medium, high, critical"),
        ({"canary": "no"}, "p.json: canary: expected true or false, got a string"),
        ({"probe_id": ""}, "p.json: probe_id: must not be empty"),
        ({"canary": True, "clean_control": True}, "p.json: a probe cannot be both"),
        ({"owner": "me"}, "p.json: owner: unknown key 'owner'"),
    ],
)
def test_probe_file_is_validated(change: dict[str, Any], message: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_probe(PROBE.to_json() | change, "p.json")
    assert caught.value.problems[0].render().startswith(message)


def test_audit_records_rescored_reproduce_the_audit_artifact_except_attested_inputs() -> None:
    scoring = policy(minimum_trial_count=2)
    trials = probe_trials(
        "order-1/total", [CAUGHT, OutcomeState.ORACLE_ERROR, MISSED, CAUGHT], severity=Severity.LOW
    )
    result = scored([trials], scoring)
    ((_, audit_artifact),) = result.evidence_artifacts()
    written = build_trial_records(trials, result.scoring_version, "sha256:contract")
    assert [path for path, _ in written] == [f"order-1/total/trial-{i}.json" for i in range(4)]
    assert {r["run_id"] for _, r in written} == {f"{result.scoring_version}/order-1/total"}
    rescored = score_records(
        [parse_record(value, path) for path, value in reversed(written)],
        trials.probe,
        scoring,
        corpus_digest="sha256:corpus",
        fixture_digest="sha256:fixtures",
    )
    assert rescored["attested_inputs"] != audit_artifact["attested_inputs"]
    different = {key for key in audit_artifact if audit_artifact[key] != rescored[key]}
    assert different == {"attested_inputs"}


def test_counted_helper_builds_states_in_order() -> None:
    assert counted(caught=1, missed=1, unreached=1) == [CAUGHT, MISSED, OutcomeState.UNREACHED]
