"""The record checks ``merge`` runs (SPEC §22) against the audit's own way of making records.

``record_fault`` derives a record's outcome, reason, expected statuses and waivers again
from its trial states: a second way of computing what matching, the figures and waiving
computed. Records made the audit's way — trials matched against generated checks
(:func:`violation_trial`, :func:`control_trial`, :func:`failed_trial`), verdicts from
:func:`violation_verdict` / :func:`preserve_verdict`, waivers applied by
:func:`waive_record` — must never be refused, whatever the checks, trial count, catch
threshold and waivers; and a record whose outcome is flipped always is.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from textcontract.audit import Expectation, ExpectedStatus, Relation
from textcontract.audit.results import (
    CaseRecord,
    Counted,
    Labels,
    RunRules,
    TrialResult,
    VariantRecord,
    control_trial,
    failed_trial,
    preserve_verdict,
    probe_trials,
    record_fault,
    violation_trial,
    violation_verdict,
    waive_record,
)
from textcontract.audit.results._figures import Outcome, VariantVerdict
from textcontract.model import Check, Enforcement, Kind, Severity, Status
from textcontract.strength import OutcomeState, ProbeClass, Waiver, reduce_trials

RULES = ("a", "b", "c")
CODES = ("X", "Y")
SCOPES = ("surface:body", "surface:subject")
AS_OF = date(2026, 6, 1)


@dataclass(frozen=True)
class Judged:
    """A trial's check run as matching reads it (accepted and complete drawn freely)."""

    checks: tuple[Check, ...]
    accepted: bool
    complete: bool


def _check(rule: str, code: str, scope: str, status: Status) -> Check:
    return Check(rule, 1, "T", Kind.INVARIANT, status, code, scope, Severity.HIGH,
                 Enforcement.BLOCKING)  # fmt: skip


checks = st.builds(
    _check,
    st.sampled_from((*RULES, "other")),
    st.sampled_from((*CODES, "ELSE")),
    st.sampled_from(SCOPES),
    st.sampled_from(list(Status)),
)
judged = st.builds(Judged, st.lists(checks, max_size=6).map(tuple), st.booleans(), st.booleans())
expectations = st.lists(
    st.builds(Expectation, st.sampled_from(RULES), st.sampled_from(CODES), st.sampled_from(SCOPES)),
    min_size=1,
    max_size=3,
    unique=True,
)
thresholds = st.sampled_from([0.0, 0.29, 0.5, 0.99, 1.0])


def _labels(relation: Relation, expect: list[Expectation], canary: bool) -> Labels:
    return Labels(relation, ProbeClass.DEFECT, "f", Severity.HIGH, canary, tuple(expect))


def _violation(labels: Labels, runs: list[Judged | None], threshold: float) -> Counted:
    trials: list[TrialResult] = [
        failed_trial(index, Relation.VIOLATION, len(labels.expect))
        if run is None
        else violation_trial(index, run, labels.expect)
        for index, run in enumerate(runs)
    ]
    states = tuple(trial.state for trial in trials)
    reduced = reduce_trials(probe_trials("", labels, states), threshold)
    return Counted(violation_verdict(trials, reduced), states)


def _control(runs: list[Judged | None]) -> Counted:
    trials = [
        failed_trial(index, Relation.PRESERVE, 0) if run is None else control_trial(index, run)
        for index, run in enumerate(runs)
    ]
    return Counted(preserve_verdict(trials), tuple(trial.state for trial in trials))


@st.composite
def audited(draw: st.DrawFn) -> tuple[CaseRecord, RunRules]:
    """One variant's record as an audit makes it, and the run it was made in."""
    threshold = draw(thresholds)
    runs = draw(st.lists(st.none() | judged, min_size=1, max_size=4))
    if draw(st.booleans()):
        labels = _labels(Relation.PRESERVE, [], False)
        counted = _control(runs)
    else:
        labels = _labels(Relation.VIOLATION, draw(expectations), draw(st.booleans()))
        counted = _violation(labels, runs, threshold)
    record = CaseRecord("c1", [VariantRecord("v1", labels, counted)])
    scope = draw(st.sampled_from([((), ("a",)), (("c1/v1",), ()), (("c9/v9",), ("b",))]))
    expires = draw(st.sampled_from([date(2026, 12, 31), date(2026, 1, 31)]))
    waivers = (Waiver("w-2", *scope, "r", "j", expires), Waiver("w-1", *scope, "r", "j", expires))
    if draw(st.booleans()):
        return record, RunRules(threshold)
    waived = waive_record(record, waivers, AS_OF, threshold)
    return waived, RunRules(threshold, waivers, AS_OF)


@settings(max_examples=200, deadline=None)
@given(audited())
def test_a_record_made_the_audits_way_is_never_refused(made: tuple[CaseRecord, RunRules]) -> None:
    record, run = made
    assert record_fault(record, run) is None


_FLIPPED = {
    Outcome.DETECTED: Outcome.UNDETECTED,
    Outcome.UNDETECTED: Outcome.DETECTED,
    Outcome.PRESERVED: Outcome.NOT_PRESERVED,
    Outcome.NOT_PRESERVED: Outcome.PRESERVED,
}


@settings(max_examples=100, deadline=None)
@given(audited())
def test_a_record_whose_outcome_is_flipped_is_always_refused(
    made: tuple[CaseRecord, RunRules],
) -> None:
    record, run = made
    variant = next(record.variants)
    assert isinstance(variant.result, Counted)
    verdict = variant.result.verdict
    flipped = VariantVerdict(_FLIPPED[verdict.outcome], verdict.reason, verdict.statuses)
    forged = variant.result._replace(verdict=flipped)
    fault = record_fault(CaseRecord("c1", [variant._replace(result=forged)]), run)
    assert fault is not None
    assert fault.variant == 0
    assert "its outcome is" in fault.message


V, S, A = ExpectedStatus.VIOLATED, ExpectedStatus.SATISFIED, ExpectedStatus.ABSENT
U, E = ExpectedStatus.UNDETERMINED, ExpectedStatus.ERROR


@pytest.mark.parametrize(
    ("state", "statuses", "fits"),
    [
        (OutcomeState.CAUGHT, (V, V), True),
        (OutcomeState.CAUGHT, (V, S), False),
        (OutcomeState.MISSED, (V, V), False),
        (OutcomeState.MISSED, (V, S), True),
        (OutcomeState.MISSED, (A,), True),
        (OutcomeState.MISSED, (U,), False),
        (OutcomeState.MISSED, (E,), False),
        (OutcomeState.UNREACHED, (S,), False),
        (OutcomeState.UNREACHED, (V, U), True),
        (OutcomeState.NOT_APPLICABLE, (S,), False),
        (OutcomeState.NOT_APPLICABLE, (S, A), True),
        (OutcomeState.ORACLE_ERROR, (E,), True),
        (OutcomeState.ORACLE_ERROR, (S,), True),
        (OutcomeState.INFRASTRUCTURE_ERROR, (A, A), True),
        (OutcomeState.INFRASTRUCTURE_ERROR, (S,), False),
    ],
)
def test_the_statuses_a_trial_state_allows(
    state: OutcomeState, statuses: tuple[ExpectedStatus, ...], fits: bool
) -> None:
    expect = [Expectation("a", "X", f"surface:s{i}") for i in range(len(statuses))]
    labels = _labels(Relation.VIOLATION, expect, False)
    outcome = Outcome.DETECTED if state is OutcomeState.CAUGHT else Outcome.UNDETECTED
    reason = {
        OutcomeState.CAUGHT: None,
        OutcomeState.MISSED: "accepted",
        OutcomeState.UNREACHED: "undetermined",
        OutcomeState.NOT_APPLICABLE: "not-applicable",
        OutcomeState.ORACLE_ERROR: "error",
        OutcomeState.INFRASTRUCTURE_ERROR: "infrastructure-error",
    }[state]
    counted = Counted(VariantVerdict(outcome, reason, statuses), (state,))
    fault = record_fault(CaseRecord("c1", [VariantRecord("v1", labels, counted)]), RunRules(0.5))
    assert (fault is None) is fits, fault
