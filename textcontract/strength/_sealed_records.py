"""Sealed trial records: written by ``audit --records``, read and scored by ``score``.

A record that cannot be read is an input error (exit 2). Well-formed records that
contradict each other are evidence about the run: ``score`` answers them with an
INVALID object (exit 5), as it does a failed or mismatched preflight verdict, a waiver
it cannot honour and a breached re-execution cap (SPEC §17.5).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from textcontract._engine import engine_identity
from textcontract.canonical import canonical_json
from textcontract.errors import InputError, Location, Problem
from textcontract.fields import FieldReader
from textcontract.strength._artifact import RunEvidence, evidence_artifact
from textcontract.strength._identity import (
    CONTRACT_FORMAT_VERSION,
    CONTRACT_SCORING,
    MODES,
    PRODUCTION,
    ScoringVersionInputs,
    attested_inputs,
)
from textcontract.strength._policy import ScoringPolicy
from textcontract.strength._preflight_claims import PreflightClaims
from textcontract.strength._probe import Probe, ProbeTrials, TrialOutcome
from textcontract.strength._provenance import SourceRevision
from textcontract.strength._states import OutcomeState, StateGroup
from textcontract.strength._verdict import Recommendation, Verdict, VerdictReason
from textcontract.strength._waivers import Waiver, oracle_rules

__all__ = [
    "INVALID_VERSION",
    "RECORD_VERSION",
    "RecordOutcome",
    "SealedRecord",
    "build_trial_records",
    "invalid_json",
    "parse_record",
    "score_records",
    "trial_record_path",
]

RECORD_VERSION = 1
INVALID_VERSION = 1

_RECORD_KEYS = (
    "record_version",
    "run_id",
    "trial_index",
    "mode",
    "contract_digest",
    "evaluator_configuration_digest",
    "evaluator_recommendation",
    "outcomes",
)
_SHARED_FIELDS = (
    "run_id",
    "mode",
    "contract_digest",
    "evaluator_configuration_digest",
    "evaluator_recommendation",
)


@dataclass(frozen=True)
class RecordOutcome:
    probe_id: str
    oracle: str | None
    state: OutcomeState
    waiver: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The record's outcome; ``waiver`` is written only when set (the key is optional)."""
        found: dict[str, Any] = {
            "probe_id": self.probe_id,
            "oracle": self.oracle,
            "state": self.state.value,
        }
        if self.waiver is not None:
            found["waiver"] = self.waiver
        return found


@dataclass(frozen=True)
class SealedRecord:
    """One trial of a run; ``source`` is the file name used in messages."""

    run_id: str
    trial_index: int
    mode: str
    contract_digest: str
    evaluator_configuration_digest: str
    evaluator_recommendation: Any
    """Any JSON value in contract-scoring (never read there); PASS, CONCERNS or FAIL in
    production. Records of one set must agree on it."""
    outcomes: tuple[RecordOutcome, ...]
    source: str | None = None

    def outcomes_for(self, probe_id: str) -> tuple[RecordOutcome, ...]:
        return tuple(outcome for outcome in self.outcomes if outcome.probe_id == probe_id)

    def outcome_for(self, probe_id: str) -> RecordOutcome | None:
        found = self.outcomes_for(probe_id)
        return found[0] if found else None

    def to_json(self) -> dict[str, Any]:
        return {
            "record_version": RECORD_VERSION,
            "run_id": self.run_id,
            "trial_index": self.trial_index,
            "mode": self.mode,
            "contract_digest": self.contract_digest,
            "evaluator_configuration_digest": self.evaluator_configuration_digest,
            "evaluator_recommendation": self.evaluator_recommendation,
            "outcomes": [outcome.to_json() for outcome in self.outcomes],
        }


def _read_outcome(reader: FieldReader, item: Any, index: int) -> RecordOutcome:
    path = ("outcomes", index)
    entry = reader.mapping(
        item, path, required=("probe_id", "oracle", "state"), optional=("waiver",)
    )
    state = reader.choice(entry["state"], (*path, "state"), OutcomeState)
    waiver = reader.optional_string(entry.get("waiver"), (*path, "waiver"))
    if waiver is not None and state is not OutcomeState.NOT_APPLICABLE:
        reader.problem(
            (*path, "waiver"), f"a waiver is allowed only with state not-applicable, not {state}"
        )
    return RecordOutcome(
        reader.string(entry["probe_id"], (*path, "probe_id")),
        reader.optional_string(entry["oracle"], (*path, "oracle")),
        state,
        waiver,
    )


def _read_mode(reader: FieldReader, fields: dict[str, Any]) -> str:
    mode = reader.string(fields["mode"], ("mode",))
    if mode and mode not in MODES:
        reader.problem(("mode",), f"{mode!r} is not one of {', '.join(MODES)}")
    recommendation = fields["evaluator_recommendation"]
    allowed = [member.value for member in Recommendation]
    if mode == PRODUCTION and recommendation not in allowed:
        reader.problem(
            ("evaluator_recommendation",),
            f"a production record needs one of {', '.join(allowed)}, got {recommendation!r}",
        )
    return mode


def parse_record(obj: Any, source: str | None) -> SealedRecord:
    """Validate one sealed trial record; every problem of the file is reported at once.

    Two outcomes for one probe are read as they are: for the probe being scored they
    make the run INVALID (``duplicate-probe-outcome``), for another probe they are
    ignored like the rest of that probe's outcomes.
    """
    reader = FieldReader(source)
    fields = reader.mapping(obj, (), required=_RECORD_KEYS)
    reader.expect_equal(fields["record_version"], ("record_version",), RECORD_VERSION)
    outcomes = tuple(
        _read_outcome(reader, item, index)
        for index, item in enumerate(reader.sequence(fields["outcomes"], ("outcomes",)))
    )
    record = SealedRecord(
        run_id=reader.string(fields["run_id"], ("run_id",)),
        trial_index=reader.integer(fields["trial_index"], ("trial_index",), minimum=0),
        mode=_read_mode(reader, fields),
        contract_digest=reader.string(fields["contract_digest"], ("contract_digest",)),
        evaluator_configuration_digest=reader.string(
            fields["evaluator_configuration_digest"], ("evaluator_configuration_digest",)
        ),
        evaluator_recommendation=fields["evaluator_recommendation"],
        outcomes=outcomes,
        source=source,
    )
    reader.raise_if_problems()
    return record


def invalid_json(probe_id: str, verdict: Verdict, details: Sequence[str]) -> dict[str, Any]:
    """What ``score`` prints instead of an artifact when the run is INVALID (SPEC §17.5)."""
    return {
        "invalid_version": INVALID_VERSION,
        "engine": engine_identity(),
        "probe_id": probe_id,
        "verdict": verdict.to_json(),
        "details": list(details),
    }


class _Faults:
    """The INVALID reasons found so far, each with its one-sentence details."""

    def __init__(self) -> None:
        self.reasons: set[VerdictReason] = set()
        self.details: dict[VerdictReason, list[str]] = {}

    def add(self, reason: VerdictReason, detail: str) -> None:
        self.reasons.add(reason)
        self.details.setdefault(reason, []).append(detail)

    def ordered_details(self) -> list[str]:
        return [d for reason in VerdictReason for d in self.details.get(reason, [])]


def _name(source: str | None) -> str:
    return source if source is not None else "<record>"


def _preflight_faults(
    faults: _Faults,
    preflight: PreflightClaims,
    first: SealedRecord,
    probe_id: str,
    policy: ScoringPolicy,
) -> None:
    where = _name(preflight.source)
    if not preflight.passed:
        faults.add(
            VerdictReason.PREFLIGHT_FAILED, f"{where}: passed is false (the preflight failed)"
        )
    mismatch = VerdictReason.PREFLIGHT_MISMATCH
    if preflight.contract_digest != first.contract_digest:
        faults.add(
            mismatch,
            f"{where}: contract.digest differs from contract_digest in {_name(first.source)}",
        )
    if preflight.policy_digest != policy.digest:
        faults.add(mismatch, f"{where}: policy_digest differs from the digest of --policy")
    if preflight.mode != first.mode:
        faults.add(mismatch, f"{where}: mode differs from mode in {_name(first.source)}")
    if probe_id not in preflight.probe_ids:
        faults.add(mismatch, f"{where}: plan.probes does not list probe {probe_id}")


def _set_faults(faults: _Faults, records: Sequence[SealedRecord], probe_id: str) -> None:
    first = records[0]
    for record in records[1:]:
        for name in _SHARED_FIELDS:
            if canonical_json(getattr(record, name)) != canonical_json(getattr(first, name)):
                faults.add(
                    VerdictReason.TRIAL_SET_DISAGREEMENT,
                    f"{_name(record.source)}: {name} differs from {_name(first.source)}",
                )
    by_index: dict[int, SealedRecord] = {}
    for record in records:
        earlier = by_index.setdefault(record.trial_index, record)
        if earlier is not record:
            faults.add(
                VerdictReason.REPEATED_TRIAL_INDEX,
                f"{_name(record.source)}: trial_index {record.trial_index} repeats the one in "
                f"{_name(earlier.source)}",
            )
    for record in records:
        count = len(record.outcomes_for(probe_id))
        if count > 1:
            faults.add(
                VerdictReason.DUPLICATE_PROBE_OUTCOME,
                f"{_name(record.source)}: outcomes holds {count} outcomes for probe {probe_id} "
                "(at most one per record)",
            )


def _waiver_fault(
    outcome: RecordOutcome, probe_id: str, waivers: Sequence[Waiver], as_of: date
) -> str | None:
    known = {waiver.id: waiver for waiver in waivers}
    waiver = known.get(outcome.waiver or "")
    if waiver is None:
        return f"waiver {outcome.waiver!r} is not declared in --waivers"
    if not waiver.in_force(as_of):
        return f"waiver {waiver.id!r} expired on {waiver.expires.isoformat()} (as of {as_of})"
    if not waiver.covers(probe_id, oracle_rules(outcome.oracle)):
        return f"waiver {waiver.id!r} does not cover probe {probe_id}"
    return None


@dataclass(frozen=True)
class _Given:
    """What ``score`` is given beside the records, probe and policy."""

    corpus_digest: str | None
    fixture_digest: str | None
    preflight: PreflightClaims | None
    waivers: tuple[Waiver, ...] | None
    as_of: date | None
    source_revision: SourceRevision | None


def _input_problems(records: Sequence[SealedRecord], probe_id: str, given: _Given) -> list[Problem]:
    """What makes the command's input unusable (exit 2), before any evidence is weighed."""
    problems: list[Problem] = []
    preflight = given.preflight
    for name, flag in (
        ("corpus_digest", given.corpus_digest),
        ("fixture_digest", given.fixture_digest),
    ):
        if flag is not None and not flag:
            problems.append(Problem("must not be empty", Location(key=name)))
        from_preflight = None if preflight is None else getattr(preflight, name)
        if flag and from_preflight is not None and flag != from_preflight:
            problems.append(
                Problem(
                    f"--{name.replace('_', '-')} {flag} conflicts with {name} "
                    f"{from_preflight} of the preflight verdict",
                    Location(preflight.source if preflight else None, key=name),
                )
            )
    if given.waivers is None:
        for record in records:
            if any(outcome.waiver for outcome in record.outcomes_for(probe_id)):
                problems.append(
                    Problem(
                        "the record names a waiver: pass the waivers with --waivers",
                        Location(record.source, key="outcomes"),
                    )
                )
    return problems


def _outcomes(records: Sequence[SealedRecord], probe_id: str) -> list[TrialOutcome]:
    found = []
    for record in sorted(records, key=lambda r: r.trial_index):
        outcome = record.outcome_for(probe_id)
        if outcome is None:
            found.append(TrialOutcome(record.trial_index, None, OutcomeState.NOT_APPLICABLE))
        else:
            found.append(
                TrialOutcome(record.trial_index, outcome.oracle, outcome.state, outcome.waiver)
            )
    return found


def _evidence_faults(
    records: Sequence[SealedRecord], probe: Probe, policy: ScoringPolicy, given: _Given
) -> _Faults:
    faults = _Faults()
    if given.preflight is not None:
        _preflight_faults(faults, given.preflight, records[0], probe.probe_id, policy)
    _set_faults(faults, records, probe.probe_id)
    for record in records:
        for outcome in record.outcomes_for(probe.probe_id)[:1]:
            if outcome.waiver is None or given.waivers is None or given.as_of is None:
                continue
            fault = _waiver_fault(outcome, probe.probe_id, given.waivers, given.as_of)
            if fault is not None:
                faults.add(VerdictReason.UNHONOURABLE_WAIVER, f"{_name(record.source)}: {fault}")
    invalidated = sum(
        1 for o in _outcomes(records, probe.probe_id) if o.state.group is StateGroup.INVALIDATING
    )
    if policy.breached_by(invalidated):
        faults.add(
            VerdictReason.RE_EXECUTION_CAP_EXCEEDED,
            f"--policy: re_execution_cap is {policy.re_execution_cap}, and probe "
            f"{probe.probe_id} has {invalidated} invalidated attempts",
        )
    return faults


def score_records(
    records: Sequence[SealedRecord],
    probe: Probe,
    policy: ScoringPolicy,
    corpus_digest: str | None = None,
    fixture_digest: str | None = None,
    *,
    preflight: PreflightClaims | None = None,
    waivers: Sequence[Waiver] | None = None,
    as_of: date | None = None,
    source_revision: SourceRevision | None = None,
) -> dict[str, Any]:
    """Score one probe over a trial set of sealed records: its artifact, or the INVALID object.

    A record without an outcome for the probe is a completed trial in state
    ``not-applicable`` with oracle ``null``. ``score`` knows no contract, so the
    artifact has no coverage gaps. ``waivers`` (with the ``as_of`` date they are judged
    on) are checked, never applied: ``score`` waives no trial itself. Raises
    :class:`InputError` for input it cannot use; evidence that cannot support a verdict
    gives the INVALID object (see :func:`invalid_json`).
    """
    if not records:
        raise InputError.at("no trial records given (score needs at least one)")
    if waivers is not None and as_of is None:
        raise ValueError("waivers are judged on a date: give as_of")
    given = _Given(
        corpus_digest,
        fixture_digest,
        preflight,
        None if waivers is None else tuple(waivers),
        as_of,
        source_revision,
    )
    problems = _input_problems(records, probe.probe_id, given)
    if problems:
        raise InputError(problems)
    faults = _evidence_faults(records, probe, policy, given)
    if faults.reasons:
        verdict = Verdict.from_reasons(faults.reasons)
        return invalid_json(probe.probe_id, verdict, faults.ordered_details())
    return _artifact(records, probe, policy, given)


def _artifact(
    records: Sequence[SealedRecord], probe: Probe, policy: ScoringPolicy, given: _Given
) -> dict[str, Any]:
    first = records[0]
    preflight = given.preflight
    corpus = given.corpus_digest or (preflight.corpus_digest if preflight else None)
    fixture = given.fixture_digest or (preflight.fixture_digest if preflight else None)
    inputs = ScoringVersionInputs(
        contract_format_version=CONTRACT_FORMAT_VERSION,
        corpus_digest=corpus,
        fixture_digest=fixture,
        evaluator_configuration_digest=first.evaluator_configuration_digest,
        scoring_policy_digest=policy.digest,
        mode=first.mode,
    )
    attested = ["evaluator_configuration_digest", "mode"]
    attested += [
        name for name, value in (("corpus_digest", corpus), ("fixture_digest", fixture)) if value
    ]
    evidence = RunEvidence(
        recommendation=first.evaluator_recommendation,
        waivers=given.waivers or (),
        as_of=given.as_of if given.waivers is not None else None,
        preflight_digest=None if preflight is None else preflight.digest,
        source_revision=given.source_revision,
    )
    trials = ProbeTrials(probe, tuple(_outcomes(records, probe.probe_id)))
    return evidence_artifact(trials, policy, inputs, attested_inputs(attested), (), evidence)


def trial_record_path(probe_id: str, trial_index: int) -> str:
    """Relative path of a trial record under ``audit --records DIR``: ``<case>/<variant>/…``."""
    return f"{probe_id}/trial-{trial_index}.json"


def build_trial_records(
    trials: ProbeTrials,
    scoring_version: str,
    contract_digest: str,
    *,
    mode: str = CONTRACT_SCORING,
    recommendation: str | None = None,
) -> tuple[tuple[str, dict[str, Any]], ...]:
    """The sealed records of one admitted probe's trial set, as ``(relative path, record)``.

    Scoring them with the audit's policy (and its corpus and fixture digests as flags,
    or its preflight verdict, waivers and as-of date) reproduces the probe's artifact
    except ``attested_inputs`` and ``source_revision``.
    """
    return tuple(
        (
            trial_record_path(trials.probe.probe_id, outcome.trial_index),
            SealedRecord(
                run_id=f"{scoring_version}/{trials.probe.probe_id}",
                trial_index=outcome.trial_index,
                mode=mode,
                contract_digest=contract_digest,
                evaluator_configuration_digest=contract_digest,
                evaluator_recommendation=recommendation,
                outcomes=(
                    RecordOutcome(
                        trials.probe.probe_id, outcome.oracle, outcome.state, outcome.waiver
                    ),
                ),
            ).to_json(),
        )
        for outcome in trials.outcomes
    )
