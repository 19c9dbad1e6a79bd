"""Mutation corpora generated from a baseline (SPEC §14): any contract audited on day one.

One module per operator; operators are plugins like rule types (entry-point group
``textcontract.operators``). Generate one case file and audit it::

    from textcontract.mutate import generate_case

    case = generate_case(document, context, contract, "order-1001")
    Path("mutations/order-1001.yaml").write_text(case.to_yaml())

Generation reads the baseline and the contract's rules and never looks at how the contract
does on a variant: which variants exist does not depend on whether they are caught.
``import textcontract`` does not import this package.
"""

from textcontract.mutate._base import (
    Baseline,
    Expected,
    Mutation,
    Operator,
    OperatorClass,
    Proposal,
    Skip,
    expected,
    with_claim,
    with_fact,
    with_texts,
)
from textcontract.mutate._choice import Chooser
from textcontract.mutate._generate import (
    BaselineRejected,
    GeneratedCase,
    GeneratedVariant,
    Skipped,
    generate_case,
    select_operators,
)
from textcontract.mutate._registry import (
    BUILTIN_OPERATORS,
    ENTRY_POINT_GROUP,
    OperatorRegistry,
    OperatorRegistryError,
    default_operators,
)

__all__ = [
    "BUILTIN_OPERATORS",
    "ENTRY_POINT_GROUP",
    "Baseline",
    "BaselineRejected",
    "Chooser",
    "Expected",
    "GeneratedCase",
    "GeneratedVariant",
    "Mutation",
    "Operator",
    "OperatorClass",
    "OperatorRegistry",
    "OperatorRegistryError",
    "Proposal",
    "Skip",
    "Skipped",
    "default_operators",
    "expected",
    "generate_case",
    "select_operators",
    "with_claim",
    "with_fact",
    "with_texts",
]
