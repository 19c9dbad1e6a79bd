"""Reduction of one probe's trials (SPEC §7 "Reduction")."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.strength.strength_builders import CAUGHT, MISSED, counted, probe_trials
from textcontract.model import Severity
from textcontract.strength import OutcomeState, StateGroup, is_caught, reduce_trials


def test_the_twelve_states_fall_into_seven_voted_two_unvoted_three_invalidating() -> None:
    groups = {state.value: state.group.value for state in OutcomeState}
    assert groups == {
        "caught": "voted",
        "confirmed": "voted",
        "missed": "voted",
        "abstained": "voted",
        "bypassed": "voted",
        "passed-clean-control": "voted",
        "false-positive": "voted",
        "not-applicable": "unvoted",
        "unreached": "unvoted",
        "oracle-error": "invalidating",
        "judge-error": "invalidating",
        "infrastructure-error": "invalidating",
    }
    assert {g.value for g in StateGroup} == {"voted", "unvoted", "invalidating"}


@pytest.mark.parametrize("n", range(1, 26))
def test_a_tie_is_never_caught_at_one_half(n: int) -> None:
    reduced = reduce_trials(probe_trials("c/v", counted(caught=n, missed=n)), 0.5)
    assert (reduced.caught_count, reduced.valid_count) == (n, 2 * n)
    assert reduced.exercised
    assert not reduced.caught


def test_one_more_caught_than_missed_is_caught_at_one_half() -> None:
    assert reduce_trials(probe_trials("c/v", counted(caught=2, missed=1)), 0.5).caught


def test_29_of_100_is_not_caught_at_029_but_30_of_100_is() -> None:
    assert not reduce_trials(probe_trials("c/v", counted(caught=29, missed=71)), 0.29).caught
    assert reduce_trials(probe_trials("c/v", counted(caught=30, missed=70)), 0.29).caught
    # multiplying instead of dividing would get 29/100 wrong: 0.29 * 100 < 29 in binary
    assert 0.29 * 100 < 29


def test_threshold_zero_catches_any_caught_vote_and_nothing_without_one() -> None:
    assert reduce_trials(probe_trials("c/v", counted(caught=1, missed=99)), 0.0).caught
    assert not reduce_trials(probe_trials("c/v", counted(missed=5)), 0.0).caught


def test_threshold_one_never_catches_even_a_unanimous_probe() -> None:
    reduced = reduce_trials(probe_trials("c/v", counted(caught=7)), 1.0)
    assert (reduced.caught_count, reduced.valid_count, reduced.caught) == (7, 7, False)


def test_invalidated_attempts_keep_their_trial_index() -> None:
    states = [CAUGHT, OutcomeState.INFRASTRUCTURE_ERROR, CAUGHT, OutcomeState.JUDGE_ERROR]
    reduced = reduce_trials(probe_trials("c/v", states, first_index=5), 0.5)
    assert reduced.to_json()["invalidated_attempts"] == [
        {"attempt": 6, "reason": "infrastructure-error"},
        {"attempt": 8, "reason": "judge-error"},
    ]
    assert [vote.trial_index for vote in reduced.trial_votes] == [5, 6, 7, 8]
    assert (reduced.valid_count, reduced.caught_count, reduced.caught) == (2, 2, True)


def test_unvoted_trials_leave_both_counts_and_all_unvoted_is_unexercised() -> None:
    states = [OutcomeState.NOT_APPLICABLE, OutcomeState.UNREACHED, OutcomeState.NOT_APPLICABLE]
    reduced = reduce_trials(probe_trials("c/v", states), 0.5)
    assert (reduced.valid_count, reduced.caught_count) == (0, 0)
    assert (reduced.exercised, reduced.caught) == (False, False)
    assert reduced.invalidated_attempts == ()
    assert len(reduced.trial_votes) == 3


def test_only_the_caught_state_counts_as_caught() -> None:
    states = [OutcomeState.CONFIRMED, OutcomeState.CONFIRMED, CAUGHT]
    reduced = reduce_trials(probe_trials("c/v", states), 0.5)
    assert (reduced.caught_count, reduced.valid_count, reduced.caught) == (1, 3, False)


def test_trial_votes_follow_trial_index_order_whatever_the_input_order() -> None:
    trials = probe_trials("c/v", [MISSED, CAUGHT, CAUGHT])
    shuffled = type(trials)(trials.probe, tuple(reversed(trials.outcomes)))
    assert [o.trial_index for o in shuffled.outcomes] == [0, 1, 2]
    assert reduce_trials(shuffled, 0.5) == reduce_trials(trials, 0.5)


def test_repeated_trial_index_is_refused() -> None:
    trials = probe_trials("c/v", [CAUGHT])
    with pytest.raises(ValueError, match="repeats a trial index"):
        type(trials)(trials.probe, trials.outcomes * 2)


def test_reduced_outcome_json_has_the_spec_keys_in_order() -> None:
    reduced = reduce_trials(probe_trials("c/v", [CAUGHT], severity=Severity.LOW), 1)
    assert reduced.to_json() == {
        "probe_id": "c/v",
        "severity": "low",
        "valid_count": 1,
        "caught_count": 1,
        "catch_threshold": 1.0,
        "exercised": True,
        "caught": False,
        "trial_votes": [{"trial_index": 0, "state": "caught"}],
        "invalidated_attempts": [],
    }
    assert list(reduced.to_json()) == [
        "probe_id",
        "severity",
        "valid_count",
        "caught_count",
        "catch_threshold",
        "exercised",
        "caught",
        "trial_votes",
        "invalidated_attempts",
    ]
    assert isinstance(reduced.to_json()["catch_threshold"], float)


@given(
    caught=st.integers(min_value=0, max_value=60),
    missed=st.integers(min_value=0, max_value=60),
    unvoted=st.integers(min_value=0, max_value=5),
    threshold=st.sampled_from([0.0, 0.1, 0.25, 0.29, 1 / 3, 0.5, 2 / 3, 0.75, 0.9, 1.0]),
)
def test_caught_iff_quotient_strictly_above_threshold(
    caught: int, missed: int, unvoted: int, threshold: float
) -> None:
    states = counted(caught=caught, missed=missed, not_applicable=unvoted)
    reduced = reduce_trials(probe_trials("c/v", states), threshold)
    valid = caught + missed
    assert reduced.valid_count == valid
    assert reduced.exercised == (valid > 0)
    expected = valid > 0 and caught / valid > threshold
    assert reduced.caught == expected == is_caught(caught, valid, threshold)
