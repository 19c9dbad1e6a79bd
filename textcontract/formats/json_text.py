"""JSON rendering shared by every command: deterministic, UTF-8, two-space indent."""

from __future__ import annotations

import json
from typing import Any

__all__ = ["dumps_compact", "dumps_pretty"]


def dumps_pretty(value: Any) -> str:
    """Indented JSON with a final newline."""
    return json.dumps(value, ensure_ascii=False, indent=2, allow_nan=False) + "\n"


def dumps_compact(value: Any) -> str:
    """One-line JSON (for JSON Lines), without a newline."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
