"""Host keys: UTS #46 non-transitional mapping and IDNA 2008 A-labels, as browsers compare hosts."""

from __future__ import annotations

import subprocess
import sys

import idna
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from textcontract.text import host_key


def _plain_host_key(host: str) -> str | None:
    """The definition, through the idna package for every host (no ASCII shortcut)."""
    if host.startswith("["):
        return host.lower()
    try:
        mapped = idna.uts46_remap(host, std3_rules=False, transitional=False)
    except idna.IDNAError:
        return None
    labels = mapped.split(".")
    if len(labels) > 1 and not labels[-1]:
        labels.pop()
    encoded = []
    for label in labels:
        try:
            if not label.isascii():
                label = idna.alabel(label).decode("ascii")
            elif label.startswith("xn--"):
                idna.ulabel(label)
        except idna.IDNAError:
            return None
        if not 0 < len(label) <= 63:
            return None
        encoded.append(label)
    return ".".join(encoded)


@pytest.mark.parametrize(
    ("host", "key"),
    [
        pytest.param("Example.COM", "example.com", id="ascii-lowercased"),
        pytest.param("example.com.", "example.com", id="trailing-dot"),
        pytest.param("BÜCHER.example", "xn--bcher-kva.example", id="a-label"),
        pytest.param("ｅｘａｍｐｌｅ。com", "example.com", id="fullwidth-and-ideographic-stop"),
        pytest.param("straße.de", "xn--strae-oqa.de", id="sharp-s-kept"),
        pytest.param("STRAẞE.de", "xn--strae-oqa.de", id="capital-sharp-s-is-sharp-s"),
        pytest.param("strasse.de", "strasse.de", id="ss-is-ss"),
        pytest.param("ς.gr", "xn--3xa.gr", id="final-sigma-kept"),
        pytest.param("σ.gr", "xn--4xa.gr", id="sigma"),
        pytest.param("İnstagram.com", "xn--instagram-5jf.com", id="dotted-capital-i"),
        pytest.param("a_b.-x-.ab--c.example", "a_b.-x-.ab--c.example", id="ascii-as-browsers"),
        pytest.param("XN--BCHER-KVA.example", "xn--bcher-kva.example", id="valid-a-label"),
        pytest.param("evil%2Etest", "evil.test", id="percent-decoded"),
        pytest.param("[::1]", "[::1]", id="ipv6-literal"),
        pytest.param("xn--zz.example", None, id="invalid-a-label"),
        pytest.param("xn--.example", None, id="empty-a-label"),
        pytest.param("a\u200db.example", None, id="joiner-out-of-context"),
        pytest.param("i♥.example", None, id="symbol-idna-2008-refuses"),
        pytest.param("\u0301a.example", None, id="leading-combining-mark"),
        pytest.param("a..example", None, id="empty-label"),
        pytest.param("a" * 64 + ".example", None, id="label-too-long"),
        pytest.param("ü" * 60 + ".example", None, id="unicode-label-too-long"),
        pytest.param("ü" * 59 + ".example", None, id="unicode-label-whose-a-label-is-too-long"),
        pytest.param(
            "ü" * 40 + ".example",
            "xn--tda" + "a" * 39 + ".example",
            id="unicode-label-fits",
        ),
        pytest.param("", None, id="empty"),
        pytest.param("exa\u0000mple.com", "exa\u0000mple.com", id="control-kept-like-any-ascii"),
    ],
)
def test_host_key(host: str, key: str | None) -> None:
    assert host_key(host) == key
    assert _plain_host_key(host.replace("%2E", ".")) == key


def test_huge_unicode_label_is_refused_before_encoding() -> None:
    assert host_key("ü漢" * 50_000 + ".example") is None


def test_uts46_mapping_of_ascii_is_lowercasing() -> None:
    """What the ASCII shortcut relies on, for every ASCII character."""
    for code in range(128):
        text = f"a{chr(code)}b"
        assert idna.uts46_remap(text, std3_rules=False, transitional=False) == text.lower()


_ascii_hosts = st.lists(
    st.sampled_from(["a", "B", "z9", "-", "_", "xn--", "xn--bcher-kva", "xn--zz", "k", "."]),
    max_size=8,
).map("".join)
_unicode_hosts = st.lists(
    st.sampled_from(["a", "ü", "ß", "ẞ", "ς", "Σ", "İ", "\u200d", "\u0301", "♥", "ー", ".", "。"]),
    max_size=8,
).map("".join)


@settings(max_examples=300, deadline=None)
@given(_ascii_hosts | _unicode_hosts)
def test_host_key_equals_the_plain_definition(host: str) -> None:
    assert host_key(host) == _plain_host_key(host)


def test_importing_textcontract_does_not_load_idna() -> None:
    code = (
        "import sys, textcontract\n"
        "from textcontract.text import host_key\n"
        "assert host_key('Shop.Example.COM') == 'shop.example.com'\n"
        "assert 'idna' not in sys.modules, 'idna loaded for an ASCII host'\n"
        "assert host_key('bücher.example') == 'xn--bcher-kva.example'\n"
        "assert 'idna' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
