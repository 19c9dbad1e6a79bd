"""link-lookalike: the subdomain trick and a Cyrillic homoglyph, per host."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from textcontract.mutate.link_lookalike import _rewritten, homoglyph, link_hosts, subdomain_trick

from .baselines import caught, reasons, run


def test_hosts_tricks_and_homoglyphs() -> None:
    text = "See https://user@Shop.example.com:443/x, http://track.example.net. and https://[::1]/"
    assert [text[s:e] for s, e in link_hosts(text)] == ["Shop.example.com", "track.example.net"]
    assert subdomain_trick("shop.example.com") == "shop.example.com.account-verify.example"
    assert homoglyph("shop.example.com") == "shop.\u0435xample.com"
    assert homoglyph("xyz.q") == "\u0445yz.q"
    assert homoglyph("bbb.qq") is None


CONTRACT = """\
textcontract: 1
id: c
rules:
  - {id: ours, type: LinkDomains, allowed_from: shop, include_subdomains: true}
"""


def test_every_link_to_the_host_is_rewritten_and_caught() -> None:
    text = "Track https://t.shop.example/1 or https://t.shop.example/2 on https://shop.example."
    case, contract = run(CONTRACT, text, {"shop": "shop.example"}, "link-lookalike")
    rewritten = [v.document.surface("body").text for v in case.variants]  # type: ignore[union-attr]
    assert rewritten[0] == (
        "Track https://t.shop.example.account-verify.example/1 or "
        "https://t.shop.example.account-verify.example/2 on https://shop.example."
    )
    assert rewritten[1].count("t.sh\u043ep.example") == 2
    assert len(case.variants) == 4
    assert caught(contract, case) == [True] * 4


def test_no_link_no_variant() -> None:
    case, _ = run(CONTRACT, "No links here.", {"shop": "shop.example"}, "link-lookalike")
    assert reasons(case) == ["ours on surface 'body': no http(s) link"]


def _plain_rewritten(text: str, host: str, new: str) -> str:
    """``_rewritten`` as it was: one new string per link (quadratic in the links)."""
    spans = [span for span in link_hosts(text) if text[span[0] : span[1]] == host]
    for start, end in reversed(spans):
        text = text[:start] + new + text[end:]
    return text


_pieces = st.sampled_from(
    ["https://a.com ", "http://a.com/x", "https://a.com.", "https://u@a.com:8 ", "a.com ", "x"]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_pieces, max_size=8), st.sampled_from(["a.com", "b.org"]))
def test_rewriting_joins_the_pieces_as_the_plain_rewrite_did(pieces: list[str], host: str) -> None:
    text = "".join(pieces)
    assert _rewritten(text, host, "a.com.evil") == _plain_rewritten(text, host, "a.com.evil")
