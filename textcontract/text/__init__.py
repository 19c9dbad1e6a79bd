"""Text handling: normalization profiles, word tokens, script shares, timed searches."""

from textcontract.text._hosts import host_key
from textcontract.text._normalize import Profile, normalize
from textcontract.text._scripts import (
    UNSPACED_SCRIPTS,
    UNSPACED_THRESHOLD,
    ScriptShare,
    unspaced_share,
)
from textcontract.text._search import Budget, Excerpt, PatternTimeout, excerpt, find_matches
from textcontract.text._tokens import word_tokens

__all__ = [
    "UNSPACED_SCRIPTS",
    "UNSPACED_THRESHOLD",
    "Budget",
    "Excerpt",
    "PatternTimeout",
    "Profile",
    "ScriptShare",
    "excerpt",
    "find_matches",
    "host_key",
    "normalize",
    "unspaced_share",
    "word_tokens",
]
