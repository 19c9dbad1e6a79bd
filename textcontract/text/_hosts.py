"""Host names as browsers compare them: UTS #46 (non-transitional) mapping, then IDNA A-labels.

The ``idna`` package does the work: its UTS #46 table maps the host (case folding, NFC,
compatibility forms, the ideographic and fullwidth full stops), keeping the four deviation
characters (``ß``, ``ς``, ZWJ, ZWNJ) as browsers do, so ``straße.de`` stays distinct from
``strasse.de``. A non-ASCII label becomes its A-label under IDNA 2008's rules (contextual
joiners, bidi, no leading combining mark); an ``xn--`` label must decode to a valid one. An
ASCII label is kept as it is, as browsers keep ``a_b`` or ``-a`` (no STD3 or hyphen rules).
"""

from __future__ import annotations

from types import ModuleType
from urllib.parse import unquote

__all__ = ["host_key"]


# An A-label is "xn--" and at least one character per code point of the label, at most 63.
_MAX_UNICODE_LABEL = 63 - len("xn--")


def _idna() -> ModuleType:
    # Imported on first use (about 10 ms with its tables): an ASCII host needs it only for an
    # "xn--" label, so most checks and cold starts never load it.
    import idna

    return idna


def host_key(host: str) -> str | None:
    """The host as compared with the allowed domains: ASCII, lowercase.

    ``None`` when the host cannot be encoded (an empty label, a label over 63 octets, a
    character UTS #46 or IDNA 2008 refuses, an invalid ``xn--`` label); such a host is never
    allowed.
    """
    if host.startswith("["):
        return host.lower()
    if "%" in host:
        host = unquote(host)
    # On ASCII, UTS #46 mapping without STD3 rules is lowercasing (a test checks every
    # character).
    mapped = host.lower() if host.isascii() else _uts46(host)
    if mapped is None:
        return None
    labels = mapped.split(".")
    if len(labels) > 1 and not labels[-1]:
        labels.pop()  # "example.com." names the same domain as "example.com"
    encoded = [_a_label(label) for label in labels]
    if None in encoded:
        return None
    return ".".join(label for label in encoded if label is not None)


def _uts46(host: str) -> str | None:
    idna = _idna()
    try:
        mapped: str = idna.uts46_remap(host, std3_rules=False, transitional=False)
    except (idna.IDNAError, UnicodeError):
        return None
    return mapped


def _a_label(label: str) -> str | None:
    if label.isascii() and not label.startswith("xn--"):
        return label if 0 < len(label) <= 63 else None
    if not label.isascii() and len(label) > _MAX_UNICODE_LABEL:
        return None  # its A-label would be too long; Punycode is slow on long labels
    idna = _idna()
    try:
        if not label.isascii():
            return str(idna.alabel(label).decode("ascii"))
        idna.ulabel(label)  # raises unless it decodes to a valid label
    except (idna.IDNAError, UnicodeError):
        return None
    return label if len(label) <= 63 else None
