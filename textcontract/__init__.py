"""textcontract: check generated text against YAML contracts, and measure the contracts.

Load a contract once and check each rendered output::

    import textcontract

    contract = textcontract.load_contract("textcontract.yaml")  # YAML text: load_contract_text
    report = contract.check("Your order #1001 has shipped.", {"order.status": "shipped"})
    assert report.accepted and report.complete
"""

import typing as _typing

from textcontract._lazy import lazy_exports as _lazy_exports
from textcontract._version import __version__

if _typing.TYPE_CHECKING:
    from textcontract.engine import Contract, load_contract, load_contract_text
    from textcontract.errors import (
        ContractError,
        ExitCode,
        InputError,
        Problem,
        RefusedArtifactSet,
        TextcontractError,
    )
    from textcontract.model import (
        Check,
        CheckPolicy,
        Context,
        Document,
        Enforcement,
        Kind,
        Report,
        Severity,
        Status,
        Surface,
    )

_EXPORTS = {
    **dict.fromkeys(("Contract", "load_contract", "load_contract_text"), "textcontract.engine"),
    **dict.fromkeys(
        (
            "ContractError",
            "ExitCode",
            "InputError",
            "Problem",
            "RefusedArtifactSet",
            "TextcontractError",
        ),
        "textcontract.errors",
    ),
    **dict.fromkeys(
        (
            "Check",
            "CheckPolicy",
            "Context",
            "Document",
            "Enforcement",
            "Kind",
            "Report",
            "Severity",
            "Status",
            "Surface",
        ),
        "textcontract.model",
    ),
}
__getattr__, __dir__ = _lazy_exports(__name__, _EXPORTS)

__all__ = [
    "Check",
    "CheckPolicy",
    "Context",
    "Contract",
    "ContractError",
    "Document",
    "Enforcement",
    "ExitCode",
    "InputError",
    "Kind",
    "Problem",
    "RefusedArtifactSet",
    "Report",
    "Severity",
    "Status",
    "Surface",
    "TextcontractError",
    "__version__",
    "load_contract",
    "load_contract_text",
]
