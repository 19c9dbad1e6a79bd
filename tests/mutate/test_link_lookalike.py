"""link-lookalike: the subdomain trick and a Cyrillic homoglyph, per host."""

from __future__ import annotations

from textcontract.mutate.link_lookalike import homoglyph, link_hosts, subdomain_trick

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
