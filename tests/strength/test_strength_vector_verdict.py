"""The strength vector, the run identities and the verdict ladder."""

from __future__ import annotations

import pytest

from tests.strength.strength_builders import (
    CAUGHT,
    MISSED,
    counted,
    inputs_for,
    policy,
    probe_trials,
    scored,
)
from textcontract.canonical import digest
from textcontract.errors import ExitCode
from textcontract.model import Severity
from textcontract.strength import (
    CoverageGap,
    OutcomeState,
    ProbeClass,
    ProbeTrials,
    VerdictReason,
    attested_inputs,
    comparability_key,
    control_preserved,
    ladder_verdict,
    score_probes,
)

UNREACHED = OutcomeState.UNREACHED
NOT_APPLICABLE = OutcomeState.NOT_APPLICABLE


def test_vector_counts_eligible_probes_only() -> None:
    result = scored(
        [
            probe_trials("a/caught", counted(caught=2, missed=1)),
            probe_trials("a/missed", counted(caught=1, missed=2)),
            probe_trials("a/idle", [NOT_APPLICABLE] * 3),
            probe_trials("a/canary", counted(caught=3), canary=True),
            probe_trials("a/control", counted(missed=3), clean_control=True),
            probe_trials("a/lazy", counted(caught=3), probe_class=ProbeClass.GAMEABILITY),
        ]
    )
    vector = result.vector.to_json()
    assert vector["classes"]["defect"] == {
        "eligible": 3,
        "caught": 1,
        "exercised": 2,
        "rate": 0.5,
        "denominator": "1 caught of 2 exercised defect probes (1 eligible unexercised; 9 completed"
        " trials)",
    }
    assert vector["classes"]["gameability"]["rate"] == 1.0
    assert vector["classes"]["zero-action"] == {
        "eligible": 0,
        "caught": 0,
        "exercised": 0,
        "rate": None,
        "denominator": "no eligible zero-action probe",
    }
    assert list(vector["classes"]) == ["defect", "gameability", "zero-action"]


def test_a_control_only_run_has_null_rates_everywhere() -> None:
    result = scored([probe_trials("c/ok", [OutcomeState.PASSED_CLEAN_CONTROL], clean_control=True)])
    assert [c.rate for c in result.vector.classes] == [None, None, None]
    assert result.verdict.to_json() == {"value": "PASS", "reasons": []}


def test_comparable_needs_minimum_trials_on_every_admitted_probe_including_controls() -> None:
    scoring = policy(minimum_trial_count=3)
    enough = probe_trials("a/p", counted(caught=3))
    thin_control = probe_trials("a/c", [OutcomeState.PASSED_CLEAN_CONTROL] * 2, clean_control=True)
    assert scored([enough], scoring).vector.comparable
    assert not scored([enough, thin_control], scoring).vector.comparable


def test_unreached_trials_make_the_vector_not_comparable_and_name_their_oracles() -> None:
    result = scored(
        [
            probe_trials("a/p", [CAUGHT, UNREACHED], oracle="r2:CODE:$"),
            probe_trials("a/q", [UNREACHED], oracle="r1:CODE:$"),
            probe_trials("a/canary", [UNREACHED], oracle="r2:CODE:$", canary=True),
        ]
    )
    assert not result.vector.comparable
    assert result.vector.unreached_oracles == ("r1:CODE:$", "r2:CODE:$")


def test_identities_follow_the_spec_definitions() -> None:
    scoring = policy()
    result = scored([probe_trials("b/2", [CAUGHT]), probe_trials("a/1", [CAUGHT])], scoring)
    inputs = inputs_for(scoring)
    assert result.scoring_version == digest(
        {
            "contract_format_version": 1,
            "corpus_digest": "sha256:corpus",
            "fixture_digest": "sha256:fixtures",
            "evaluator_configuration_digest": "sha256:contract",
            "scoring_policy_digest": scoring.digest,
            "mode": "contract-scoring",
        }
    )
    assert result.scoring_version == inputs.scoring_version
    assert result.comparability_key == digest({"policy": scoring.digest, "probes": ["a/1", "b/2"]})
    assert comparability_key(scoring.digest, ["b/2", "a/1"]) == result.comparability_key
    assert result.attested_inputs == ()
    assert [t.probe.probe_id for t in result.probes] == ["a/1", "b/2"]


def test_attested_inputs_are_sorted_unique_scoring_input_names() -> None:
    assert attested_inputs(["mode", "corpus_digest", "mode"]) == ("corpus_digest", "mode")
    with pytest.raises(ValueError, match="not scoring inputs: colour"):
        attested_inputs(["colour"])


def test_scoring_inputs_must_carry_the_policy_digest() -> None:
    with pytest.raises(ValueError, match="scoring_policy_digest"):
        score_probes([], policy(catch_threshold=0.7), inputs_for(policy()))


def test_duplicate_probe_ids_are_refused() -> None:
    with pytest.raises(ValueError, match="unique"):
        scored([probe_trials("a/1", [CAUGHT]), probe_trials("a/1", [MISSED])])


@pytest.mark.parametrize(
    ("outcomes", "preserved"),
    [
        ([OutcomeState.PASSED_CLEAN_CONTROL] * 2 + [OutcomeState.FALSE_POSITIVE], True),
        ([OutcomeState.PASSED_CLEAN_CONTROL, OutcomeState.FALSE_POSITIVE], False),
        ([OutcomeState.PASSED_CLEAN_CONTROL, NOT_APPLICABLE], False),
        ([], False),
    ],
    ids=["two-of-three", "tie", "one-of-two-with-unvoted", "no-trials"],
)
def test_a_control_is_preserved_iff_more_than_half_passed_clean(
    outcomes: list[OutcomeState], preserved: bool
) -> None:
    trials = probe_trials("c/ok", outcomes, clean_control=True)
    assert control_preserved(trials.outcomes) is preserved


PASSING_PROBE = probe_trials("p/ok", counted(caught=3))
LOW = Severity.LOW

RUNGS: dict[str, tuple[list[ProbeTrials], list[CoverageGap], bool, str]] = {
    "canary-missed": ([probe_trials("c/can", counted(missed=3), canary=True)], [], False, "FAIL"),
    "behavioural-failure-at-or-above-floor": (
        [probe_trials("p/x", counted(caught=1, missed=2))],
        [],
        False,
        "FAIL",
    ),
    "invalidated-trial-at-or-above-floor": (
        [probe_trials("p/x", [*counted(caught=3), OutcomeState.ORACLE_ERROR])],
        [],
        False,
        "FAIL",
    ),
    "integrity": ([PASSING_PROBE], [], True, "FAIL"),
    "below-minimum-trial-count": ([probe_trials("p/x", [CAUGHT])], [], False, "CONCERNS"),
    "oracle-unreached": (
        [probe_trials("p/x", [*counted(caught=3), UNREACHED])],
        [],
        False,
        "CONCERNS",
    ),
    "unexercised-probe": ([probe_trials("p/x", [NOT_APPLICABLE] * 3)], [], False, "CONCERNS"),
    "behavioural-failure-below-floor": (
        [probe_trials("p/x", counted(caught=1, missed=2), severity=LOW)],
        [],
        False,
        "CONCERNS",
    ),
    "invalidated-trial-below-floor": (
        [probe_trials("p/x", [*counted(caught=3), OutcomeState.JUDGE_ERROR], severity=LOW)],
        [],
        False,
        "CONCERNS",
    ),
    "clean-control-rejected": (
        [
            probe_trials(
                "c/ok", counted(false_positive=2, passed_clean_control=1), clean_control=True
            )
        ],
        [],
        False,
        "CONCERNS",
    ),
    "coverage-gap-at-or-above-floor": (
        [PASSING_PROBE],
        [CoverageGap("links", Severity.CRITICAL)],
        False,
        "CONCERNS",
    ),
}


@pytest.mark.parametrize("reason", list(RUNGS))
def test_each_rung_is_triggered_alone_by_a_minimal_case(reason: str) -> None:
    probes, gaps, integrity_failed, value = RUNGS[reason]
    verdict = ladder_verdict(
        probes, policy(minimum_trial_count=3), gaps, integrity_failed=integrity_failed
    )
    assert verdict.to_json() == {"value": value, "reasons": [reason]}


def test_rungs_are_the_spec_list_in_spec_order() -> None:
    """§7's rungs keep their order among §17.5's (tests/strength/test_strength_ladder.py)."""
    assert [reason.value for reason in VerdictReason if reason.value in RUNGS] == list(RUNGS)


def test_reasons_are_listed_once_each_in_ladder_order_and_fail_wins() -> None:
    probes = [
        probe_trials("p/low", counted(caught=1, missed=2), severity=LOW),
        probe_trials("p/low2", counted(caught=0, missed=2), severity=LOW),
        probe_trials("c/can", counted(missed=3), canary=True),
        probe_trials("p/thin", [CAUGHT]),
    ]
    verdict = ladder_verdict(probes, policy(minimum_trial_count=3), [])
    assert verdict.to_json() == {
        "value": "FAIL",
        "reasons": [
            "canary-missed",
            "below-minimum-trial-count",
            "behavioural-failure-below-floor",
        ],
    }
    assert verdict.value.exit_code is ExitCode.FAILED


def test_passing_run_passes_with_gaps_below_the_floor() -> None:
    verdict = ladder_verdict([PASSING_PROBE], policy(), [CoverageGap("tone", Severity.MEDIUM)])
    assert verdict.to_json() == {"value": "PASS", "reasons": []}
    assert verdict.value.exit_code is ExitCode.OK


def test_severity_floor_moves_a_behavioural_failure_between_fail_and_concerns() -> None:
    missed_medium = [probe_trials("p/x", counted(missed=1), severity=Severity.MEDIUM)]
    assert ladder_verdict(missed_medium, policy()).value.value == "CONCERNS"
    assert ladder_verdict(missed_medium, policy(severity_floor="medium")).value.value == "FAIL"


def test_unexercised_probe_is_not_a_behavioural_failure() -> None:
    verdict = ladder_verdict([probe_trials("p/x", [OutcomeState.INFRASTRUCTURE_ERROR])], policy())
    assert [r.value for r in verdict.reasons] == [
        "invalidated-trial-at-or-above-floor",
        "unexercised-probe",
    ]


def test_strength_block_has_vector_identities_and_probes_with_reductions() -> None:
    block = scored([probe_trials("a/1", [CAUGHT, MISSED, CAUGHT])]).strength_block_json()
    assert list(block) == [
        "classes",
        "comparable",
        "unreached_oracles",
        "comparability_key",
        "scoring_version",
        "scoring_version_inputs",
        "probes",
    ]
    (entry,) = block["probes"]
    assert list(entry) == [
        "probe_id",
        "class",
        "severity",
        "canary",
        "clean_control",
        "exposure",
        "trials_completed",
        "outcomes",
        "reduced",
    ]
    assert entry["trials_completed"] == 3
    assert entry["reduced"]["caught"] is True
