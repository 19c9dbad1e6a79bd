"""Hypothesis strategies for ``regex`` pattern sources built to trip a reader of their syntax.

Literal braces that are and are not quantifiers, brackets inside and outside classes, escapes
of every kind, alternations inside groups, inline, scoped and positional flags (verbose mode
among them), comments, ``\\Q…\\E`` (which ``regex`` refuses) and Unicode properties. Most
generated sources compile; the rest test that what does not compile is not read either.
"""

from __future__ import annotations

import regex
from hypothesis import strategies as st

from textcontract.text import (
    Atom,
    CharSet,
    GroupKind,
    LiteralChar,
    PatternNode,
    Repeat,
    parse_pattern,
)

# Characters that stand for themselves, with case pairs RE2 and regex fold differently (k, s,
# i), and the characters that mean something somewhere in the syntax.
LITERALS = [*"abkKsSiIe1", " ", "'", "-", ",", ":", "#", "\n", "}", "]", "=", "<", ">", "!"]
ESCAPES = [
    r"\(",
    r"\)",
    r"\.",
    r"\{",
    r"\}",
    r"\[",
    r"\]",
    r"\|",
    r"\\",
    r"\ ",
    r"\#",
    r"\-",
    r"\é",
    r"\x41",
    r"\x6b",
    r"\u00e9",
    r"\U0000004B",
    r"\N{LATIN SMALL LETTER A}",
    r"\N",
    r"\0",
    r"\01",
    r"\101",
    r"\n",
    r"\t",
    r"\b",
    r"\B",
    r"\A",
    r"\Z",
    r"\m",
    r"\M",
    r"\d",
    r"\w",
    r"\s",
    r"\W",
    r"\p{L}",
    r"\pL",
    r"\px",
    r"\P{Lu}",
    r"\p{Script=Latin}",
    r"\p{^Greek}",
    r"\Q",
    r"\E",
    r"\G",
    r"\K",
]
CLASSES = [
    "[ab]",
    "[^a]",
    "[]a]",
    "[^]k]",
    "[a-]",
    "[-a]",
    "[a-c]",
    "[a-ck]",
    r"[\d-z]",
    r"[\]]",
    r"[\\]",
    "[{}]",
    "[(|)]",
    "[ #]",
    r"[\p{L}s]",
    r"[\b]",
    "[[:alpha:]]",
    "[[a]",
    "[a[]",
]
BRACES = [
    *("{", "}", "{2}", "{1,}", "{,2}", "{,}", "{1,2}", "{a|b}", "{a", "{1,a}", "{ 2}", "{e<=1}"),
    *("{a|", "|b}", "{,|}", "{x}|"),
]
QUANTIFIERS = ["?", "*", "+", "??", "*?", "+?", "?+", "*+", "{2}", "{0,1}", "{1,}", "{,}", "{1}"]
OPENERS = [
    "(",
    "(?:",
    "(?P<n>",
    "(?<m>",
    "(?>",
    "(?|",
    "(?=",
    "(?!",
    "(?<=",
    "(?<!",
    "(?i:",
    "(?-i:",
    "(?x:",
    "(?-x:",
    "(?s:",
]
MARKERS = [
    "(?i)",
    "(?-i)",
    "(?x)",
    "(?m)",
    "(?s)",
    "(?w)",
    "(?V0)",
    "(?#note)",
    "(?# a|b )",
    "(?a)",
    "(?f)",
    "(?V1)",
    "(?b)",
    "(?r)",
    "(?P=n)",
    r"\1",
    "(?(1)a|b)",
    "(*FAIL)",
    "|",
    ".",
    "^",
    "$",
    ")",
    "(",
]

# One kind of syntax at a time, each as likely as the others, so that rarer kinds (braces,
# classes) meet literals and alternations often.
_atom = st.one_of(
    st.sampled_from(LITERALS),
    st.sampled_from(ESCAPES),
    st.sampled_from(CLASSES),
    st.sampled_from(BRACES),
    st.sampled_from(MARKERS),
)


def _grouped(parts: tuple[str, list[str]]) -> str:
    opener, inner = parts
    return opener + "".join(inner) + ")"


def _pieces(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.tuples(st.sampled_from(OPENERS), st.lists(inner, min_size=1, max_size=3)).map(_grouped),
        st.tuples(inner, st.sampled_from(QUANTIFIERS)).map("".join),
        st.lists(inner, min_size=2, max_size=3).map("|".join),
        st.lists(inner, min_size=2, max_size=4).map("".join),
    )


# Flat sequences keep syntax at the top level, where an alternation splits the whole pattern.
PATTERNS = st.lists(_atom, min_size=1, max_size=6).map("".join) | st.recursive(
    _atom, _pieces, max_leaves=10
)
# Mostly literals, with what can hide an alternation or make them optional: for the question
# "which literal does every match contain".
LITERAL_PATTERNS = st.lists(
    st.one_of(
        st.sampled_from(LITERALS),
        st.sampled_from(LITERALS),
        st.sampled_from(BRACES),
        st.sampled_from(["|", "(", ")", "(?:", "?", "*", "+", "{2}", "[a|b]", r"\|", r"\{"]),
    ),
    min_size=2,
    max_size=8,
).map("".join)
FLAGS = st.sampled_from(["i", "ix", "", "ia", "ims", "ir", "ipx"])


# --- texts a pattern matches ---------------------------------------------------------------
# Built from the pattern as the shared reader reads it (tests/text/test_regex_literals.py holds
# that reading against regex's own parser), so that searches find matches: each literal in one
# of the case variants regex's IGNORECASE accepts, one member of each class, a branch of each
# alternation, a few repetitions of each repeat. Not every text matches (a class escape or a
# look-around may refuse it); those test that nothing is selected wrongly.

_CASE_VARIANTS = {"k": "kK\u212a", "s": "sS\u017f", "i": "iI\u0130\u0131"}
_ANY = ["a", "k", "1", " ", "\u00e9", "_", "\n"]


def _variants(literal: LiteralChar) -> st.SearchStrategy[str]:
    char = literal.char
    if not literal.flags & regex.IGNORECASE:
        return st.just(char)
    variants = _CASE_VARIANTS.get(char.lower(), char + char.swapcase())
    return st.sampled_from(sorted(set(variants)))


def _node_text(node: PatternNode) -> st.SearchStrategy[str]:
    if isinstance(node, LiteralChar):
        return _variants(node)
    if isinstance(node, CharSet):
        if node.negated or not node.members:
            return st.sampled_from(_ANY)
        return st.sampled_from(node.members).flatmap(_variants)
    if isinstance(node, Atom):
        return st.just("") if node.zero_width else st.sampled_from(_ANY)
    if isinstance(node, Repeat):
        most = node.minimum + 2 if node.maximum is None else min(node.maximum, node.minimum + 2)
        return st.lists(_node_text(node.item), min_size=node.minimum, max_size=most).map("".join)
    if node.kind in _IN_PLACE:
        return branches_text(node.branches)
    return st.just("")  # a look-around consumes nothing


_IN_PLACE = {GroupKind.CAPTURE, GroupKind.PLAIN, GroupKind.ATOMIC, GroupKind.BRANCH_RESET}


def branches_text(branches: tuple[tuple[PatternNode, ...], ...]) -> st.SearchStrategy[str]:
    return st.one_of([st.tuples(*map(_node_text, branch)).map("".join) for branch in branches])


def matching_text(source: str, flags: int = regex.IGNORECASE) -> st.SearchStrategy[str]:
    """Texts ``source`` likely matches; pieces of the source when the reader gives up."""
    parsed = parse_pattern(source, flags)
    if parsed is None:
        pieces = [source[i : i + 3] for i in range(len(source))] or [""]
        return st.sampled_from(pieces)
    return branches_text(parsed.branches)
