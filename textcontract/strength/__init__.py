"""The strength scorer (SPEC §7): pure scoring over trial outcomes.

It reduces each probe's trials, builds the per-class strength vector, the run's
identities and its verdict, builds evidence artifacts and sealed trial records and
validates them when given back (as parsed JSON values), aggregates artifacts and
compares two measurements. It knows nothing of contracts, documents or rules, and it
opens no file — :mod:`textcontract.strength_files` reads the commands' inputs — so any
harness can feed it outcomes.
"""

from textcontract.strength._aggregate import AGGREGATE_VERSION, FloorBasis, aggregate, floors_met
from textcontract.strength._artifact import ARTIFACT_VERSION, evidence_artifact
from textcontract.strength._compare import Relation, compare
from textcontract.strength._consistency import ClaimedProbe, ClaimedScoring, contradictions
from textcontract.strength._evidence import (
    EvidenceArtifact,
    artifact_digest,
    parse_artifact,
    parse_audit_strength,
)
from textcontract.strength._identity import (
    CONTRACT_FORMAT_VERSION,
    CONTRACT_SCORING,
    SCORING_INPUT_NAMES,
    ScoringVersionInputs,
    attested_inputs,
    comparability_key,
)
from textcontract.strength._output import artifact_exit_code
from textcontract.strength._policy import ScoringPolicy, read_scoring_policy
from textcontract.strength._probe import (
    CoverageGap,
    Probe,
    ProbeRole,
    ProbeTrials,
    TrialOutcome,
    control_preserved,
    parse_probe,
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
    RECORD_VERSION,
    RecordOutcome,
    SealedRecord,
    build_trial_records,
    parse_record,
    score_records,
    trial_record_path,
)
from textcontract.strength._states import OutcomeState, ProbeClass, StateGroup
from textcontract.strength._vector import (
    ClassStrength,
    StrengthVector,
    build_strength_vector,
    denominator_sentence,
)
from textcontract.strength._verdict import Verdict, VerdictReason, VerdictValue, ladder_verdict

__all__ = [
    "AGGREGATE_VERSION",
    "ARTIFACT_VERSION",
    "CONTRACT_FORMAT_VERSION",
    "CONTRACT_SCORING",
    "RECORD_VERSION",
    "SCORING_INPUT_NAMES",
    "ClaimedProbe",
    "ClaimedScoring",
    "ClassStrength",
    "CoverageGap",
    "EvidenceArtifact",
    "FloorBasis",
    "InvalidatedAttempt",
    "OutcomeState",
    "Probe",
    "ProbeClass",
    "ProbeRole",
    "ProbeTrials",
    "RecordOutcome",
    "ReducedOutcome",
    "Relation",
    "ScoringPolicy",
    "ScoringVersionInputs",
    "SealedRecord",
    "StateGroup",
    "StrengthResult",
    "StrengthVector",
    "TrialOutcome",
    "TrialVote",
    "Verdict",
    "VerdictReason",
    "VerdictValue",
    "aggregate",
    "artifact_digest",
    "artifact_exit_code",
    "attested_inputs",
    "build_strength_vector",
    "build_trial_records",
    "comparability_key",
    "compare",
    "contradictions",
    "control_preserved",
    "denominator_sentence",
    "evidence_artifact",
    "floors_met",
    "is_caught",
    "ladder_verdict",
    "parse_artifact",
    "parse_audit_strength",
    "parse_probe",
    "parse_record",
    "probe_entry_json",
    "read_scoring_policy",
    "reduce_trials",
    "score_probes",
    "score_records",
    "trial_record_path",
]
