"""Text handling: normalization profiles (+ offset maps back to the original), word tokens and
segmenters, script shares, pattern syntax, timed searches, and markup views (:mod:`.markup`)."""

from typing import TYPE_CHECKING, Any

from textcontract.text._hosts import host_key
from textcontract.text._normalize import Profile, fold_text, normalize, profiles
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
from textcontract.text._segmenters import (
    ICU_EXTRA,
    LOCALE_SYNTAX,
    SEGMENTER_NAMES,
    WORDS,
    IcuSegmenter,
    Segmenter,
    SegmenterUnavailable,
    WordSegmenter,
    icu_segmenter,
)
from textcontract.text._tokens import word_tokens
from textcontract.text.markup import (
    Layout,
    Link,
    MarkupKind,
    Run,
    View,
    ViewMap,
    layout_of,
)

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
        "MarkupKind",
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
    "ICU_EXTRA",
    "LOCALE_SYNTAX",
    "SEGMENTER_NAMES",
    "UNSPACED_SCRIPTS",
    "UNSPACED_THRESHOLD",
    "WORDS",
    "Atom",
    "Budget",
    "CharSet",
    "Group",
    "GroupKind",
    "IcuSegmenter",
    "Layout",
    "Link",
    "LiteralChar",
    "LiteralPrefilter",
    "LiteralRun",
    "MarkupKind",
    "OffsetMap",
    "ParsedPattern",
    "PatternHit",
    "PatternNode",
    "PatternTimeout",
    "Profile",
    "Repeat",
    "Run",
    "ScriptShare",
    "Segmenter",
    "SegmenterUnavailable",
    "View",
    "ViewMap",
    "WordSegmenter",
    "excerpt",
    "find_matches",
    "fold_text",
    "has_unspaced_letter",
    "host_key",
    "icu_segmenter",
    "layout_of",
    "literal_runs",
    "normalize",
    "parse_pattern",
    "profiles",
    "required_literal",
    "required_runs",
    "unspaced_share",
    "unsupported_share",
    "word_tokens",
]
