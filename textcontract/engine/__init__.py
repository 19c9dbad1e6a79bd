"""The engine: evaluate compiled contracts over (document, context) pairs."""

from textcontract.engine._contract import Contract, load_contract, load_contract_text
from textcontract.engine._evaluate import evaluate, run_rule
from textcontract.engine._stream import (
    Checked,
    Render,
    Rendered,
    check_inputs,
    check_pool,
    render_inputs,
)

__all__ = [
    "Checked",
    "Contract",
    "Render",
    "Rendered",
    "check_inputs",
    "check_pool",
    "evaluate",
    "load_contract",
    "load_contract_text",
    "render_inputs",
    "run_rule",
]
