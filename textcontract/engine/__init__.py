"""The engine: evaluate compiled contracts over (document, context) pairs."""

from textcontract.engine._contract import Contract, load_contract
from textcontract.engine._evaluate import evaluate, run_rule

__all__ = ["Contract", "evaluate", "load_contract", "run_rule"]
