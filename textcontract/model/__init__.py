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
from textcontract.model._location import TextLocation, TextOrigin
from textcontract.model._report import CheckPolicy, ContractRef, Report, is_accepted, is_complete
from textcontract.model._shown import SHOWN_PATTERN_LENGTH, shown_pattern

__all__ = [
    "BODY",
    "DEFAULT_STATE",
    "NAME_PATTERN",
    "SHOWN_PATTERN_LENGTH",
    "Anchor",
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
    "is_accepted",
    "is_complete",
    "is_fact_value",
    "is_valid_unicode",
    "new_document",
    "new_surface",
    "new_surface_from_pieces",
    "new_surface_with_deferred_anchors",
    "same_value",
    "shown_pattern",
    "type_name",
    "validate_facts",
]
