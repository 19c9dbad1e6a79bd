"""``aggregate-strength``: class rates against floors, refusals, order independence."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.strength.strength_builders import (
    CAUGHT,
    MISSED,
    artifacts_of,
    inputs_for,
    policy,
    probe_trials,
)
from textcontract.canonical import digest
from textcontract.errors import ExitCode, InputError, RefusedArtifactSet
from textcontract.formats.json_text import dumps_pretty as render_json
from textcontract.strength import (
    OutcomeState,
    ProbeClass,
    aggregate,
    artifact_digest,
    evidence_artifact,
    floors_met,
)

FLOORED = policy(floors={"defect": 0.75, "gameability": 0.9})


def defect_probes(caught: int, missed: int) -> list[Any]:
    return [probe_trials(f"d/c{i}", [CAUGHT]) for i in range(caught)] + [
        probe_trials(f"d/m{i}", [MISSED]) for i in range(missed)
    ]


def gameability_probes(caught: int, missed: int) -> list[Any]:
    probes = defect_probes(caught, missed)
    return [
        probe_trials(
            f"g/{t.probe.probe_id}", [t.outcomes[0].state], probe_class=ProbeClass.GAMEABILITY
        )
        for t in probes
    ]


def test_three_of_four_meets_075_and_four_of_five_misses_09() -> None:
    result = aggregate(
        artifacts_of(defect_probes(3, 1) + gameability_probes(4, 1), FLOORED), FLOORED
    )
    assert result["classes"]["defect"] == {
        "eligible": 4,
        "caught": 3,
        "exercised": 4,
        "rate": 0.75,
        "waived": 0,
        "comparable": True,
        "floor": 0.75,
        "meets_floor": True,
        "basis": "rate-meets-floor",
    }
    gameability = result["classes"]["gameability"]
    assert (gameability["rate"], gameability["meets_floor"]) == (0.8, False)
    assert gameability["basis"] == "rate-below-floor"
    assert result["classes"]["zero-action"]["basis"] == "no-floor-declared"
    assert result["classes"]["zero-action"]["meets_floor"] is None
    assert not floors_met(result)


def test_an_unexercised_probe_fails_the_floor_whatever_the_rate() -> None:
    probes = [*defect_probes(3, 0), probe_trials("d/idle", [OutcomeState.NOT_APPLICABLE])]
    defect = aggregate(artifacts_of(probes, FLOORED), FLOORED)["classes"]["defect"]
    assert (defect["rate"], defect["exercised"], defect["eligible"]) == (1.0, 3, 4)
    assert (defect["meets_floor"], defect["basis"]) == (False, "unexercised-probe")


@pytest.mark.parametrize(
    ("probes", "basis"),
    [
        ([probe_trials("z/0", [CAUGHT], probe_class=ProbeClass.ZERO_ACTION)], "no-eligible-probe"),
        ([probe_trials("d/0", [OutcomeState.UNREACHED, CAUGHT, CAUGHT])], "not-comparable"),
        ([probe_trials("d/0", [OutcomeState.JUDGE_ERROR])], "no-exercised-probe"),
    ],
    ids=["no-eligible-probe", "not-comparable", "no-exercised-probe"],
)
def test_defect_floor_basis(probes: list[Any], basis: str) -> None:
    defect = aggregate(artifacts_of(probes, FLOORED), FLOORED)["classes"]["defect"]
    assert (defect["basis"], defect["meets_floor"]) == (basis, False)


def test_controls_and_canaries_never_enter_a_class() -> None:
    probes = [
        *defect_probes(1, 0),
        probe_trials("d/canary", [MISSED], canary=True),
        probe_trials("d/control", [OutcomeState.PASSED_CLEAN_CONTROL], clean_control=True),
    ]
    result = aggregate(artifacts_of(probes, FLOORED), FLOORED)
    assert result["classes"]["defect"]["eligible"] == 1
    assert [a["probe_id"] for a in result["artifacts"]] == ["d/c0", "d/canary", "d/control"]
    assert floors_met(result) is False  # gameability has a floor and no probe


def test_aggregate_json_shape_and_recorded_digests() -> None:
    given_artifacts = artifacts_of(defect_probes(1, 1), FLOORED)
    result = aggregate(given_artifacts, FLOORED)
    assert list(result) == [
        "aggregate_version",
        "engine",
        "policy",
        "scoring_version",
        "classes",
        "exposure",
        "artifacts",
        "evidence_set",
        "caveats",
    ]
    assert result["caveats"] == []
    assert result["aggregate_version"] == 2
    assert result["policy"] == {
        "digest": FLOORED.digest,
        "floors": {"defect": 0.75, "gameability": 0.9},
    }
    assert result["scoring_version"] == inputs_for(FLOORED).scoring_version
    assert result["evidence_set"] == "caller-selected"
    by_id = {name.removeprefix("out/").removesuffix(".json"): a for name, a in given_artifacts}
    assert result["artifacts"] == [
        {"probe_id": probe_id, "digest": digest(by_id[probe_id])} for probe_id in ["d/c0", "d/m0"]
    ]


def test_artifact_digest_is_over_canonical_json_not_formatting() -> None:
    ((_, artifact),) = artifacts_of(defect_probes(1, 0))
    reformatted = json.loads(json.dumps(artifact, indent=None, sort_keys=True))
    assert artifact_digest(reformatted) == artifact_digest(artifact)
    changed = copy.deepcopy(artifact)
    changed["engine"]["version"] = "9.9"
    assert artifact_digest(changed) != artifact_digest(artifact)


def test_floors_met_when_every_declared_floor_is_met() -> None:
    scoring = policy(floors={"defect": 0.5})
    assert floors_met(aggregate(artifacts_of(defect_probes(1, 1), scoring), scoring))


def _refusal(artifacts: list[tuple[str, Any]], scoring: Any = None) -> str:
    with pytest.raises(RefusedArtifactSet) as caught:
        aggregate(artifacts, scoring if scoring is not None else policy())
    assert caught.value.exit_code is ExitCode.REFUSED
    message = str(caught.value)
    assert "\n" not in message
    return message


TAMPERINGS = {
    "reduced-caught": lambda a: a["reduced_probe_outcomes"][0].update(caught=True),
    "outcome-state": lambda a: a["outcomes"][0].update(state="caught"),
    "rate": lambda a: a["strength"]["classes"]["defect"].update(rate=1.0),
    "caught-count": lambda a: a["strength"]["classes"]["defect"].update(caught=1),
    "comparable": lambda a: a["strength"].update(comparable=False),
    "comparability-key": lambda a: a.update(comparability_key="sha256:00"),
    "scoring-version": lambda a: a.update(scoring_version="sha256:00"),
    "verdict": lambda a: a.update(verdict={"value": "PASS", "reasons": []}),
    "trials-completed": lambda a: a["trials"].update(completed=5),
    "probe-severity": lambda a: a["probe"].update(severity="low"),
}


@pytest.mark.parametrize("tampering", list(TAMPERINGS))
def test_a_tampered_artifact_is_refused_naming_it(tampering: str) -> None:
    artifacts = artifacts_of(defect_probes(1, 1))
    name, artifact = artifacts[1]
    assert artifact["verdict"]["value"] == "FAIL"
    tampered = copy.deepcopy(artifact)
    TAMPERINGS[tampering](tampered)
    message = _refusal([artifacts[0], (name, tampered)])
    assert message.startswith(f"{name}: refused: the artifact contradicts itself")


def test_a_consistent_rewrite_is_not_detected_which_is_what_digests_are_for() -> None:
    scoring = policy()
    trials = probe_trials("d/m0", [MISSED])
    honest = evidence_artifact(trials, scoring, inputs_for(scoring))
    forged = evidence_artifact(probe_trials("d/m0", [CAUGHT]), scoring, inputs_for(scoring))
    result = aggregate([("forged.json", forged)], scoring)
    assert result["classes"]["defect"]["caught"] == 1
    assert result["artifacts"][0]["digest"] != artifact_digest(honest)


def test_policy_mismatches_are_refused() -> None:
    artifacts = artifacts_of(defect_probes(1, 0))
    assert _refusal(artifacts, policy(catch_threshold=0.6)) == (
        "out/d/c0.json: refused: catch_threshold differs from the given policy's"
    )
    assert _refusal(artifacts, policy(minimum_trial_count=2)).endswith(
        "minimum_trial_count differs from the given policy's"
    )
    assert _refusal(artifacts, policy(severity_floor="low")).endswith(
        "policy digest differs from the given policy's"
    )


def test_declared_floors_do_not_make_a_policy_mismatch() -> None:
    artifacts = artifacts_of(defect_probes(1, 0), policy())
    assert aggregate(artifacts, FLOORED)["policy"]["digest"] == policy().digest


def test_differing_scoring_versions_are_refused_naming_the_later_artifact() -> None:
    scoring = policy()
    first = evidence_artifact(probe_trials("d/a", [CAUGHT]), scoring, inputs_for(scoring))
    other = evidence_artifact(
        probe_trials("d/b", [CAUGHT]), scoring, inputs_for(scoring, corpus_digest="sha256:x")
    )
    assert _refusal([("a.json", first), ("b.json", other)]) == (
        "b.json: refused: scoring_version differs from that of a.json"
    )


def test_differing_attested_inputs_are_refused() -> None:
    scoring = policy()
    first = evidence_artifact(probe_trials("d/a", [CAUGHT]), scoring, inputs_for(scoring))
    other = evidence_artifact(
        probe_trials("d/b", [CAUGHT]), scoring, inputs_for(scoring), attested=["mode"]
    )
    assert _refusal([("a.json", first), ("b.json", other)]).startswith(
        "b.json: refused: attested_inputs differ"
    )


def test_two_artifacts_of_one_probe_are_refused() -> None:
    ((_, artifact),) = artifacts_of(defect_probes(1, 0))
    assert _refusal([("x.json", artifact), ("y.json", artifact)]) == (
        "y.json: refused: probe d/c0 is also scored by x.json"
    )


def test_the_first_offending_artifact_in_input_order_is_named() -> None:
    artifacts = artifacts_of(defect_probes(3, 0))
    broken = [(name, copy.deepcopy(a)) for name, a in artifacts]
    broken[1][1]["outcomes"][0]["state"] = "missed"
    broken[2][1]["outcomes"][0]["state"] = "missed"
    assert _refusal(broken).startswith("out/d/c1.json:")
    assert _refusal(list(reversed(broken))).startswith("out/d/c2.json:")


def test_a_malformed_artifact_is_an_input_error_not_a_refusal() -> None:
    ((name, artifact),) = artifacts_of(defect_probes(1, 0))
    malformed = copy.deepcopy(artifact)
    del malformed["verdict"]
    malformed["outcomes"][0]["state"] = "cought"
    with pytest.raises(InputError) as caught:
        aggregate([(name, malformed)], policy())
    assert caught.value.exit_code is ExitCode.INPUT_ERROR
    assert [p.render() for p in caught.value.problems] == [
        f"{name}: missing required key 'verdict'",
        f"{name}: outcomes[0].state: 'cought' is not one of caught, confirmed, missed, abstained,"
        " bypassed, passed-clean-control, false-positive, not-applicable, unreached, oracle-error,"
        " judge-error, infrastructure-error (did you mean 'caught'?)",
    ]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param(None, "missing required key 'reduced_probe_outcomes'", id="missing"),
        pytest.param([], "must hold exactly one reduced outcome (the probe's), got 0", id="empty"),
    ],
)
def test_missing_reduced_outcome_is_reported_once(value: list[Any] | None, expected: str) -> None:
    """Defect 7: not also every field of a ``reduced_probe_outcomes[0]`` that is not there."""
    ((name, artifact),) = artifacts_of(defect_probes(1, 0))
    malformed = copy.deepcopy(artifact)
    if value is None:
        del malformed["reduced_probe_outcomes"]
    else:
        malformed["reduced_probe_outcomes"] = value
    with pytest.raises(InputError) as caught:
        aggregate([(name, malformed)], policy())
    where = "" if value is None else "reduced_probe_outcomes: "
    assert [p.render() for p in caught.value.problems] == [f"{name}: {where}{expected}"]


def test_no_artifacts_is_an_input_error() -> None:
    with pytest.raises(InputError, match="no evidence artifacts"):
        aggregate([], policy())


MIXED = artifacts_of(
    [
        *defect_probes(2, 1),
        *gameability_probes(1, 1),
        probe_trials("z/idle", [OutcomeState.NOT_APPLICABLE], probe_class=ProbeClass.ZERO_ACTION),
        probe_trials("d/canary", [CAUGHT], canary=True),
        probe_trials("d/control", [OutcomeState.FALSE_POSITIVE], clean_control=True),
    ],
    FLOORED,
)


@settings(max_examples=40, deadline=None)
@given(st.permutations(MIXED))
def test_aggregate_bytes_do_not_depend_on_input_order(order: list[tuple[str, Any]]) -> None:
    assert render_json(aggregate(order, FLOORED)) == render_json(aggregate(MIXED, FLOORED))


def test_out_of_range_values_in_an_artifact_are_input_errors() -> None:
    ((name, artifact),) = artifacts_of(defect_probes(1, 0))
    malformed = copy.deepcopy(artifact)
    malformed["policy"]["minimum_trial_count"] = 0
    malformed["policy"]["catch_threshold"] = 1.5
    malformed["probe"]["canary"] = malformed["probe"]["clean_control"] = True
    with pytest.raises(InputError) as caught:
        aggregate([(name, malformed)], policy())
    assert [p.render() for p in caught.value.problems] == [
        f"{name}: policy.catch_threshold: must be in [0, 1], got 1.5",
        f"{name}: policy.minimum_trial_count: must be at least 1, got 0",
        f"{name}: probe: a probe cannot be both a canary and a clean control",
    ]


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*prefix, index))
    return found


((_, SAMPLE),) = artifacts_of([probe_trials("d/x", [CAUGHT, OutcomeState.ORACLE_ERROR, MISSED])])
SAMPLE_PATHS = _paths(SAMPLE)[1:]
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.floats(-2, 2) | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=3), inner, max_size=2)
    ),
    max_leaves=4,
)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(SAMPLE_PATHS), JSON_VALUES)
def test_any_edited_artifact_is_accepted_refused_or_an_input_error(
    path: tuple[Any, ...], replacement: Any
) -> None:
    edited = copy.deepcopy(SAMPLE)
    target = edited
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = replacement
    try:
        result = aggregate([("edited.json", edited)], policy())
    except (InputError, RefusedArtifactSet):
        return
    assert list(result["classes"]) == ["defect", "gameability", "zero-action"]
