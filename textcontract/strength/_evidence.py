"""Reading evidence artifacts and audit reports back, for ``aggregate-strength`` and ``compare``.

Both read versions 1 (0.1) and 2 (SPEC §17.1). A version-1 artifact reads as
``mode: contract-scoring``, ``probe.exposure: known``, ``outcomes[].waiver: null``,
``evaluator_recommendation: null``, ``waivers: []``, ``preflight_digest: null``,
``source_revision: null`` and ``policy.re_execution_cap: null``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from textcontract.canonical import digest
from textcontract.errors import InputError
from textcontract.fields import MISSING, FieldReader
from textcontract.strength._artifact import ARTIFACT_VERSION, recommendation_of
from textcontract.strength._consistency import (
    VECTOR_KEYS,
    ClaimedProbe,
    ClaimedScoring,
    contradictions,
    integrity_faults,
    read_inputs,
    read_outcomes,
    read_policy_block,
    read_reduced,
    read_vector,
)
from textcontract.strength._identity import MODES, PRODUCTION, SCORING_INPUT_NAMES
from textcontract.strength._probe import (
    CoverageGap,
    ProbeTrials,
    read_coverage_gap,
    read_probe,
)
from textcontract.strength._provenance import SourceRevision, read_source_revision
from textcontract.strength._recorded_engine import UNKNOWN_ENGINE, RecordedEngine, read_engine
from textcontract.strength._verdict import (
    Recommendation,
    Verdict,
    VerdictReason,
    VerdictValue,
    ladder_verdict,
)
from textcontract.strength._waivers import WaiverStatus, parse_date

__all__ = [
    "EvidenceArtifact",
    "ListedWaiver",
    "Scored",
    "artifact_digest",
    "parse_artifact",
    "parse_audit_strength",
    "parse_scored",
]

_V1_KEYS = (
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
_V2_KEYS = (
    *_V1_KEYS[:-1],
    "evaluator_recommendation",
    "waivers",
    "as_of",
    "preflight_digest",
    "source_revision",
    "verdict",
)
_WAIVER_KEYS = ("id", "reason", "approved_by", "expires", "status")


def artifact_digest(artifact: Any) -> str:
    """The digest ``aggregate-strength`` records for an artifact: over its canonical JSON.

    Canonical, not raw bytes, so re-indenting or reordering keys keeps the digest
    while any change of content changes it.
    """
    return digest(artifact)


@dataclass(frozen=True)
class ListedWaiver:
    """An entry of an artifact's ``waivers`` list."""

    id: str
    expires: date
    status: WaiverStatus


@dataclass(frozen=True)
class EvidenceArtifact:
    """A parsed evidence artifact: its claims about one probe, plus its own extras."""

    claims: ClaimedScoring
    mode: str
    attested_inputs: tuple[str, ...]
    declared_minimum: int
    coverage_gaps: tuple[CoverageGap, ...]
    verdict: Verdict
    version: int = ARTIFACT_VERSION
    recommendation: Any = None
    waivers: tuple[ListedWaiver, ...] = ()
    as_of: date | None = None
    preflight_digest: str | None = None
    source_revision: SourceRevision | None = None
    engine: RecordedEngine = UNKNOWN_ENGINE

    @property
    def source(self) -> str | None:
        return self.claims.source

    @property
    def probe(self) -> ClaimedProbe:
        return self.claims.probes[0]

    def integrity_faults(self) -> list[str]:
        """An INVALID verdict or a breached re-execution cap (SPEC §17.12)."""
        return integrity_faults(self.claims, self.verdict.value.value)

    def contradictions(self) -> list[str]:
        """Everything that does not recompute (reduction, vector, identities, verdict)."""
        found = self.integrity_faults() + contradictions(self.claims)
        if self.mode != self.claims.inputs.mode:
            found.append("mode is not scoring_version_inputs.mode")
        if self.declared_minimum != self.claims.policy.minimum_trial_count:
            found.append("trials.declared_minimum is not the policy's minimum_trial_count")
        found += self._waiver_contradictions()
        verdict = ladder_verdict(
            [self.probe.trials],
            self.claims.policy,
            self.coverage_gaps,
            mode=self.mode,
            recommendation=recommendation_of(self.mode, self.recommendation),
        )
        if verdict != self.verdict:
            found.append("verdict does not recompute from the outcomes and coverage gaps")
        return found

    def _waiver_contradictions(self) -> list[str]:
        found = []
        listed = tuple(waiver.id for waiver in self.waivers)
        if listed != self.probe.trials.waivers:
            found.append("waivers does not list exactly the waivers the outcomes name")
        if self.waivers and self.as_of is None:
            found.append("as_of is null although waivers were honoured")
        for waiver in self.waivers:
            if waiver.status is not WaiverStatus.HONOURED:
                found.append(f"waiver {waiver.id} is listed as {waiver.status}, not honoured")
            if self.as_of is not None and waiver.expires < self.as_of:
                found.append(f"waiver {waiver.id} had expired on the as_of date")
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


def _read_mode(reader: FieldReader, value: Any) -> str:
    mode = reader.string(value, ("mode",))
    if mode and mode not in MODES:
        reader.problem(("mode",), f"{mode!r} is not one of {', '.join(MODES)}")
    return mode


def _read_date(reader: FieldReader, value: Any, path: tuple[str | int, ...]) -> date | None:
    text = reader.optional_string(value, path)
    if text is None:
        return None
    found = parse_date(text)
    if found is None:
        reader.problem(path, f"{text!r} is not a date (YYYY-MM-DD)")
    return found


def _read_waivers(reader: FieldReader, value: Any) -> tuple[ListedWaiver, ...]:
    found = []
    for index, item in enumerate(reader.sequence(value, ("waivers",))):
        at = ("waivers", index)
        entry = reader.mapping(item, at, required=_WAIVER_KEYS)
        reader.string(entry["reason"], (*at, "reason"))
        reader.string(entry["approved_by"], (*at, "approved_by"))
        expires = _read_date(reader, entry["expires"], (*at, "expires"))
        if entry["expires"] is None:
            reader.problem((*at, "expires"), "expected a date (YYYY-MM-DD), got null")
        found.append(
            ListedWaiver(
                reader.string(entry["id"], (*at, "id")),
                expires or date.min,
                reader.choice(entry["status"], (*at, "status"), WaiverStatus),
            )
        )
    return tuple(found)


def _read_recommendation(reader: FieldReader, value: Any, mode: str) -> Any:
    allowed = [member.value for member in Recommendation]
    if mode == PRODUCTION and value not in allowed:
        reader.problem(
            ("evaluator_recommendation",),
            f"a production artifact needs one of {', '.join(allowed)}, got {value!r}",
        )
    return value


def _read_trials(reader: FieldReader, value: Any) -> tuple[int, int]:
    trials = reader.mapping(value, ("trials",), required=("completed", "declared_minimum"))
    completed = reader.integer(trials["completed"], ("trials", "completed"), minimum=0)
    declared = reader.integer(trials["declared_minimum"], ("trials", "declared_minimum"))
    return completed, declared


def _read_claims(
    reader: FieldReader, fields: dict[str, Any], source: str | None, version: int
) -> tuple[ClaimedScoring, int]:
    v2 = version == 2
    policy, policy_digest = read_policy_block(reader, fields["policy"], ("policy",), cap=v2)
    probe = read_probe(reader, fields["probe"], ("probe",), exposure=v2)
    completed, declared = _read_trials(reader, fields["trials"])
    outcomes = read_outcomes(reader, fields["outcomes"], ("outcomes",), waiver=v2)
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
    return claims, declared


def _version(reader: FieldReader, obj: Any, key: str) -> int:
    value = obj.get(key) if isinstance(obj, dict) else None
    if isinstance(value, int) and not isinstance(value, bool) and value in (1, 2):
        return value
    if isinstance(obj, dict) and key in obj:
        reader.problem((key,), f"expected 1 or 2, got {value!r}")
    return 2


def parse_artifact(obj: Any, source: str | None) -> EvidenceArtifact:
    """Read an evidence artifact (version 1 or 2); a malformed one is an :class:`InputError`."""
    reader = FieldReader(source)
    version = _version(reader, obj, "artifact_version")
    fields = reader.mapping(obj, (), required=_V2_KEYS if version == 2 else _V1_KEYS)
    engine = read_engine(reader, fields["engine"])
    claims, declared = _read_claims(reader, fields, source, version)
    mode = _read_mode(reader, fields["mode"])
    gaps = tuple(
        read_coverage_gap(reader, item, ("coverage_gaps", i))
        for i, item in enumerate(reader.sequence(fields["coverage_gaps"], ("coverage_gaps",)))
    )
    artifact = EvidenceArtifact(
        claims=claims,
        mode=mode,
        attested_inputs=_read_attested(reader, fields["attested_inputs"]),
        declared_minimum=declared,
        coverage_gaps=gaps,
        verdict=_read_verdict(reader, fields["verdict"]),
        version=version,
        recommendation=_read_recommendation(reader, fields.get("evaluator_recommendation"), mode),
        waivers=_read_waivers(reader, fields.get("waivers", [])),
        as_of=_read_date(reader, fields.get("as_of"), ("as_of",)),
        preflight_digest=reader.optional_string(
            fields.get("preflight_digest"), ("preflight_digest",)
        ),
        source_revision=read_source_revision(
            reader, fields.get("source_revision"), ("source_revision",)
        ),
        engine=engine,
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


@dataclass(frozen=True)
class Scored:
    """An artifact or an audit report as ``compare`` reads it."""

    claims: ClaimedScoring
    faults: tuple[str, ...]
    """What does not recompute."""
    integrity: tuple[str, ...] = ()
    """The faults that make it contradict itself whatever it recomputes (SPEC §17.12)."""
    contract_digest: str | None = None
    """An audit report's contract digest (artifacts carry none)."""
    parent_digest: str | None = None
    revision_count: int | None = None
    """An audit report's ``contract.lineage``, when declared."""
    engine: RecordedEngine = UNKNOWN_ENGINE
    """The versions its results were computed under (unknown when not recorded)."""

    @property
    def mode(self) -> str:
        return self.claims.inputs.mode


def _audit_probes(reader: FieldReader, value: Any, version: int) -> tuple[ClaimedProbe, ...]:
    probes = []
    seen: set[str] = set()
    keys = (*_AUDIT_PROBE_KEYS, "exposure") if version == 2 else _AUDIT_PROBE_KEYS
    for index, item in enumerate(reader.sequence(value, ("strength", "probes"))):
        path = ("strength", "probes", index)
        entry = reader.mapping(item, path, required=keys)
        probe_keys = (*_AUDIT_PROBE_KEYS[:5], "exposure") if version == 2 else _AUDIT_PROBE_KEYS[:5]
        probe_fields = {k: entry[k] for k in probe_keys}
        probe = read_probe(reader, probe_fields, path, exposure=version == 2)
        if probe.probe_id in seen:
            reader.problem((*path, "probe_id"), f"probe {probe.probe_id!r} is listed twice")
            continue
        seen.add(probe.probe_id)
        outcomes = read_outcomes(
            reader, entry["outcomes"], (*path, "outcomes"), waiver=version == 2
        )
        probes.append(
            ClaimedProbe(
                ProbeTrials(probe, outcomes),
                read_reduced(reader, entry["reduced"], (*path, "reduced")),
                reader.integer(entry["trials_completed"], (*path, "trials_completed"), minimum=0),
            )
        )
    return tuple(probes)


def _audit_lineage(reader: FieldReader, value: Any) -> tuple[str | None, str | None, int | None]:
    """``contract``'s digest and lineage (``parent_digest``, ``revision_count``)."""
    contract = reader.mapping(value, ("contract",), required=("digest",), allow_unknown=True)
    found = reader.string(contract["digest"], ("contract", "digest"))
    lineage = contract.get("lineage")
    if not isinstance(lineage, dict):
        return found, None, None
    at = ("contract", "lineage")
    fields = reader.mapping(lineage, at, required=("parent_digest", "revision_count"))
    return (
        found,
        reader.optional_string(fields["parent_digest"], (*at, "parent_digest")),
        reader.integer(fields["revision_count"], (*at, "revision_count"), minimum=0),
    )


def parse_audit_strength(obj: Any, source: str | None) -> ClaimedScoring:
    """Read the ``policy`` and ``strength`` blocks of an audit report (other keys are ignored)."""
    return _parse_audit(obj, source).claims


def _parse_audit(obj: Any, source: str | None) -> Scored:
    reader = FieldReader(source)
    version = _version(reader, obj, "audit_version")
    required: tuple[str, ...] = ("audit_version", "policy", "strength")
    if version == 2:
        required += ("contract", "verdict")
    fields = reader.mapping(obj, (), required=required, allow_unknown=True)
    policy, policy_digest = read_policy_block(
        reader, fields["policy"], ("policy",), allow_unknown=True, cap=version == 2
    )
    strength = reader.mapping(fields["strength"], ("strength",), required=_STRENGTH_KEYS)
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
        probes=_audit_probes(reader, strength["probes"], version),
        vector=read_vector(reader, strength, ("strength",)),
    )
    engine = UNKNOWN_ENGINE
    if "engine" in fields:
        engine = read_engine(reader, fields["engine"])
    lineage: tuple[str | None, str | None, int | None] = (None, None, None)
    verdict_value = None
    if version == 2:
        lineage = _audit_lineage(reader, fields["contract"])
        verdict_value = _read_verdict(reader, fields["verdict"]).value.value
    reader.raise_if_problems()
    integrity = tuple(integrity_faults(claims, verdict_value))
    faults = integrity + tuple(contradictions(claims))
    return Scored(claims, faults, integrity, *lineage, engine=engine)


def parse_scored(obj: Any, source: str | None) -> Scored:
    """An artifact or an audit report, told apart by its version key, with its faults."""
    if isinstance(obj, dict) and "artifact_version" in obj:
        artifact = parse_artifact(obj, source)
        return Scored(
            artifact.claims,
            tuple(artifact.contradictions()),
            tuple(artifact.integrity_faults()),
            engine=artifact.engine,
        )
    if isinstance(obj, dict) and "audit_version" in obj:
        return _parse_audit(obj, source)
    raise InputError.at(
        "not an evidence artifact (artifact_version) nor an audit report (audit_version)", source
    )
