"""The engine: evaluate compiled contracts over (document, context) pairs."""

from textcontract.engine._contract import Contract, load_contract, load_contract_text
from textcontract.engine._evaluate import evaluate, run_rule

__all__ = ["Contract", "evaluate", "load_contract", "load_contract_text", "run_rule"]
