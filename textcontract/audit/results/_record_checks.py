"""What a case record's own fields must say of each other (SPEC §22, ``merge``).

``merge`` sums up the case records of the part files, so every field of a record that
follows from its other fields is derived again here and compared: the outcome from the
trial states (reduced with the run's catch threshold), the reason from the first trial that
was not caught (or not clean), the expected statuses against the state of the trial they
were read from, and the waiver each trial names from the waivers the run declared and its
date. A record no audit can write — a preserve variant with expectations or marked canary,
a violation without expectations, a state the variant's relation never has, an id outside
the id pattern or given twice — is at fault too.

What cannot be derived from a record is trusted: each trial's state, the statuses of the
checks behind the expected statuses, and whether a missed trial's report was accepted
(``accepted`` or ``unrelated-rejection``) or a false positive's rejected (``rejected`` or
``incomplete``). docs/scale.md says so.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date

from textcontract.audit.reading import ID_PATTERN, Relation
from textcontract.audit.results._figures import (
    BELOW_CATCH_THRESHOLD,
    Outcome,
    control_reasons,
    violation_reasons,
)
from textcontract.audit.results._matching import ExpectedStatus
from textcontract.audit.results._strength import probe_trials
from textcontract.audit.results._variant_records import CaseRecord, Counted, Labels
from textcontract.strength import OutcomeState, Waiver, covering_waiver, reduce_trials

__all__ = ["RecordFault", "RunRules", "record_fault"]

_VIOLATION_STATES = frozenset(
    {
        OutcomeState.CAUGHT,
        OutcomeState.MISSED,
        OutcomeState.NOT_APPLICABLE,
        OutcomeState.UNREACHED,
        OutcomeState.ORACLE_ERROR,
        OutcomeState.INFRASTRUCTURE_ERROR,
    }
)
"""The states an audit gives a violation's trial (SPEC §6 "Matching", §7)."""
_CONTROL_STATES = frozenset(
    {
        OutcomeState.PASSED_CLEAN_CONTROL,
        OutcomeState.FALSE_POSITIVE,
        OutcomeState.INFRASTRUCTURE_ERROR,
    }
)
"""The states an audit gives a valid variation's trial."""


@dataclass(frozen=True)
class RunRules:
    """What the run says every record must agree with: its catch threshold, and the
    waivers it declared with the date they were judged on (``None``: none declared)."""

    catch_threshold: float
    waivers: tuple[Waiver, ...] = ()
    as_of: date | None = None


@dataclass(frozen=True)
class RecordFault:
    """Where a record disagrees with itself: the variant (its index in the case record;
    ``None`` for the case's own id) and what is wrong."""

    variant: int | None
    message: str


def _json(value: object) -> str:
    """A value as the part's JSON shows it."""
    return json.dumps(value, ensure_ascii=False)


def _label_fault(labels: Labels) -> str | None:
    if labels.relation is Relation.VIOLATION:
        return None if labels.expect else "a violation without expectations"
    if labels.expect:
        return "a preserve variant with expectations"
    if labels.canary:
        return "a preserve variant marked canary (only violations are canaries)"
    return None


def _state_fault(labels: Labels, states: tuple[OutcomeState, ...]) -> str | None:
    violation = labels.relation is Relation.VIOLATION
    allowed = _VIOLATION_STATES if violation else _CONTROL_STATES
    for index, state in enumerate(states):
        if state not in allowed:
            whose = "a violation's" if violation else "a preserve variant's"
            return f"trial {index}'s state {_json(state.value)} is never {whose}"
    return None


def _waiver_fault(probe_id: str, labels: Labels, counted: Counted, run: RunRules) -> str | None:
    """Each trial names the waiver that covers the probe on the run's date exactly when
    it was missed (SPEC §17.4): the in-force waiver with the lowest id."""
    if labels.relation is Relation.PRESERVE or labels.canary:
        if counted.waivers:
            return "a waiver is named, but only eligible violations are waived"
        return None
    rules = [expectation.rule for expectation in labels.expect]
    covering = None
    if run.as_of is not None:
        covering = covering_waiver(run.waivers, probe_id, rules, run.as_of)
    declared = {waiver.id for waiver in run.waivers}
    for index, state in enumerate(counted.states):
        named = counted.waiver(index)
        if named is not None and (covering is None or named != covering.id):
            said = f"trial {index} names waiver {_json(named)}"
            if named not in declared:
                return f"{said}, which the run does not declare"
            if covering is None:
                return f"{said}, which does not cover it on {run.as_of}"
            return f"{said}, but {_json(covering.id)} is the one covering it"
        if state is OutcomeState.MISSED and covering is not None:
            waiver = _json(covering.id)
            return f"trial {index} is missed, but waiver {waiver} covers it on {run.as_of}"
    return None


def _outcome(labels: Labels, counted: Counted, catch_threshold: float) -> Outcome:
    states = counted.states
    if labels.relation is Relation.PRESERVE:
        clean = sum(1 for state in states if state is OutcomeState.PASSED_CLEAN_CONTROL)
        return Outcome.PRESERVED if 2 * clean > len(states) else Outcome.NOT_PRESERVED
    trials = probe_trials("", labels, states, counted.waivers)
    caught = reduce_trials(trials, catch_threshold).caught
    return Outcome.DETECTED if caught else Outcome.UNDETECTED


def _first(states: tuple[OutcomeState, ...], held: OutcomeState) -> int | None:
    return next((index for index, state in enumerate(states) if state is not held), None)


def _reasons(
    labels: Labels, counted: Counted, outcome: Outcome
) -> tuple[tuple[str | None, ...], int]:
    """The reasons the record may give, and the trial its expected statuses come from (the
    first trial when it held, else the first trial that was not caught, or not clean)."""
    states = counted.states
    if outcome in (Outcome.DETECTED, Outcome.PRESERVED):
        return (None,), 0
    if labels.relation is Relation.PRESERVE:
        unclean = _first(states, OutcomeState.PASSED_CLEAN_CONTROL)
        assert unclean is not None  # not preserved: at most half of the trials are clean
        return control_reasons(states[unclean]), unclean
    missed = _first(states, OutcomeState.CAUGHT)
    if missed is None:
        return (BELOW_CATCH_THRESHOLD,), 0
    return violation_reasons(states[missed], counted.waiver(missed) is not None), missed


def _statuses_fit(state: OutcomeState, statuses: tuple[ExpectedStatus, ...]) -> bool:
    """Whether a violation's trial in ``state`` can have these expected statuses (SPEC §6
    "Matching"): caught iff every one is violated; an ``error`` status only with
    ``oracle-error``; ``unreached`` needs an ``undetermined`` one, and ``missed`` (waived
    or not) and ``not-applicable`` have none, ``not-applicable`` an ``absent`` one; an
    ``infrastructure-error`` trial has every status ``absent``."""
    found = set(statuses)
    if state is OutcomeState.CAUGHT or found == {ExpectedStatus.VIOLATED}:
        return state is OutcomeState.CAUGHT and found == {ExpectedStatus.VIOLATED}
    if ExpectedStatus.ERROR in found and state is not OutcomeState.ORACLE_ERROR:
        return False
    undetermined = ExpectedStatus.UNDETERMINED in found
    if state is OutcomeState.UNREACHED:
        return undetermined
    if state is OutcomeState.NOT_APPLICABLE:
        return not undetermined and ExpectedStatus.ABSENT in found
    if state is OutcomeState.MISSED:
        return not undetermined
    if state is OutcomeState.INFRASTRUCTURE_ERROR:
        return found == {ExpectedStatus.ABSENT}
    return True


def _verdict_fault(labels: Labels, counted: Counted, catch_threshold: float) -> str | None:
    """The outcome, reason and expected statuses against the trial states."""
    states, verdict = counted.states, counted.verdict
    shown = _json([state.value for state in states])
    outcome = _outcome(labels, counted, catch_threshold)
    if verdict.outcome is not outcome:
        given, derived = _json(verdict.outcome.value), _json(outcome.value)
        return f"its outcome is {given}, its trial states {shown} give {derived}"
    reasons, reference = _reasons(labels, counted, outcome)
    if verdict.reason not in reasons:
        allowed = " or ".join(_json(reason) for reason in reasons)
        return f"its reason is {_json(verdict.reason)}, its trial states {shown} give {allowed}"
    state = states[reference]
    if counted.waiver(reference) is not None:
        state = OutcomeState.MISSED  # a waived trial was missed
    if labels.relation is Relation.VIOLATION and not _statuses_fit(state, verdict.statuses):
        statuses = _json([status.value for status in verdict.statuses])
        trial = f"trial {reference}, {_json(states[reference].value)}"
        return f"its statuses {statuses} cannot be those of {trial}"
    return None


def _counted_fault(probe_id: str, labels: Labels, counted: Counted, run: RunRules) -> str | None:
    return (
        _state_fault(labels, counted.states)
        or _waiver_fault(probe_id, labels, counted, run)
        or _verdict_fault(labels, counted, run.catch_threshold)
    )


def _variant_faults(record: CaseRecord, run: RunRules) -> Iterator[RecordFault]:
    seen: dict[str, int] = {}
    for index, variant in enumerate(record.variants):
        if not ID_PATTERN.match(variant.variant):
            yield RecordFault(index, f"its variant id {_json(variant.variant)} is not an id")
        if variant.variant in seen:
            yield RecordFault(index, f"its variant id is also variant {seen[variant.variant]}'s")
        seen[variant.variant] = index
        fault = _label_fault(variant.labels)
        if fault is None and isinstance(variant.result, Counted):
            probe_id = f"{record.case}/{variant.variant}"
            fault = _counted_fault(probe_id, variant.labels, variant.result, run)
        if fault is not None:
            yield RecordFault(index, fault)


def record_fault(record: CaseRecord, run: RunRules) -> RecordFault | None:
    """The first place where ``record`` disagrees with itself or with ``run``; ``None``
    when every derived field is what the others give."""
    if not ID_PATTERN.match(record.case):
        return RecordFault(None, f"its case id {_json(record.case)} is not an id")
    return next(_variant_faults(record, run), None)
