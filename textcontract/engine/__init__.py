"""The engine: evaluate compiled contracts over (document, context) pairs."""

from textcontract.engine._contract import Contract, load_contract, load_contract_text
from textcontract.engine._evaluate import evaluate, run_rule
from textcontract.engine._stream import Checked, check_inputs, check_pool

__all__ = [
    "Checked",
    "Contract",
    "check_inputs",
    "check_pool",
    "evaluate",
    "load_contract",
    "load_contract_text",
    "run_rule",
]
