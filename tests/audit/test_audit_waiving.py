"""Waivers applied to records after evaluation (results/_waiving.py) are exactly SPEC §17.4's
waiving of each trial before its variant is judged: a differential property test on
generated trial results built to split the two, and the record-level rules around it."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from hypothesis import given
from hypothesis import strategies as st

from textcontract.audit.reading import Expectation, Relation
from textcontract.audit.results import (
    CaseRecord,
    Counted,
    ExcludedReason,
    ExpectedStatus,
    Labels,
    TrialResult,
    VariantRecord,
    probe_trials,
    violation_verdict,
    waive_counted,
    waive_record,
)
from textcontract.model import Severity
from textcontract.strength import OutcomeState, ProbeClass, Waiver, reduce_trials

_EXPECT = (
    Expectation("a", "CODE_A", "surface:body"),
    Expectation("b", "CODE_B", "surface:body"),
)
_NOT_CAUGHT = [
    OutcomeState.MISSED,
    OutcomeState.ORACLE_ERROR,
    OutcomeState.UNREACHED,
    OutcomeState.NOT_APPLICABLE,
    OutcomeState.INFRASTRUCTURE_ERROR,
]
_OPEN = [s for s in ExpectedStatus if s is not ExpectedStatus.VIOLATED]


def _labels(expected: int) -> Labels:
    return Labels(
        Relation.VIOLATION, ProbeClass.DEFECT, "f", Severity.HIGH, False, _EXPECT[:expected]
    )


@st.composite
def _trial(draw: st.DrawFn, index: int, expected: int) -> TrialResult:
    """A trial as matching makes one: caught exactly when every expectation is violated."""
    caught = draw(st.booleans())
    if caught:
        statuses = (ExpectedStatus.VIOLATED,) * expected
        return TrialResult(index, OutcomeState.CAUGHT, True, draw(st.booleans()), True, statuses)
    state = draw(st.sampled_from(_NOT_CAUGHT))
    statuses = tuple(draw(st.sampled_from(list(ExpectedStatus))) for _ in range(expected))
    if all(status is ExpectedStatus.VIOLATED for status in statuses):
        statuses = (draw(st.sampled_from(_OPEN)), *statuses[1:])
    if state is OutcomeState.INFRASTRUCTURE_ERROR:
        return TrialResult(index, state, False, False, False, (ExpectedStatus.ABSENT,) * expected)
    return TrialResult(index, state, True, draw(st.booleans()), draw(st.booleans()), statuses)


@st.composite
def _trials(draw: st.DrawFn) -> tuple[int, tuple[TrialResult, ...]]:
    expected = draw(st.integers(min_value=1, max_value=2))
    count = draw(st.integers(min_value=1, max_value=6))
    return expected, tuple(draw(_trial(index, expected)) for index in range(count))


def _judged(labels: Labels, results: tuple[TrialResult, ...], threshold: float) -> Counted:
    states = tuple(result.state for result in results)
    reduced = reduce_trials(probe_trials("", labels, states), threshold)
    waivers = tuple(result.waiver for result in results)
    named = waivers if any(waiver is not None for waiver in waivers) else ()
    return Counted(violation_verdict(results, reduced), states, named)


@given(
    trials=_trials(),
    threshold=st.sampled_from([0.0, 0.25, 0.5, 2 / 3, 0.99, 1.0]),
)
def test_waiving_a_record_is_waiving_its_trials_before_the_verdict(
    trials: tuple[int, tuple[TrialResult, ...]], threshold: float
) -> None:
    expected, results = trials
    labels = _labels(expected)
    waived_trials = tuple(
        replace(result, state=OutcomeState.NOT_APPLICABLE, waiver="w")
        if result.state is OutcomeState.MISSED
        else result
        for result in results
    )
    reference = _judged(labels, waived_trials, threshold)
    unwaived = _judged(labels, results, threshold)
    assert waive_counted(labels, unwaived, "w", threshold) == reference


_DAY = date(2026, 12, 31)


def _waiver(waiver_id: str, probes: tuple[str, ...] = (), rules: tuple[str, ...] = ()) -> Waiver:
    return Waiver(waiver_id, probes, rules, "reason", "j.doe", _DAY)


def _missed(labels: Labels) -> Counted:
    results = (TrialResult(0, OutcomeState.MISSED, True, True, True, (ExpectedStatus.SATISFIED,)),)
    return _judged(labels, results, 0.5)


def test_canaries_controls_and_exclusions_are_never_waived_and_the_lowest_id_wins() -> None:
    labels = _labels(1)
    canary = labels._replace(canary=True)
    control = labels._replace(relation=Relation.PRESERVE, expect=())
    record = CaseRecord(
        "c1",
        [
            VariantRecord("v", labels, _missed(labels)),
            VariantRecord("canary", canary, _missed(canary)),
            VariantRecord("control", control, _missed(control)),
            VariantRecord("gone", labels, ExcludedReason.IDENTICAL),
        ],
    )
    waivers = (_waiver("z-by-rule", rules=("a",)), _waiver("a-by-probe", probes=("c1/v",)))
    found = list(waive_record(record, waivers, _DAY, 0.5).variants)
    first = found[0].result
    assert isinstance(first, Counted)
    assert first.waivers == ("a-by-probe",)
    assert first.states == (OutcomeState.NOT_APPLICABLE,)
    assert first.verdict.reason == "waived"
    assert [variant.result for variant in found[1:]] == [
        variant.result for variant in list(record.variants)[1:]
    ]
    # expired the day after: nothing changes, and the record itself is returned
    assert waive_record(record, waivers, date(2027, 1, 1), 0.5) is record
