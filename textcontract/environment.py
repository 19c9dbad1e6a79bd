"""The two inputs textcontract takes from its environment, read here and nowhere else.

SPEC §17: the date waivers are judged on (the current UTC date, when ``--as-of`` is not
given and waivers are declared) and the source revision of an audit (``git``, for
``--source-revision auto``). Everything else is a pure function of the files given;
whoever calls these records what they returned in the output.
"""

from __future__ import annotations

import os
import subprocess
from datetime import UTC, date, datetime
from pathlib import Path

from textcontract.strength import RevisionBasis, SourceRevision

__all__ = ["git_source_revision", "today_utc"]

_GIT_TIMEOUT = 30.0
"""Seconds a git command may take before the revision counts as unknown."""


def today_utc() -> date:
    """The current date in UTC (a waiver is in force through its ``expires`` day, UTC)."""
    return datetime.now(UTC).date()


def _git(directory: Path, *args: str) -> str | None:
    """``git -C DIR ARGS…``'s standard output, or ``None`` when git is missing or fails."""
    try:
        completed = subprocess.run(
            ["git", "-C", os.fspath(directory), *args],
            capture_output=True,
            text=True,
            timeout=_GIT_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return completed.stdout if completed.returncode == 0 else None


def git_source_revision(directory: Path, contract: Path | None) -> SourceRevision:
    """``--source-revision auto``: the commit of ``directory``'s work tree, and whether
    ``git status --porcelain`` lists anything under ``directory`` or the contract.

    Whatever cannot be read — no git, not a work tree, no HEAD, a failing command —
    gives ``{commit: null, dirty: null, basis: unknown}``: a clean tree is never assumed.
    """
    head = _git(directory, "rev-parse", "--verify", "HEAD")
    if head is None or not head.strip():
        return SourceRevision.unknown()
    paths = ["."]
    if contract is not None:
        paths.append(os.fspath(contract.resolve()))
    status = _git(directory, "status", "--porcelain", "--untracked-files=all", "--", *paths)
    if status is None:
        return SourceRevision.unknown()
    return SourceRevision(head.strip().lower(), bool(status.strip()), RevisionBasis.GIT)
