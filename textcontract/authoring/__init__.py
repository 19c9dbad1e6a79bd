"""Authoring tools: rule examples (``test``), lint, and the rule/pack catalogue (``rules``)."""

from textcontract.authoring._catalog import (
    catalog_json,
    describe_packs,
    describe_param,
    describe_rule_type,
    describe_rule_types,
)
from textcontract.authoring._dead import DeadLiteral, dead_literals
from textcontract.authoring._examples import (
    ContractExamples,
    ExampleResult,
    examples_json,
    observed_status,
    run_examples,
    run_examples_of,
)
from textcontract.authoring._lint import (
    DEAD_PATTERN,
    LINT_CODES,
    NEVER_HOLDS,
    NEVER_VIOLATED,
    LintWarning,
    lint_contract,
    lint_contracts,
    lint_entry,
    lint_json,
)
from textcontract.authoring._surfaces import declared_surfaces, surfaces_read

__all__ = [
    "DEAD_PATTERN",
    "LINT_CODES",
    "NEVER_HOLDS",
    "NEVER_VIOLATED",
    "ContractExamples",
    "DeadLiteral",
    "ExampleResult",
    "LintWarning",
    "catalog_json",
    "dead_literals",
    "declared_surfaces",
    "describe_packs",
    "describe_param",
    "describe_rule_type",
    "describe_rule_types",
    "examples_json",
    "lint_contract",
    "lint_contracts",
    "lint_entry",
    "lint_json",
    "observed_status",
    "run_examples",
    "run_examples_of",
    "surfaces_read",
]
