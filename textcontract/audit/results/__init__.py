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
from textcontract.audit.results._report import (
    AUDIT_VERSION,
    report_json,
    streamed_report,
)
from textcontract.audit.results._strength import (
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
    "CaseRecord",
    "Counted",
    "ExcludedReason",
    "ExcludedRow",
    "ExpectedStatus",
    "Findings",
    "Interner",
    "Labels",
    "Outcome",
    "Rate",
    "ThresholdCheck",
    "TrialResult",
    "VariantRecord",
    "VariantRow",
    "check_threshold",
    "control_trial",
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
