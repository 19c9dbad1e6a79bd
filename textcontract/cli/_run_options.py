"""Options of the commands that record a run's environment: ``--as-of``, ``--source-revision``
and ``--mode`` (SPEC §17), parsed into what the library takes."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, Annotated, Literal

import typer

from textcontract.errors import InputError

if TYPE_CHECKING:
    from textcontract.strength import SourceRevision

__all__ = [
    "AsOfOption",
    "ModeOption",
    "SourceRevisionFlag",
    "as_of_date",
    "checked_mode",
    "source_revision",
]

AsOfOption = Annotated[
    str | None,
    typer.Option(
        "--as-of",
        metavar="YYYY-MM-DD",
        help="The date waivers are judged on (default: today, UTC; read only with waivers).",
    ),
]
SourceRevisionFlag = Annotated[
    str | None,
    typer.Option(
        "--source-revision",
        metavar="REVISION",
        help="Record the source revision: COMMIT, COMMIT+dirty, COMMIT+clean (audit: or auto).",
    ),
]
ModeOption = Annotated[
    str | None,
    typer.Option(
        "--mode",
        metavar="MODE",
        help="contract-scoring (the contract is judged) or production (the system is).",
    ),
]


def as_of_date(text: str | None) -> date | None:
    """``--as-of`` as a date; a malformed one is an input error (exit 2)."""
    if text is None:
        return None
    from textcontract.strength import parse_date  # (the scorer loads when a command runs)

    found = parse_date(text)
    if found is None:
        raise InputError.at(f"{text!r} is not a date (YYYY-MM-DD)", key="--as-of")
    return found


def source_revision(
    text: str | None, *, allow_auto: bool
) -> SourceRevision | Literal["auto"] | None:
    """``--source-revision``: ``"auto"`` (where allowed), an attested revision, or ``None``."""
    if text is None:
        return None
    if text == "auto":
        if allow_auto:
            return "auto"
        raise InputError.at(
            "auto is only for audit (it reads git there); give COMMIT, COMMIT+dirty or "
            "COMMIT+clean",
            key="--source-revision",
        )
    from textcontract.strength import attested_revision

    return attested_revision(text)


def checked_mode(text: str | None) -> str | None:
    from textcontract.fields import did_you_mean
    from textcontract.strength import MODES

    if text is not None and text not in MODES:
        raise InputError.at(
            f"{text!r} is not one of {', '.join(MODES)}",
            key="--mode",
            hint=did_you_mean(text, MODES),
        )
    return text
