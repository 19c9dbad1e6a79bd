"""Testing helpers for contract and rule authors.

``require_rate(value, minimum)`` fails on a null figure and below the minimum.
``load_rule_cases`` / ``evaluate_case`` / ``mismatches`` run a rule type's YAML
fixture (satisfied, violated, undetermined, error and load-error cases), the
harness the built-in types are tested with.
The pytest plugin (``textcontract.testing._pytest_plugin``, registered as the
``textcontract`` pytest11 entry point) provides the ``textcontract`` fixture, a
:class:`ContractFixture` with ``check`` and ``audit``.
"""

import typing as _typing

from textcontract._lazy import lazy_exports as _lazy_exports

if _typing.TYPE_CHECKING:
    from textcontract.testing._helpers import (
        ContractFixture,
        describe_offending_checks,
        require_rate,
    )
    from textcontract.testing._rule_cases import (
        CaseResult,
        RuleCase,
        evaluate_case,
        load_rule_cases,
        mismatches,
    )

_EXPORTS = {
    **dict.fromkeys(
        ("ContractFixture", "describe_offending_checks", "require_rate"),
        "textcontract.testing._helpers",
    ),
    **dict.fromkeys(
        ("CaseResult", "RuleCase", "evaluate_case", "load_rule_cases", "mismatches"),
        "textcontract.testing._rule_cases",
    ),
}
__getattr__, __dir__ = _lazy_exports(__name__, _EXPORTS)

__all__ = [
    "CaseResult",
    "ContractFixture",
    "RuleCase",
    "describe_offending_checks",
    "evaluate_case",
    "load_rule_cases",
    "mismatches",
    "require_rate",
]
