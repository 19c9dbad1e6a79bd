"""Host names as browsers compare them: IDNA (ASCII, lowercase), UTS #46 non-transitional."""

from __future__ import annotations

import unicodedata
from urllib.parse import unquote

import regex

__all__ = ["host_key"]

# Label separators the IDNA codec recognizes: full stop, ideographic, fullwidth, halfwidth.
_DOTS = regex.compile("[.\u3002\uff0e\uff61]")
# Characters that IDNA 2003 maps away (ß → ss, ς → σ, joiners → nothing) but that
# browsers, under UTS #46 non-transitional processing, keep as a different domain.
_DEVIATIONS = frozenset("\u00df\u03c2\u200c\u200d")


def host_key(host: str) -> str | None:
    """The host as compared with the allowed domains: IDNA (ASCII), lowercased.

    ``None`` when the host cannot be encoded (an empty label, a label over 63
    octets, a prohibited character); such a host is never allowed.
    """
    if host.startswith("["):
        return host.lower()
    if "%" in host:
        host = unquote(host)
    labels = _DOTS.split(host)
    if len(labels) > 1 and not labels[-1]:
        labels.pop()  # "example.com." names the same domain as "example.com"
    encoded: list[str] = []
    for label in labels:
        if not label:
            return None
        try:
            if _DEVIATIONS.isdisjoint(label):
                encoded.append(label.encode("idna").decode("ascii"))
            else:
                encoded.append(_nontransitional(label))
        except UnicodeError:
            return None
    key = ".".join(encoded).lower()
    return key or None


def _nontransitional(label: str) -> str:
    """Case-fold ``label`` except its deviation characters, then Punycode it."""
    mapped = unicodedata.normalize("NFKC", label)
    mapped = "".join(c if c in _DEVIATIONS else c.casefold() for c in mapped)
    mapped = unicodedata.normalize("NFC", mapped)
    ascii_label = "xn--" + mapped.encode("punycode").decode("ascii")
    if not 0 < len(ascii_label) <= 63:
        raise UnicodeError("label empty or too long")
    return ascii_label
