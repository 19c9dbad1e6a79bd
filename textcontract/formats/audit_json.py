"""``audit --format json``: the audit report as indented JSON, keys in SPEC §6 order."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

__all__ = ["render_audit_json"]


def render_audit_json(report: Mapping[str, Any]) -> str:
    """Deterministic text: UTF-8 kept as is, two-space indent, a final newline."""
    return json.dumps(report, ensure_ascii=False, indent=2, allow_nan=False) + "\n"
