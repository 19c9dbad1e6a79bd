"""The scoring policy: defaults, digest, and input errors that name file and key."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.strength.strength_builders import policy
from textcontract._yaml import load_yaml
from textcontract.canonical import digest
from textcontract.errors import ExitCode, InputError
from textcontract.fields import FieldReader
from textcontract.model import Severity
from textcontract.strength import ProbeClass, ScoringPolicy, read_scoring_policy
from textcontract.strength_files import read_policy_file


def test_defaults_fill_every_field() -> None:
    scoring = policy()
    assert scoring.catch_threshold == 0.5
    assert scoring.minimum_trial_count == 1
    assert scoring.severity_floor is Severity.HIGH
    assert scoring.floors == ()
    assert scoring.floor(ProbeClass.DEFECT) is None


def test_digest_covers_three_fields_with_the_threshold_as_a_float() -> None:
    expected = digest({"catch_threshold": 0.5, "minimum_trial_count": 1, "severity_floor": "high"})
    assert policy().digest == expected
    assert policy(catch_threshold=1).digest == policy(catch_threshold=1.0).digest
    assert policy(catch_threshold=0).digest == policy(catch_threshold=0.0).digest


def test_digest_ignores_floors_but_not_the_other_fields() -> None:
    base = policy().digest
    assert policy(floors={"defect": 0.75, "zero-action": 1}).digest == base
    assert policy(catch_threshold=0.6).digest != base
    assert policy(minimum_trial_count=3).digest != base
    assert policy(severity_floor="critical").digest != base


def test_floors_are_kept_in_class_order_as_floats() -> None:
    scoring = policy(floors={"zero-action": 1, "defect": 0.75})
    assert scoring.floors_json() == {"defect": 0.75, "zero-action": 1.0}
    assert isinstance(scoring.floor(ProbeClass.ZERO_ACTION), float)
    assert scoring.floor(ProbeClass.GAMEABILITY) is None


def test_report_json_has_every_field_and_the_digest() -> None:
    scoring = policy(floors={"defect": 0.5})
    assert scoring.report_json() == {
        "catch_threshold": 0.5,
        "minimum_trial_count": 1,
        "severity_floor": "high",
        "re_execution_cap": None,
        "floors": {"defect": 0.5},
        "digest": scoring.digest,
    }


def _problems(obj: object) -> list[str]:
    with pytest.raises(InputError) as caught:
        ScoringPolicy.from_json(obj, "policy.json")
    assert caught.value.exit_code is ExitCode.INPUT_ERROR
    return [problem.render() for problem in caught.value.problems]


def test_unknown_key_is_named_with_a_suggestion() -> None:
    assert _problems({"catch_treshold": 0.5}) == [
        "policy.json: catch_treshold: unknown key 'catch_treshold'"
        " (did you mean 'catch_threshold'?)"
    ]


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("catch_threshold", 1.5, "must be in [0, 1], got 1.5"),
        ("catch_threshold", -0.1, "must be in [0, 1], got -0.1"),
        ("catch_threshold", True, "expected a number in [0, 1], got a boolean"),
        ("catch_threshold", "0.5", "expected a number in [0, 1], got a string"),
        ("minimum_trial_count", 0, "must be at least 1, got 0"),
        ("minimum_trial_count", 2.0, "expected an integer, got a number"),
        ("minimum_trial_count", False, "expected an integer, got a boolean"),
        ("severity_floor", "severe", "'severe' is not one of low, medium, high, critical"),
    ],
)
def test_out_of_range_or_mistyped_values_name_their_key(
    field: str, value: object, message: str
) -> None:
    rendered = _problems({field: value})
    assert len(rendered) == 1
    assert rendered[0].startswith(f"policy.json: {field}: {message}")


def test_floors_refuse_unknown_classes_and_rates_out_of_range() -> None:
    rendered = _problems({"floors": {"defects": 0.5, "gameability": 2}})
    assert rendered == [
        "policy.json: floors.defects: unknown key 'defects' (did you mean 'defect'?)",
        "policy.json: floors.gameability: must be in [0, 1], got 2",
    ]


def test_every_problem_is_reported_at_once() -> None:
    rendered = _problems({"catch_threshold": 2, "minimum_trial_count": 0, "colour": "red"})
    assert [line.split(": ")[1] for line in rendered] == [
        "colour",
        "catch_threshold",
        "minimum_trial_count",
    ]


def test_a_policy_must_be_a_mapping() -> None:
    assert _problems(None) == ["policy.json: expected a mapping, got null"]


def test_yaml_file_problems_carry_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "policy.yaml"
    path.write_text("catch_threshold: 0.5\nminimum_trial_count: 0\nseverity: high\n")
    with pytest.raises(InputError) as caught:
        read_policy_file(path, "policy.yaml")
    assert [p.render() for p in caught.value.problems] == [
        "policy.yaml:3:1: severity: unknown key 'severity' (did you mean 'severity_floor'?)",
        "policy.yaml:2:22: minimum_trial_count: must be at least 1, got 0",
    ]


def test_yaml_and_json_files_load_the_same_policy(tmp_path: Path) -> None:
    (tmp_path / "p.yaml").write_text("catch_threshold: 1\nfloors: {defect: 0.75}\n")
    (tmp_path / "p.json").write_text('{"catch_threshold": 1.0, "floors": {"defect": 0.75}}')
    from_yaml = read_policy_file(tmp_path / "p.yaml")
    from_json = read_policy_file(tmp_path / "p.json")
    assert from_yaml == from_json
    assert from_yaml.catch_threshold == 1.0


def test_json_policy_with_duplicate_key_is_an_input_error(tmp_path: Path) -> None:
    (tmp_path / "p.json").write_text('{"catch_threshold": 0.5, "catch_threshold": 0.6}')
    with pytest.raises(InputError, match="duplicate key 'catch_threshold'"):
        read_policy_file(tmp_path / "p.json", "p.json")


def test_missing_policy_file_is_an_input_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"^nowhere\.yaml: cannot read file"):
        read_policy_file(tmp_path / "nowhere.yaml", "nowhere.yaml")


def test_policy_block_of_audit_yaml_reports_its_place_in_that_file() -> None:
    text = "contract: ../contract.yaml\npolicy:\n  catch_threshold: 7\n"
    value, positions = load_yaml(text, "audit.yaml")
    reader = FieldReader("audit.yaml", positions)
    read_scoring_policy(reader, value["policy"], ("policy",))
    assert [p.render() for p in reader.problems] == [
        "audit.yaml:3:20: policy.catch_threshold: must be in [0, 1], got 7"
    ]


def test_re_execution_cap_is_read_and_enters_the_digest_only_when_set() -> None:
    plain = policy()
    assert policy(re_execution_cap=None).digest == plain.digest
    capped = policy(re_execution_cap=0)
    assert capped.re_execution_cap == 0
    assert capped.digest != plain.digest
    assert capped.digest_inputs()["re_execution_cap"] == 0
    assert capped.artifact_json()["re_execution_cap"] == 0
    assert plain.artifact_json()["re_execution_cap"] is None


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (-1, "policy.json: re_execution_cap: must be at least 0, got -1"),
        (True, "policy.json: re_execution_cap: expected an integer, got a boolean"),
        (1.0, "policy.json: re_execution_cap: expected an integer, got a number"),
    ],
)
def test_an_invalid_re_execution_cap_is_an_input_error(value: object, message: str) -> None:
    assert _problems({"re_execution_cap": value}) == [message]
