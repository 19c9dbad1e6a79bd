"""Text handling: normalization profiles (+ offset maps back to the original), word tokens,
script shares, pattern syntax, timed searches."""

from typing import TYPE_CHECKING, Any

from textcontract.text._hosts import host_key
from textcontract.text._normalize import Profile, fold_text, normalize
from textcontract.text._offsets import OffsetMap
from textcontract.text._prefilter import LiteralPrefilter, required_literal
from textcontract.text._scripts import (
    UNSPACED_SCRIPTS,
    UNSPACED_THRESHOLD,
    ScriptShare,
    has_unspaced_letter,
    unspaced_share,
    unsupported_share,
)
from textcontract.text._search import Budget, PatternHit, PatternTimeout, excerpt, find_matches
from textcontract.text._tokens import word_tokens

if TYPE_CHECKING:
    from textcontract.text._regex_literals import (
        Atom,
        CharSet,
        Group,
        GroupKind,
        LiteralChar,
        LiteralRun,
        ParsedPattern,
        PatternNode,
        Repeat,
        literal_runs,
        parse_pattern,
        required_runs,
    )

# The reader of pattern syntax loads on first use (a few milliseconds at import): a check
# needs it only for pattern lists long enough for the prefilter, with google-re2 installed.
_READER = frozenset(
    {
        "Atom",
        "CharSet",
        "Group",
        "GroupKind",
        "LiteralChar",
        "LiteralRun",
        "OffsetMap",
        "ParsedPattern",
        "PatternNode",
        "Repeat",
        "literal_runs",
        "parse_pattern",
        "required_runs",
    }
)


def __getattr__(name: str) -> Any:
    if name in _READER:
        from textcontract.text import _regex_literals

        return getattr(_regex_literals, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "UNSPACED_SCRIPTS",
    "UNSPACED_THRESHOLD",
    "Atom",
    "Budget",
    "CharSet",
    "Group",
    "GroupKind",
    "LiteralChar",
    "LiteralPrefilter",
    "LiteralRun",
    "OffsetMap",
    "ParsedPattern",
    "PatternHit",
    "PatternNode",
    "PatternTimeout",
    "Profile",
    "Repeat",
    "ScriptShare",
    "excerpt",
    "find_matches",
    "fold_text",
    "has_unspaced_letter",
    "host_key",
    "literal_runs",
    "normalize",
    "parse_pattern",
    "required_literal",
    "required_runs",
    "unspaced_share",
    "unsupported_share",
    "word_tokens",
]
