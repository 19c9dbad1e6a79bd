"""The mutation audit (SPEC §6): how well a contract catches faults and accepts valid text.

Load a corpus of labelled variants, evaluate every eligible one, and report
detection, preservation, the strength block and the verdict::

    from textcontract.audit import audit_directory

    result = audit_directory("mutations/")
    print(result.report["detection"]["score"], result.verdict.value)

The library never prints or exits; the ``textcontract audit`` command renders
``result.report`` and exits with ``result.exit_code``.
"""

from textcontract.audit._config import AUDIT_FILE, AuditConfig, Thresholds
from textcontract.audit._corpus import Corpus, load_corpus
from textcontract.audit._figures import (
    ExcludedReason,
    Outcome,
    Rate,
    ThresholdCheck,
    wilson_interval,
)
from textcontract.audit._findings import ExcludedRow, VariantRow
from textcontract.audit._matching import ExpectedStatus, TrialResult
from textcontract.audit._model import (
    Case,
    Change,
    Expectation,
    Relation,
    Validity,
    Variant,
    baseline_digest,
)
from textcontract.audit._report import AUDIT_VERSION
from textcontract.audit._runner import AuditResult, Progress, audit_directory, run_audit
from textcontract.audit._variants import Trial, build_trial

__all__ = [
    "AUDIT_FILE",
    "AUDIT_VERSION",
    "AuditConfig",
    "AuditResult",
    "Case",
    "Change",
    "Corpus",
    "ExcludedReason",
    "ExcludedRow",
    "Expectation",
    "ExpectedStatus",
    "Outcome",
    "Progress",
    "Rate",
    "Relation",
    "ThresholdCheck",
    "Thresholds",
    "Trial",
    "TrialResult",
    "Validity",
    "Variant",
    "VariantRow",
    "audit_directory",
    "baseline_digest",
    "build_trial",
    "load_corpus",
    "run_audit",
    "wilson_interval",
]
