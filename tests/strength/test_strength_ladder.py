"""The §17.5 ladder: INVALID > FAIL > CONCERNS > WAIVED > PASS, reasons in table order."""

from __future__ import annotations

import pytest

from tests.strength.strength_builders import CAUGHT, MISSED, counted, policy, probe_trials
from textcontract.errors import ExitCode
from textcontract.model import Severity
from textcontract.strength import (
    INVALID_REASONS,
    PRODUCTION,
    OutcomeState,
    Probe,
    ProbeClass,
    ProbeTrials,
    Recommendation,
    TrialOutcome,
    Verdict,
    VerdictReason,
    VerdictValue,
    ladder_verdict,
)

NA = OutcomeState.NOT_APPLICABLE
INFRA = OutcomeState.INFRASTRUCTURE_ERROR

LADDER = [
    ("canary-missed", "FAIL"),
    ("behavioural-failure-at-or-above-floor", "FAIL"),
    ("invalidated-trial-at-or-above-floor", "FAIL"),
    ("integrity", "FAIL"),
    ("evaluator-recommendation-fail", "FAIL"),
    ("below-minimum-trial-count", "CONCERNS"),
    ("oracle-unreached", "CONCERNS"),
    ("unexercised-probe", "CONCERNS"),
    ("behavioural-failure-below-floor", "CONCERNS"),
    ("invalidated-trial-below-floor", "CONCERNS"),
    ("clean-control-rejected", "CONCERNS"),
    ("coverage-gap-at-or-above-floor", "CONCERNS"),
    ("evaluator-recommendation-concerns", "CONCERNS"),
    ("waiver-honoured", "WAIVED"),
]
"""SPEC §17.5's table, rows 1-14, in order."""
INVALID = [
    "preflight-failed",
    "preflight-mismatch",
    "trial-set-disagreement",
    "repeated-trial-index",
    "duplicate-probe-outcome",
    "unhonourable-waiver",
    "re-execution-cap-exceeded",
]


def waived(probe_id: str, states: list[OutcomeState], waivers: list[str | None]) -> ProbeTrials:
    probe = Probe(probe_id, ProbeClass.DEFECT, Severity.HIGH)
    return ProbeTrials(
        probe,
        tuple(
            TrialOutcome(i, "r:C:$", state, waiver)
            for i, (state, waiver) in enumerate(zip(states, waivers, strict=True))
        ),
    )


def test_the_reasons_are_the_table_then_invalids_own() -> None:
    assert [reason.value for reason in VerdictReason] == [code for code, _ in LADDER] + INVALID
    assert [reason.value for reason in INVALID_REASONS] == INVALID
    for code, tier in LADDER:
        assert VerdictReason(code).value_when_held.value == tier
    for code in INVALID:
        assert VerdictReason(code).value_when_held is VerdictValue.INVALID


@pytest.mark.parametrize(
    ("held", "value"),
    [
        ({"waiver-honoured"}, "WAIVED"),
        ({"waiver-honoured", "oracle-unreached"}, "CONCERNS"),
        ({"waiver-honoured", "evaluator-recommendation-concerns", "canary-missed"}, "FAIL"),
        ({"canary-missed", "re-execution-cap-exceeded"}, "INVALID"),
        (set(), "PASS"),
    ],
)
def test_the_value_is_the_highest_tier_holding(held: set[str], value: str) -> None:
    assert Verdict.from_reasons(VerdictReason(code) for code in held).value.value == value


def test_below_invalid_every_reason_is_listed_and_invalid_lists_only_its_own() -> None:
    verdict = Verdict.from_reasons(
        VerdictReason(code) for code in ("waiver-honoured", "canary-missed", "oracle-unreached")
    )
    assert [r.value for r in verdict.reasons] == [
        "canary-missed",
        "oracle-unreached",
        "waiver-honoured",
    ]
    invalid = Verdict.from_reasons(
        VerdictReason(code)
        for code in ("re-execution-cap-exceeded", "canary-missed", "preflight-failed")
    )
    assert invalid.to_json() == {
        "value": "INVALID",
        "reasons": ["preflight-failed", "re-execution-cap-exceeded"],
    }


@pytest.mark.parametrize(
    ("value", "code"),
    [("INVALID", 5), ("FAIL", 1), ("CONCERNS", 0), ("WAIVED", 0), ("PASS", 0)],
)
def test_exit_codes_per_tier(value: str, code: int) -> None:
    assert VerdictValue(value).exit_code == ExitCode(code)


def test_production_rungs_read_the_recommendation_in_production_only() -> None:
    probes = [probe_trials("p/x", counted(caught=3))]
    for recommendation, reasons in (
        (Recommendation.FAIL, ["evaluator-recommendation-fail"]),
        (Recommendation.CONCERNS, ["evaluator-recommendation-concerns"]),
        (Recommendation.PASS, []),
    ):
        production = ladder_verdict(
            probes, policy(), mode=PRODUCTION, recommendation=recommendation
        )
        assert [r.value for r in production.reasons] == reasons
        scoring = ladder_verdict(
            probes, policy(), mode="contract-scoring", recommendation=recommendation
        )
        assert scoring.to_json() == {"value": "PASS", "reasons": []}


def test_integrity_rungs_apply_in_production_too() -> None:
    probes = [probe_trials("p/x", counted(caught=1, missed=2))]
    verdict = ladder_verdict(probes, policy(), mode=PRODUCTION, recommendation=Recommendation.PASS)
    assert verdict.to_json() == {
        "value": "FAIL",
        "reasons": ["behavioural-failure-at-or-above-floor"],
    }


def test_a_waived_probe_without_a_vote_is_not_unexercised() -> None:
    all_waived = waived("p/b", [NA, NA, NA], ["w", "w", "w"])
    assert ladder_verdict([all_waived], policy()).to_json() == {
        "value": "WAIVED",
        "reasons": ["waiver-honoured"],
    }
    plain = probe_trials("p/b", [NA, NA, NA])
    assert [r.value for r in ladder_verdict([plain], policy()).reasons] == ["unexercised-probe"]


def test_waiver_honoured_holds_for_any_admitted_probe_with_a_waived_outcome() -> None:
    partly = waived("p/a", [NA, CAUGHT, CAUGHT], ["w", None, None])
    verdict = ladder_verdict([partly, probe_trials("p/z", counted(caught=3))], policy())
    assert verdict.to_json() == {"value": "WAIVED", "reasons": ["waiver-honoured"]}


def test_a_waiver_is_only_carried_by_a_not_applicable_trial() -> None:
    with pytest.raises(ValueError, match="not-applicable"):
        TrialOutcome(0, None, MISSED, "w")


@pytest.mark.parametrize(
    ("cap", "value", "reasons"),
    [
        (0, "INVALID", ["re-execution-cap-exceeded"]),
        (1, "INVALID", ["re-execution-cap-exceeded"]),
        (2, "FAIL", ["invalidated-trial-at-or-above-floor"]),
        (None, "FAIL", ["invalidated-trial-at-or-above-floor"]),
    ],
)
def test_the_cap_counts_invalidated_attempts_of_every_admitted_probe(
    cap: int | None, value: str, reasons: list[str]
) -> None:
    scoring = policy() if cap is None else policy(re_execution_cap=cap)
    probes = [probe_trials("p/x", [INFRA, INFRA, CAUGHT])]
    assert ladder_verdict(probes, scoring).to_json() == {"value": value, "reasons": reasons}
    control = probe_trials(
        "p/c",
        [INFRA, INFRA, *[OutcomeState.PASSED_CLEAN_CONTROL] * 3],
        clean_control=True,
    )
    control_verdict = ladder_verdict([control], scoring).value.value
    assert control_verdict == ("INVALID" if cap is not None and cap < 2 else "PASS")
