"""Reading a corpus: audit.yaml, case files, the case model, and the trials a variant yields."""

from textcontract.audit.reading._case_files import (
    CaseReader,
    case_files,
)
from textcontract.audit.reading._config import (
    AUDIT_FILE,
    AuditConfig,
    Thresholds,
    join_display,
    read_config,
    read_mode,
)
from textcontract.audit.reading._model import (
    ID_PATTERN,
    Case,
    Change,
    Expectation,
    Relation,
    Validity,
    Variant,
    baseline_digest,
)
from textcontract.audit.reading._variants import (
    Trial,
    build_trial,
)
from textcontract.audit.reading._waivers import (
    waived_probe_ids,
    waiver_problems,
)

__all__ = [
    "AUDIT_FILE",
    "ID_PATTERN",
    "AuditConfig",
    "Case",
    "CaseReader",
    "Change",
    "Expectation",
    "Relation",
    "Thresholds",
    "Trial",
    "Validity",
    "Variant",
    "baseline_digest",
    "build_trial",
    "case_files",
    "join_display",
    "read_config",
    "read_mode",
    "waived_probe_ids",
    "waiver_problems",
]
