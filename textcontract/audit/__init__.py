"""The mutation audit (SPEC §6): how well a contract catches faults and accepts valid text.

Load a corpus of labelled variants, evaluate every eligible one, and report
detection, preservation, the strength block and the verdict::

    from textcontract.audit import audit_directory

    result = audit_directory("mutations/")
    print(result.report["detection"]["score"], result.verdict.value)

The library never prints or exits; the ``textcontract audit`` command renders
``result.report`` and exits with ``result.exit_code``.
"""

from textcontract.audit.reading import (
    AUDIT_FILE,
    AuditConfig,
    Case,
    Change,
    Expectation,
    Relation,
    Thresholds,
    Trial,
    Validity,
    Variant,
    baseline_digest,
    build_trial,
)
from textcontract.audit.results import (
    AUDIT_VERSION,
    CorpusFacts,
    ExcludedReason,
    ExcludedRow,
    ExpectedStatus,
    Outcome,
    Part,
    Preflight,
    Rate,
    Shard,
    ThresholdCheck,
    TrialResult,
    VariantRow,
    failed_preflight,
    wilson_interval,
)
from textcontract.audit.running import (
    AuditResult,
    CacheCounts,
    Corpus,
    PreflightFailed,
    Progress,
    SourceRevisionOption,
    VariantView,
    audit_directory,
    corpus_facts,
    load_corpus,
    merge_audit,
    preflight_directory,
    run_audit,
    variant_views,
)

__all__ = [
    "AUDIT_FILE",
    "AUDIT_VERSION",
    "AuditConfig",
    "AuditResult",
    "CacheCounts",
    "Case",
    "Change",
    "Corpus",
    "CorpusFacts",
    "ExcludedReason",
    "ExcludedRow",
    "Expectation",
    "ExpectedStatus",
    "Outcome",
    "Part",
    "Preflight",
    "PreflightFailed",
    "Progress",
    "Rate",
    "Relation",
    "Shard",
    "SourceRevisionOption",
    "ThresholdCheck",
    "Thresholds",
    "Trial",
    "TrialResult",
    "Validity",
    "Variant",
    "VariantRow",
    "VariantView",
    "audit_directory",
    "baseline_digest",
    "build_trial",
    "corpus_facts",
    "failed_preflight",
    "load_corpus",
    "merge_audit",
    "preflight_directory",
    "run_audit",
    "variant_views",
    "wilson_interval",
]
