"""Running an audit: the corpus passes, per-case evaluation in a worker pool, the result."""

from textcontract.audit.running._corpus import (
    Corpus,
    load_corpus,
)
from textcontract.audit.running._corpus_facts import (
    corpus_facts,
)
from textcontract.audit.running._preflight import (
    PreflightFailed,
)
from textcontract.audit.running._runner import (
    AuditResult,
    CacheCounts,
    Progress,
    SourceRevisionOption,
    audit_directory,
    merge_audit,
    preflight_directory,
    run_audit,
)
from textcontract.audit.running._views import (
    VariantView,
    variant_views,
)

__all__ = [
    "AuditResult",
    "CacheCounts",
    "Corpus",
    "PreflightFailed",
    "Progress",
    "SourceRevisionOption",
    "VariantView",
    "audit_directory",
    "corpus_facts",
    "load_corpus",
    "merge_audit",
    "preflight_directory",
    "run_audit",
    "variant_views",
]
