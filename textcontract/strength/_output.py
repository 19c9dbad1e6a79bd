"""The exit code of ``score``, read from the artifact it produced."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from textcontract.errors import ExitCode
from textcontract.strength._verdict import VerdictValue

__all__ = ["artifact_exit_code"]


def artifact_exit_code(artifact: Mapping[str, Any]) -> ExitCode:
    """``score``'s exit code: 1 only when the artifact's verdict is FAIL."""
    return VerdictValue(artifact["verdict"]["value"]).exit_code
