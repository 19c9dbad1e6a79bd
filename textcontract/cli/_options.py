"""Options shared by several commands, with metavars as users write them (``FILE``)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from textcontract._version import __version__

__all__ = [
    "ContractOption",
    "OutputOption",
    "VersionOption",
    "jobs_option",
    "output_file",
    "print_version",
]


def print_version(value: bool) -> None:
    """The ``-V/--version`` callback of the application and of every command."""
    if value:
        typer.echo(f"textcontract {__version__}")
        raise typer.Exit(0)


ContractOption = Annotated[
    Path | None,
    typer.Option(
        "--contract",
        "-c",
        metavar="FILE",
        help="Contract file (default: textcontract.yaml here or above).",
    ),
]


def jobs_option(what: str) -> typer.models.OptionInfo:
    """``-j/--jobs N``, whose help says what the processes do (``"read and check documents"``)."""
    option: typer.models.OptionInfo = typer.Option(
        "--jobs", "-j", min=1, metavar="N", help=f"Processes that {what} (this one included)."
    )
    return option


def output_file(value: str) -> Path:
    """``--output``'s value as a path; one ending in ``/`` names a folder, which is refused
    here because a :class:`~pathlib.Path` would drop the ``/`` (``out/`` became ``out``)."""
    if value.endswith(("/", os.sep)):
        raise typer.BadParameter(f"{value!r} names a folder (it ends with '/'); give a file name")
    return Path(value)


OutputOption = Annotated[
    Path | None,
    typer.Option(
        "--output",
        "-o",
        metavar="FILE",
        parser=output_file,
        help="Write to this file (atomically) instead of stdout.",
    ),
]
VersionOption = Annotated[
    bool,
    typer.Option(
        "--version",
        "-V",
        callback=print_version,
        is_eager=True,
        expose_value=False,
        help="Print the version and exit.",
    ),
]
