"""What an audit found: checks matched to expectations, figures, records, findings,
the strength block and the report."""

from textcontract.audit.results._figures import (
    ExcludedReason,
    Outcome,
    Rate,
    ThresholdCheck,
    check_threshold,
    preserve_verdict,
    violation_verdict,
    wilson_interval,
)
from textcontract.audit.results._findings import (
    AuditedContract,
    ExcludedRow,
    Findings,
    VariantRow,
    rule_severities,
    summarize,
    summarize_records,
)
from textcontract.audit.results._matching import (
    ExpectedStatus,
    TrialResult,
    control_trial,
    failed_trial,
    violation_trial,
)
from textcontract.audit.results._merge import (
    CorpusFacts,
    MergedAudit,
    Part,
    failed_preflight,
    merge_parts,
)
from textcontract.audit.results._preflight import (
    CasePlan,
    CheckKind,
    CheckOutcome,
    PlannedVariant,
    Preflight,
    canonical_chunks,
)
from textcontract.audit.results._record_checks import (
    RecordFault,
    RunRules,
    record_fault,
)
from textcontract.audit.results._record_json import (
    RecordError,
    case_record_from_json,
    case_record_json,
    variant_record_from_json,
    variant_record_json,
)
from textcontract.audit.results._report import (
    AUDIT_VERSION,
    report_json,
    streamed_report,
)
from textcontract.audit.results._shards import (
    SHARD_HASH,
    Shard,
    shard_block,
)
from textcontract.audit.results._strength import (
    counted_trials,
    probe_trials,
)
from textcontract.audit.results._variant_records import (
    CaseRecord,
    Counted,
    Interner,
    Labels,
    VariantRecord,
)
from textcontract.audit.results._waiving import (
    waive_counted,
    waive_record,
)

__all__ = [
    "AUDIT_VERSION",
    "SHARD_HASH",
    "AuditedContract",
    "CasePlan",
    "CaseRecord",
    "CheckKind",
    "CheckOutcome",
    "CorpusFacts",
    "Counted",
    "ExcludedReason",
    "ExcludedRow",
    "ExpectedStatus",
    "Findings",
    "Interner",
    "Labels",
    "MergedAudit",
    "Outcome",
    "Part",
    "PlannedVariant",
    "Preflight",
    "Rate",
    "RecordError",
    "RecordFault",
    "RunRules",
    "Shard",
    "ThresholdCheck",
    "TrialResult",
    "VariantRecord",
    "VariantRow",
    "canonical_chunks",
    "case_record_from_json",
    "case_record_json",
    "check_threshold",
    "control_trial",
    "counted_trials",
    "failed_preflight",
    "failed_trial",
    "merge_parts",
    "preserve_verdict",
    "probe_trials",
    "record_fault",
    "report_json",
    "rule_severities",
    "shard_block",
    "streamed_report",
    "summarize",
    "summarize_records",
    "variant_record_from_json",
    "variant_record_json",
    "violation_trial",
    "violation_verdict",
    "waive_counted",
    "waive_record",
    "wilson_interval",
]
