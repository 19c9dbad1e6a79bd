"""The data model: facts, contexts, documents (+ anchors, origins), checks (+ locations),
reports (frozen)."""

from textcontract.model._anchors import Anchor, anchors_of_pieces
from textcontract.model._check import Check, Enforcement, Kind, RuleVersion, Severity, Status
from textcontract.model._context import DEFAULT_STATE, Context
from textcontract.model._document import (
    BODY,
    Document,
    Surface,
    new_document,
    new_surface,
    new_surface_from_pieces,
    new_surface_with_deferred_anchors,
)
from textcontract.model._facts import (
    NAME_PATTERN,
    Facts,
    FactValue,
    describe_value,
    is_fact_value,
    is_valid_unicode,
    same_value,
    type_name,
    validate_facts,
)
from textcontract.model._findings import (
    NEW,
    UNCHANGED,
    Baseline,
    fails_with_baseline,
    finding_fingerprint,
    matched_text,
    rejects,
    relative_path,
)
from textcontract.model._location import TextLocation, TextOrigin
from textcontract.model._report import CheckPolicy, ContractRef, Report, is_accepted, is_complete
from textcontract.model._shown import SHOWN_PATTERN_LENGTH, shown_pattern

__all__ = [
    "BODY",
    "DEFAULT_STATE",
    "NAME_PATTERN",
    "NEW",
    "SHOWN_PATTERN_LENGTH",
    "UNCHANGED",
    "Anchor",
    "Baseline",
    "Check",
    "CheckPolicy",
    "Context",
    "ContractRef",
    "Document",
    "Enforcement",
    "FactValue",
    "Facts",
    "Kind",
    "Report",
    "RuleVersion",
    "Severity",
    "Status",
    "Surface",
    "TextLocation",
    "TextOrigin",
    "anchors_of_pieces",
    "describe_value",
    "fails_with_baseline",
    "finding_fingerprint",
    "is_accepted",
    "is_complete",
    "is_fact_value",
    "is_valid_unicode",
    "matched_text",
    "new_document",
    "new_surface",
    "new_surface_from_pieces",
    "new_surface_with_deferred_anchors",
    "rejects",
    "relative_path",
    "same_value",
    "shown_pattern",
    "type_name",
    "validate_facts",
]
