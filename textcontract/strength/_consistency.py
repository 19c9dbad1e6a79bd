"""Recomputing what an artifact or audit report claims: the checks aggregate and compare share.

A file that cannot be read into this model is malformed (an input error, exit 2);
a file that reads fine but whose stated reduction, vector or identities do not
recompute from its own outcomes and inputs contradicts itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from textcontract.fields import FieldReader, KeyPath
from textcontract.model import Severity
from textcontract.strength._identity import (
    SCORING_INPUT_NAMES,
    ScoringVersionInputs,
    comparability_key,
)
from textcontract.strength._policy import ScoringPolicy
from textcontract.strength._probe import ProbeRole, ProbeTrials, TrialOutcome, read_trial_outcome
from textcontract.strength._reduce import (
    InvalidatedAttempt,
    ReducedOutcome,
    TrialVote,
    reduce_trials,
)
from textcontract.strength._states import OutcomeState, ProbeClass
from textcontract.strength._vector import ClassStrength, StrengthVector, build_strength_vector

__all__ = [
    "ClaimedProbe",
    "ClaimedScoring",
    "contradictions",
    "integrity_faults",
    "read_inputs",
    "read_outcomes",
    "read_policy_block",
    "read_reduced",
    "read_vector",
]


@dataclass(frozen=True)
class ClaimedProbe:
    """An admitted probe's outcomes, with the reduction and trial count a file states."""

    trials: ProbeTrials
    reduced: ReducedOutcome
    trials_completed: int

    @property
    def probe_id(self) -> str:
        return self.trials.probe.probe_id

    @property
    def eligible(self) -> bool:
        return self.trials.probe.role is ProbeRole.ELIGIBLE


@dataclass(frozen=True)
class ClaimedScoring:
    """A scored measurement as a file states it (an artifact's one probe, or a whole audit)."""

    source: str | None
    policy: ScoringPolicy
    policy_digest: str
    inputs: ScoringVersionInputs
    scoring_version: str
    comparability_key: str
    probes: tuple[ClaimedProbe, ...]
    vector: StrengthVector

    def probe(self, probe_id: str) -> ClaimedProbe | None:
        for claimed in self.probes:
            if claimed.probe_id == probe_id:
                return claimed
        return None


def contradictions(claims: ClaimedScoring) -> list[str]:
    """What does not recompute, as short descriptions; empty when the file is consistent."""
    found: list[str] = []
    if claims.policy.digest != claims.policy_digest:
        found.append("policy digest does not recompute from the policy fields")
    if claims.inputs.scoring_policy_digest != claims.policy_digest:
        found.append("scoring_version_inputs.scoring_policy_digest is not the policy digest")
    if claims.inputs.scoring_version != claims.scoring_version:
        found.append("scoring_version does not recompute from scoring_version_inputs")
    expected_key = comparability_key(claims.policy_digest, (p.probe_id for p in claims.probes))
    if expected_key != claims.comparability_key:
        found.append("comparability_key does not recompute from the policy and probe ids")
    reductions = []
    for claimed in claims.probes:
        reduced = reduce_trials(claimed.trials, claims.policy.catch_threshold)
        reductions.append(reduced)
        if reduced != claimed.reduced:
            found.append(f"reduced outcome of {claimed.probe_id} does not recompute")
        if claimed.trials_completed != claimed.trials.trials_completed:
            found.append(f"completed trials of {claimed.probe_id} is not its number of outcomes")
    vector = build_strength_vector(
        [claimed.trials for claimed in claims.probes],
        reductions,
        claims.policy.minimum_trial_count,
    )
    if not vector.same_counts(claims.vector):
        found.append("strength does not recompute from the reduction")
    return found


def integrity_faults(claims: ClaimedScoring, verdict_value: str | None) -> list[str]:
    """What makes a file contradict itself however it recomputes (SPEC §17.12)."""
    found = []
    if verdict_value == "INVALID":
        found.append("verdict.value is INVALID (an INVALID run mints no artifact)")
    for claimed in claims.probes:
        attempts = len(
            reduce_trials(claimed.trials, claims.policy.catch_threshold).invalidated_attempts
        )
        if claims.policy.breached_by(attempts):
            found.append(
                f"{claimed.probe_id} has {attempts} invalidated attempts, more than its "
                f"re_execution_cap {claims.policy.re_execution_cap}"
            )
    return found


_POLICY_KEYS = ("digest", "catch_threshold", "minimum_trial_count", "severity_floor")


def read_policy_block(
    reader: FieldReader,
    value: Any,
    path: KeyPath,
    *,
    allow_unknown: bool = False,
    cap: bool = False,
) -> tuple[ScoringPolicy, str]:
    """A ``policy`` block with its stated digest: ``(policy, digest)``.

    ``cap``: version 2 files state ``re_execution_cap`` (``null`` for none); version 1
    files predate it (an audit report's block is read with ``allow_unknown``).
    """
    required = (*_POLICY_KEYS, "re_execution_cap") if cap else _POLICY_KEYS
    fields = reader.mapping(value, path, required=required, allow_unknown=allow_unknown)
    stated = fields.get("re_execution_cap") if cap else None
    policy = ScoringPolicy(
        reader.fraction(fields["catch_threshold"], (*path, "catch_threshold")),
        reader.integer(fields["minimum_trial_count"], (*path, "minimum_trial_count"), minimum=1),
        reader.choice(fields["severity_floor"], (*path, "severity_floor"), Severity),
        re_execution_cap=None
        if stated is None
        else reader.integer(stated, (*path, "re_execution_cap"), None, minimum=0),
    )
    return policy, reader.string(fields["digest"], (*path, "digest"))


def read_inputs(reader: FieldReader, value: Any, path: KeyPath) -> ScoringVersionInputs:
    fields = reader.mapping(value, path, required=SCORING_INPUT_NAMES)
    return ScoringVersionInputs(
        contract_format_version=reader.integer(
            fields["contract_format_version"], (*path, "contract_format_version")
        ),
        corpus_digest=reader.optional_string(fields["corpus_digest"], (*path, "corpus_digest")),
        fixture_digest=reader.optional_string(fields["fixture_digest"], (*path, "fixture_digest")),
        evaluator_configuration_digest=reader.optional_string(
            fields["evaluator_configuration_digest"], (*path, "evaluator_configuration_digest")
        ),
        scoring_policy_digest=reader.string(
            fields["scoring_policy_digest"], (*path, "scoring_policy_digest")
        ),
        mode=reader.string(fields["mode"], (*path, "mode")),
    )


def read_outcomes(
    reader: FieldReader, value: Any, path: KeyPath, *, waiver: bool = False
) -> tuple[TrialOutcome, ...]:
    """Trial outcomes with unique trial indexes (a repeat is reported and dropped).

    ``waiver``: version 2 outcomes carry a ``waiver`` key.
    """
    outcomes: list[TrialOutcome] = []
    seen: set[int] = set()
    for index, item in enumerate(reader.sequence(value, path)):
        outcome = read_trial_outcome(reader, item, (*path, index), waiver=waiver)
        if outcome.trial_index in seen:
            reader.problem((*path, index, "trial_index"), "repeats an earlier trial index")
            continue
        seen.add(outcome.trial_index)
        outcomes.append(outcome)
    return tuple(outcomes)


def read_reduced(reader: FieldReader, value: Any, path: KeyPath) -> ReducedOutcome:
    fields = reader.mapping(
        value,
        path,
        required=(
            "probe_id",
            "severity",
            "valid_count",
            "caught_count",
            "catch_threshold",
            "exercised",
            "caught",
            "trial_votes",
            "invalidated_attempts",
        ),
    )
    votes = []
    for index, item in enumerate(reader.sequence(fields["trial_votes"], (*path, "trial_votes"))):
        at = (*path, "trial_votes", index)
        vote = reader.mapping(item, at, required=("trial_index", "state"))
        votes.append(
            TrialVote(
                reader.integer(vote["trial_index"], (*at, "trial_index"), minimum=0),
                reader.choice(vote["state"], (*at, "state"), OutcomeState),
            )
        )
    attempts = []
    listed = reader.sequence(fields["invalidated_attempts"], (*path, "invalidated_attempts"))
    for index, item in enumerate(listed):
        at = (*path, "invalidated_attempts", index)
        attempt = reader.mapping(item, at, required=("attempt", "reason"))
        attempts.append(
            InvalidatedAttempt(
                reader.integer(attempt["attempt"], (*at, "attempt"), minimum=0),
                reader.choice(attempt["reason"], (*at, "reason"), OutcomeState),
            )
        )
    return ReducedOutcome(
        probe_id=reader.string(fields["probe_id"], (*path, "probe_id")),
        severity=reader.choice(fields["severity"], (*path, "severity"), Severity),
        valid_count=reader.integer(fields["valid_count"], (*path, "valid_count"), minimum=0),
        caught_count=reader.integer(fields["caught_count"], (*path, "caught_count"), minimum=0),
        catch_threshold=reader.fraction(fields["catch_threshold"], (*path, "catch_threshold")),
        exercised=reader.boolean(fields["exercised"], (*path, "exercised")),
        caught=reader.boolean(fields["caught"], (*path, "caught")),
        trial_votes=tuple(votes),
        invalidated_attempts=tuple(attempts),
    )


def _read_class(
    reader: FieldReader, value: Any, path: KeyPath, probe_class: ProbeClass
) -> ClassStrength:
    fields = reader.mapping(
        value, path, required=("eligible", "caught", "exercised", "rate", "denominator")
    )
    return ClassStrength(
        probe_class,
        reader.integer(fields["eligible"], (*path, "eligible"), minimum=0),
        reader.integer(fields["caught"], (*path, "caught"), minimum=0),
        reader.integer(fields["exercised"], (*path, "exercised"), minimum=0),
        reader.optional_fraction(fields["rate"], (*path, "rate")),
        reader.string(fields["denominator"], (*path, "denominator"), empty=True),
    )


def read_vector(reader: FieldReader, fields: dict[str, Any], path: KeyPath) -> StrengthVector:
    """The vector keys (``classes``, ``comparable``, ``unreached_oracles``) of a mapping."""
    classes = reader.mapping(
        fields["classes"], (*path, "classes"), required=[c.value for c in ProbeClass]
    )
    return StrengthVector(
        tuple(
            _read_class(reader, classes[c.value], (*path, "classes", c.value), c)
            for c in ProbeClass
        ),
        reader.boolean(fields["comparable"], (*path, "comparable")),
        tuple(reader.strings(fields["unreached_oracles"], (*path, "unreached_oracles"))),
    )


VECTOR_KEYS: Sequence[str] = ("classes", "comparable", "unreached_oracles")
