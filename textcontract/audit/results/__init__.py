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
    ExcludedRow,
    Findings,
    VariantRow,
    summarize,
)
from textcontract.audit.results._matching import (
    ExpectedStatus,
    TrialResult,
    control_trial,
    failed_trial,
    violation_trial,
)
from textcontract.audit.results._preflight import (
    CasePlan,
    CheckKind,
    CheckOutcome,
    PlannedVariant,
    Preflight,
    canonical_chunks,
)
from textcontract.audit.results._report import (
    AUDIT_VERSION,
    report_json,
    streamed_report,
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

__all__ = [
    "AUDIT_VERSION",
    "CasePlan",
    "CaseRecord",
    "CheckKind",
    "CheckOutcome",
    "Counted",
    "ExcludedReason",
    "ExcludedRow",
    "ExpectedStatus",
    "Findings",
    "Interner",
    "Labels",
    "Outcome",
    "PlannedVariant",
    "Preflight",
    "Rate",
    "ThresholdCheck",
    "TrialResult",
    "VariantRecord",
    "VariantRow",
    "canonical_chunks",
    "check_threshold",
    "control_trial",
    "counted_trials",
    "failed_trial",
    "preserve_verdict",
    "probe_trials",
    "report_json",
    "streamed_report",
    "summarize",
    "violation_trial",
    "violation_verdict",
    "wilson_interval",
]
