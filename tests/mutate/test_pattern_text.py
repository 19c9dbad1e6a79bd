"""Texts built from a pattern's parse tree, verified against the compiled pattern."""

from __future__ import annotations

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from textcontract.mutate import Chooser
from textcontract.mutate._pattern_text import matching_text
from textcontract.text import Profile, normalize


def _text(source: str, profile: Profile = Profile.FOLDED, seed: int = 0) -> str | None:
    compiled = regex.compile(source, regex.IGNORECASE)
    return matching_text(source, compiled, profile, Chooser(seed, "t"))


@pytest.mark.parametrize(
    ("source", "text"),
    [
        (r"\bfull refund\b", "full refund"),
        (r"\brefund (is|has been) (approved|issued)\b", "refund is approved"),
        (r"#\d{4,}", "#1111"),
        (r"https://track\.example\.net/\S+", "https://track.example.net/a"),
        (r"\bguarantee[ds]?\b", "guarantee"),
        (r"(?<!\])\[(?!sic\])(?=[a-z0-9_]{0,63}[^\W\d_])[a-z0-9_]{2,64}\](?![(\[])", "[aa]"),
        (r"(?m)^[ \t]{0,3}#{1,6}[ \t]+\S", "# a"),
        (r"\\u[0-9a-f]{4}", "\\uaaaa"),
    ],
)
def test_texts_built_for_patterns(source: str, text: str) -> None:
    assert _text(source) == text


@pytest.mark.parametrize(
    "source",
    [
        pytest.param(r"(?P<a>x)(?P>a)", id="group-call-not-understood"),
        pytest.param(r"a{100}", id="too-long"),
        pytest.param(r"\s+", id="only-space"),
        pytest.param("ﬁx", id="dead-ligature"),  # normalization turns text into "fix"
        pytest.param(r"(?=x)y", id="contradiction"),
    ],
)
def test_no_text_when_none_can_be_built(source: str) -> None:
    assert _text(source) is None


def test_an_accented_literal_matches_only_without_accent_folding() -> None:
    assert _text("café", Profile.TEXT) == "café"
    assert _text("café", Profile.FOLDED) is None  # dead under folding (lint says so too)


_PIECES = st.sampled_from(
    ["a", "b", r"\d", r"\w", ".", "[xy]", "[^a]", r"\s", "(c|d)", "e?", "f+", "g{2}", r"\b", "-"]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, min_size=1, max_size=6).map("".join), st.integers(0, 3))
def test_every_built_text_matches_its_pattern(source: str, seed: int) -> None:
    built = _text(source, seed=seed)
    if built is not None:
        assert regex.search(source, normalize(built, Profile.FOLDED), regex.IGNORECASE)
