"""How a rule's pattern is named where people read it (messages, CI formats).

A rule pack's pattern can run to hundreds of characters; quoting it whole in every message,
annotation and test-case body buries the finding. A pattern of up to
:data:`SHOWN_PATTERN_LENGTH` characters is shown whole; a longer one by its first
characters and ``…``. The report's evidence keeps every pattern whole.
"""

from __future__ import annotations

__all__ = ["SHOWN_PATTERN_LENGTH", "shown_pattern"]

SHOWN_PATTERN_LENGTH = 40


def shown_pattern(source: str) -> str:
    """``source`` when it is short, else its first characters and ``…``."""
    if len(source) <= SHOWN_PATTERN_LENGTH:
        return source
    return source[:SHOWN_PATTERN_LENGTH] + "…"
