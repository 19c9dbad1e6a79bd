"""The strength scorer (SPEC §7, §17): pure scoring over trial outcomes.

It reduces each probe's trials, builds the per-class strength vector, the run's
identities and its verdict (INVALID, FAIL, CONCERNS, WAIVED or PASS, in
contract-scoring or production mode), builds evidence artifacts and sealed trial
records and validates them when given back (as parsed JSON values), judges waivers,
reads preflight verdicts, aggregates artifacts and compares two measurements. It
knows nothing of contracts, documents or rules; it opens no file —
:mod:`textcontract.strength_files` reads the commands' inputs — and reads neither the
clock nor git (:mod:`textcontract.environment` does), so any harness can feed it outcomes.
"""

from textcontract.strength._aggregate import AGGREGATE_VERSION, FloorBasis, aggregate, floors_met
from textcontract.strength._artifact import ARTIFACT_VERSION, RunEvidence, evidence_artifact
from textcontract.strength._compare import Relation, compare
from textcontract.strength._consistency import ClaimedProbe, ClaimedScoring, contradictions
from textcontract.strength._evidence import (
    EvidenceArtifact,
    Scored,
    artifact_digest,
    parse_artifact,
    parse_audit_strength,
    parse_scored,
)
from textcontract.strength._identity import (
    CONTRACT_FORMAT_VERSION,
    CONTRACT_SCORING,
    MODES,
    PRODUCTION,
    SCORING_INPUT_NAMES,
    ScoringVersionInputs,
    attested_inputs,
    comparability_key,
)
from textcontract.strength._output import artifact_exit_code
from textcontract.strength._policy import ScoringPolicy, read_scoring_policy
from textcontract.strength._preflight_claims import (
    CHECK_KINDS,
    CHECK_OUTCOMES,
    PREFLIGHT_VERSION,
    PreflightClaims,
    parse_preflight_verdict,
)
from textcontract.strength._probe import (
    CoverageGap,
    Probe,
    ProbeRole,
    ProbeTrials,
    TrialOutcome,
    control_preserved,
    parse_probe,
)
from textcontract.strength._provenance import (
    RevisionBasis,
    SourceRevision,
    attested_revision,
    read_source_revision,
)
from textcontract.strength._reduce import (
    InvalidatedAttempt,
    ReducedOutcome,
    TrialVote,
    is_caught,
    reduce_trials,
)
from textcontract.strength._score import StrengthResult, probe_entry_json, score_probes
from textcontract.strength._sealed_records import (
    INVALID_VERSION,
    RECORD_VERSION,
    RecordOutcome,
    SealedRecord,
    build_trial_records,
    invalid_json,
    parse_record,
    score_records,
    trial_record_path,
)
from textcontract.strength._states import Exposure, OutcomeState, ProbeClass, StateGroup
from textcontract.strength._vector import (
    ClassStrength,
    StrengthVector,
    build_strength_vector,
    denominator_sentence,
)
from textcontract.strength._verdict import (
    INVALID_REASONS,
    Recommendation,
    Verdict,
    VerdictReason,
    VerdictValue,
    held_reasons,
    ladder_verdict,
    run_reasons,
)
from textcontract.strength._waivers import (
    WAIVER_ID,
    Waiver,
    WaiverStatus,
    covering_waiver,
    oracle_rules,
    parse_date,
    parse_waivers,
    read_waivers,
)

__all__ = [
    "AGGREGATE_VERSION",
    "ARTIFACT_VERSION",
    "CHECK_KINDS",
    "CHECK_OUTCOMES",
    "CONTRACT_FORMAT_VERSION",
    "CONTRACT_SCORING",
    "INVALID_REASONS",
    "INVALID_VERSION",
    "MODES",
    "PREFLIGHT_VERSION",
    "PRODUCTION",
    "RECORD_VERSION",
    "SCORING_INPUT_NAMES",
    "WAIVER_ID",
    "ClaimedProbe",
    "ClaimedScoring",
    "ClassStrength",
    "CoverageGap",
    "EvidenceArtifact",
    "Exposure",
    "FloorBasis",
    "InvalidatedAttempt",
    "OutcomeState",
    "PreflightClaims",
    "Probe",
    "ProbeClass",
    "ProbeRole",
    "ProbeTrials",
    "Recommendation",
    "RecordOutcome",
    "ReducedOutcome",
    "Relation",
    "RevisionBasis",
    "RunEvidence",
    "Scored",
    "ScoringPolicy",
    "ScoringVersionInputs",
    "SealedRecord",
    "SourceRevision",
    "StateGroup",
    "StrengthResult",
    "StrengthVector",
    "TrialOutcome",
    "TrialVote",
    "Verdict",
    "VerdictReason",
    "VerdictValue",
    "Waiver",
    "WaiverStatus",
    "aggregate",
    "artifact_digest",
    "artifact_exit_code",
    "attested_inputs",
    "attested_revision",
    "build_strength_vector",
    "build_trial_records",
    "comparability_key",
    "compare",
    "contradictions",
    "control_preserved",
    "covering_waiver",
    "denominator_sentence",
    "evidence_artifact",
    "floors_met",
    "held_reasons",
    "invalid_json",
    "is_caught",
    "ladder_verdict",
    "oracle_rules",
    "parse_artifact",
    "parse_audit_strength",
    "parse_date",
    "parse_preflight_verdict",
    "parse_probe",
    "parse_record",
    "parse_scored",
    "parse_waivers",
    "probe_entry_json",
    "read_scoring_policy",
    "read_source_revision",
    "read_waivers",
    "reduce_trials",
    "run_reasons",
    "score_probes",
    "score_records",
    "trial_record_path",
]
