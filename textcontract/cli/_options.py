"""Options shared by several commands."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

__all__ = ["ContractOption", "OutputOption"]

ContractOption = Annotated[
    Path | None,
    typer.Option(
        "--contract", "-c", help="Contract file (default: textcontract.yaml here or above)."
    ),
]
OutputOption = Annotated[
    Path | None,
    typer.Option("--output", "-o", help="Write to this file (atomically) instead of stdout."),
]
