"""``aggregate-strength``: run-wide class rates over a caller-selected set of artifacts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any

from textcontract._engine import engine_json
from textcontract.errors import InputError, Problem, RefusedArtifactSet
from textcontract.strength._consistency import ClaimedProbe
from textcontract.strength._evidence import EvidenceArtifact, artifact_digest, parse_artifact
from textcontract.strength._policy import ScoringPolicy
from textcontract.strength._recorded_engine import engine_caveats
from textcontract.strength._states import Exposure, ProbeClass
from textcontract.strength._vector import StrengthVector, build_strength_vector

__all__ = ["AGGREGATE_VERSION", "FloorBasis", "aggregate", "floors_met"]

AGGREGATE_VERSION = 2


class FloorBasis(StrEnum):
    """Why a class does or does not meet its floor; the first that applies, in this order."""

    NO_FLOOR_DECLARED = "no-floor-declared"
    NO_ELIGIBLE_PROBE = "no-eligible-probe"
    NOT_COMPARABLE = "not-comparable"
    NO_EXERCISED_PROBE = "no-exercised-probe"
    UNEXERCISED_PROBE = "unexercised-probe"
    RATE_MEETS_FLOOR = "rate-meets-floor"
    RATE_BELOW_FLOOR = "rate-below-floor"


def _refusal(artifacts: Sequence[EvidenceArtifact], policy: ScoringPolicy) -> str | None:
    """The refusal line for the first offending artifact in input order, or ``None``."""
    first = artifacts[0]
    owners: dict[str, str | None] = {}
    for artifact in artifacts:
        name = artifact.source
        found = artifact.contradictions()
        if found:
            return f"{name}: refused: the artifact contradicts itself: {found[0]}"
        claims = artifact.claims
        if claims.policy.catch_threshold != policy.catch_threshold:
            return f"{name}: refused: catch_threshold differs from the given policy's"
        if claims.policy.minimum_trial_count != policy.minimum_trial_count:
            return f"{name}: refused: minimum_trial_count differs from the given policy's"
        if claims.policy_digest != policy.digest:
            return f"{name}: refused: policy digest differs from the given policy's"
        if claims.scoring_version != first.claims.scoring_version:
            return f"{name}: refused: scoring_version differs from that of {first.source}"
        if artifact.attested_inputs != first.attested_inputs:
            return f"{name}: refused: attested_inputs differ from those of {first.source}"
        probe_id = artifact.probe.probe_id
        if probe_id in owners:
            return f"{name}: refused: probe {probe_id} is also scored by {owners[probe_id]}"
        owners[probe_id] = name
    return None


def _basis(
    floor: float | None,
    members: Sequence[ClaimedProbe],
    comparable: bool,
    exercised: int,
    rate: float | None,
) -> FloorBasis:
    if floor is None:
        return FloorBasis.NO_FLOOR_DECLARED
    if not members:
        return FloorBasis.NO_ELIGIBLE_PROBE
    if not comparable:
        return FloorBasis.NOT_COMPARABLE
    if exercised == 0 or rate is None:
        return FloorBasis.NO_EXERCISED_PROBE
    # a waived probe with no voted trial was excused, not left unmeasured (SPEC §17.4)
    if any(not m.reduced.exercised and not m.trials.waived for m in members):
        return FloorBasis.UNEXERCISED_PROBE
    return FloorBasis.RATE_MEETS_FLOOR if rate >= floor else FloorBasis.RATE_BELOW_FLOOR


def _vector(admitted: Sequence[ClaimedProbe], minimum_trial_count: int) -> StrengthVector:
    return build_strength_vector(
        [claimed.trials for claimed in admitted],
        [claimed.reduced for claimed in admitted],
        minimum_trial_count,
    )


def _exposure_split(admitted: Sequence[ClaimedProbe], policy: ScoringPolicy) -> dict[str, Any]:
    """Per exposure, every class's counts over that exposure's probes (SPEC §17.6)."""
    split: dict[str, Any] = {}
    for exposure in Exposure:
        members = [c for c in admitted if c.trials.probe.exposure is exposure]
        vector = _vector(members, policy.minimum_trial_count)
        split[exposure.value] = {
            probe_class.value: {
                "eligible": vector[probe_class].eligible,
                "caught": vector[probe_class].caught,
                "exercised": vector[probe_class].exercised,
                "rate": vector[probe_class].rate,
            }
            for probe_class in ProbeClass
        }
    return split


def aggregate(artifacts: Sequence[tuple[str, Any]], policy: ScoringPolicy) -> dict[str, Any]:
    """Aggregate ``(display name, parsed JSON)`` artifacts under the policy they were scored with.

    Every artifact is read first (a malformed one is an :class:`InputError`, exit 2);
    then an inconsistent set raises :class:`RefusedArtifactSet` (exit 4) naming the
    first offending artifact in input order. The result does not depend on input order.
    """
    if not artifacts:
        raise InputError.at("no evidence artifacts given (aggregate needs at least one)")
    problems: list[Problem] = []
    parsed: list[EvidenceArtifact] = []
    for name, value in artifacts:
        try:
            parsed.append(parse_artifact(value, name))
        except InputError as error:
            problems.extend(error.problems)
    if problems:
        raise InputError(problems)
    refusal = _refusal(parsed, policy)
    if refusal is not None:
        raise RefusedArtifactSet(refusal)

    admitted = [artifact.probe for artifact in parsed]
    digests = sorted(
        (artifact.probe.probe_id, artifact_digest(value))
        for artifact, (_, value) in zip(parsed, artifacts, strict=True)
    )
    return {
        "aggregate_version": AGGREGATE_VERSION,
        "engine": engine_json(),
        "policy": {"digest": policy.digest, "floors": policy.floors_json()},
        "scoring_version": parsed[0].claims.scoring_version,
        "classes": _classes(parsed, policy),
        "exposure": _exposure_split(admitted, policy),
        "artifacts": [{"probe_id": probe_id, "digest": value} for probe_id, value in digests],
        "evidence_set": "caller-selected",
        "caveats": engine_caveats([artifact.engine for artifact in parsed]),
    }


def _classes(parsed: Sequence[EvidenceArtifact], policy: ScoringPolicy) -> dict[str, Any]:
    vector = _vector([artifact.probe for artifact in parsed], policy.minimum_trial_count)
    classes: dict[str, Any] = {}
    for probe_class in ProbeClass:
        component = vector[probe_class]
        members = [
            artifact
            for artifact in parsed
            if artifact.probe.eligible and artifact.probe.trials.probe.probe_class is probe_class
        ]
        comparable = bool(members) and all(m.claims.vector.comparable for m in members)
        floor = policy.floor(probe_class)
        probes = [member.probe for member in members]
        basis = _basis(floor, probes, comparable, component.exercised, component.rate)
        classes[probe_class.value] = {
            "eligible": component.eligible,
            "caught": component.caught,
            "exercised": component.exercised,
            "rate": component.rate,
            "waived": sum(1 for probe in probes if probe.trials.waived),
            "comparable": comparable,
            "floor": floor,
            "meets_floor": None if floor is None else basis == FloorBasis.RATE_MEETS_FLOOR,
            "basis": basis.value,
        }
    return classes


def floors_met(aggregate_json: Mapping[str, Any]) -> bool:
    """Whether every declared class floor is met (``aggregate-strength`` exits 1 otherwise)."""
    return all(entry["meets_floor"] is not False for entry in aggregate_json["classes"].values())
