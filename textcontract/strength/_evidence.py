"""Reading evidence artifacts and audit reports back, for ``aggregate-strength`` and ``compare``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from textcontract.canonical import digest
from textcontract.errors import InputError
from textcontract.fields import MISSING, FieldReader
from textcontract.strength._artifact import ARTIFACT_VERSION
from textcontract.strength._consistency import (
    VECTOR_KEYS,
    ClaimedProbe,
    ClaimedScoring,
    contradictions,
    read_inputs,
    read_outcomes,
    read_policy_block,
    read_reduced,
    read_vector,
)
from textcontract.strength._identity import SCORING_INPUT_NAMES
from textcontract.strength._probe import (
    CoverageGap,
    ProbeTrials,
    read_coverage_gap,
    read_probe,
)
from textcontract.strength._verdict import Verdict, VerdictReason, VerdictValue, ladder_verdict

__all__ = [
    "EvidenceArtifact",
    "artifact_digest",
    "parse_artifact",
    "parse_audit_strength",
    "parse_scored",
]

_ARTIFACT_KEYS = (
    "artifact_version",
    "engine",
    "mode",
    "scoring_version",
    "scoring_version_inputs",
    "comparability_key",
    "attested_inputs",
    "policy",
    "probe",
    "trials",
    "outcomes",
    "reduced_probe_outcomes",
    "strength",
    "coverage_gaps",
    "verdict",
)


def artifact_digest(artifact: Any) -> str:
    """The digest ``aggregate-strength`` records for an artifact: over its canonical JSON.

    Canonical, not raw bytes, so re-indenting or reordering keys keeps the digest
    while any change of content changes it.
    """
    return digest(artifact)


@dataclass(frozen=True)
class EvidenceArtifact:
    """A parsed evidence artifact: its claims about one probe, plus its own extras."""

    claims: ClaimedScoring
    mode: str
    attested_inputs: tuple[str, ...]
    declared_minimum: int
    coverage_gaps: tuple[CoverageGap, ...]
    verdict: Verdict

    @property
    def source(self) -> str | None:
        return self.claims.source

    @property
    def probe(self) -> ClaimedProbe:
        return self.claims.probes[0]

    def contradictions(self) -> list[str]:
        """Everything that does not recompute (reduction, vector, identities, verdict)."""
        found = contradictions(self.claims)
        if self.mode != self.claims.inputs.mode:
            found.append("mode is not scoring_version_inputs.mode")
        if self.declared_minimum != self.claims.policy.minimum_trial_count:
            found.append("trials.declared_minimum is not the policy's minimum_trial_count")
        verdict = ladder_verdict([self.probe.trials], self.claims.policy, self.coverage_gaps)
        if verdict != self.verdict:
            found.append("verdict does not recompute from the outcomes and coverage gaps")
        return found


def _read_verdict(reader: FieldReader, value: Any) -> Verdict:
    fields = reader.mapping(value, ("verdict",), required=("value", "reasons"))
    reasons = tuple(
        reader.choice(item, ("verdict", "reasons", i), VerdictReason)
        for i, item in enumerate(reader.sequence(fields["reasons"], ("verdict", "reasons")))
    )
    return Verdict(reader.choice(fields["value"], ("verdict", "value"), VerdictValue), reasons)


def _read_attested(reader: FieldReader, value: Any) -> tuple[str, ...]:
    names = reader.strings(value, ("attested_inputs",))
    for index, name in enumerate(names):
        if name and name not in SCORING_INPUT_NAMES:
            reader.problem(("attested_inputs", index), f"{name!r} is not a scoring input name")
    if names != sorted(set(names)):
        reader.problem(("attested_inputs",), "must be sorted and free of repeats")
    return tuple(names)


def parse_artifact(obj: Any, source: str | None) -> EvidenceArtifact:
    """Read an evidence artifact; a malformed one is an :class:`InputError` naming the key."""
    reader = FieldReader(source)
    fields = reader.mapping(obj, (), required=_ARTIFACT_KEYS)
    reader.expect_equal(fields["artifact_version"], ("artifact_version",), ARTIFACT_VERSION)
    engine = reader.mapping(fields["engine"], ("engine",), required=("name", "version"))
    reader.string(engine["name"], ("engine", "name"))
    reader.string(engine["version"], ("engine", "version"))
    policy, policy_digest = read_policy_block(reader, fields["policy"], ("policy",))
    probe = read_probe(reader, fields["probe"], ("probe",))
    trials = reader.mapping(
        fields["trials"], ("trials",), required=("completed", "declared_minimum")
    )
    completed = reader.integer(trials["completed"], ("trials", "completed"), minimum=0)
    declared = reader.integer(trials["declared_minimum"], ("trials", "declared_minimum"))
    outcomes = read_outcomes(reader, fields["outcomes"], ("outcomes",))
    listed = reader.sequence(fields["reduced_probe_outcomes"], ("reduced_probe_outcomes",))
    if len(listed) != 1 and isinstance(fields["reduced_probe_outcomes"], list):
        reader.problem(
            ("reduced_probe_outcomes",),
            f"must hold exactly one reduced outcome (the probe's), got {len(listed)}",
        )
    # with no reduced outcome listed, that is the one problem: its fields are not missing too
    reduced = read_reduced(reader, listed[0] if listed else MISSING, ("reduced_probe_outcomes", 0))
    strength = reader.mapping(fields["strength"], ("strength",), required=VECTOR_KEYS)
    claims = ClaimedScoring(
        source=source,
        policy=policy,
        policy_digest=policy_digest,
        inputs=read_inputs(reader, fields["scoring_version_inputs"], ("scoring_version_inputs",)),
        scoring_version=reader.string(fields["scoring_version"], ("scoring_version",)),
        comparability_key=reader.string(fields["comparability_key"], ("comparability_key",)),
        probes=(ClaimedProbe(ProbeTrials(probe, outcomes), reduced, completed),),
        vector=read_vector(reader, strength, ("strength",)),
    )
    gaps = tuple(
        read_coverage_gap(reader, item, ("coverage_gaps", i))
        for i, item in enumerate(reader.sequence(fields["coverage_gaps"], ("coverage_gaps",)))
    )
    artifact = EvidenceArtifact(
        claims=claims,
        mode=reader.string(fields["mode"], ("mode",)),
        attested_inputs=_read_attested(reader, fields["attested_inputs"]),
        declared_minimum=declared,
        coverage_gaps=gaps,
        verdict=_read_verdict(reader, fields["verdict"]),
    )
    reader.raise_if_problems()
    return artifact


_STRENGTH_KEYS = (
    *VECTOR_KEYS,
    "comparability_key",
    "scoring_version",
    "scoring_version_inputs",
    "probes",
)
_AUDIT_PROBE_KEYS = (
    "probe_id",
    "class",
    "severity",
    "canary",
    "clean_control",
    "trials_completed",
    "outcomes",
    "reduced",
)


def parse_audit_strength(obj: Any, source: str | None) -> ClaimedScoring:
    """Read the ``policy`` and ``strength`` blocks of an audit report (other keys are ignored)."""
    reader = FieldReader(source)
    fields = reader.mapping(
        obj, (), required=("audit_version", "policy", "strength"), allow_unknown=True
    )
    reader.expect_equal(fields["audit_version"], ("audit_version",), 1)
    policy, policy_digest = read_policy_block(
        reader, fields["policy"], ("policy",), allow_unknown=True
    )
    strength = reader.mapping(fields["strength"], ("strength",), required=_STRENGTH_KEYS)
    probes = []
    seen: set[str] = set()
    for index, item in enumerate(reader.sequence(strength["probes"], ("strength", "probes"))):
        path = ("strength", "probes", index)
        entry = reader.mapping(item, path, required=_AUDIT_PROBE_KEYS)
        probe = read_probe(reader, {k: entry[k] for k in _AUDIT_PROBE_KEYS[:5]}, path)
        if probe.probe_id in seen:
            reader.problem((*path, "probe_id"), f"probe {probe.probe_id!r} is listed twice")
            continue
        seen.add(probe.probe_id)
        probes.append(
            ClaimedProbe(
                ProbeTrials(probe, read_outcomes(reader, entry["outcomes"], (*path, "outcomes"))),
                read_reduced(reader, entry["reduced"], (*path, "reduced")),
                reader.integer(entry["trials_completed"], (*path, "trials_completed"), minimum=0),
            )
        )
    claims = ClaimedScoring(
        source=source,
        policy=policy,
        policy_digest=policy_digest,
        inputs=read_inputs(
            reader, strength["scoring_version_inputs"], ("strength", "scoring_version_inputs")
        ),
        scoring_version=reader.string(strength["scoring_version"], ("strength", "scoring_version")),
        comparability_key=reader.string(
            strength["comparability_key"], ("strength", "comparability_key")
        ),
        probes=tuple(probes),
        vector=read_vector(reader, strength, ("strength",)),
    )
    reader.raise_if_problems()
    return claims


def parse_scored(obj: Any, source: str | None) -> tuple[ClaimedScoring, Sequence[str]]:
    """An artifact or an audit report, told apart by its version key.

    Returns the claims and what in the file does not recompute.
    """
    if isinstance(obj, dict) and "artifact_version" in obj:
        artifact = parse_artifact(obj, source)
        return artifact.claims, artifact.contradictions()
    if isinstance(obj, dict) and "audit_version" in obj:
        claims = parse_audit_strength(obj, source)
        return claims, contradictions(claims)
    raise InputError.at(
        "not an evidence artifact (artifact_version) nor an audit report (audit_version)", source
    )
