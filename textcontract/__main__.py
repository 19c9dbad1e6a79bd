"""``python -m textcontract``."""

from textcontract.cli import main

main()
