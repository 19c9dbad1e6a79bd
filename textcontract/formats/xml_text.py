"""XML text for the JUnit formats: the standard library's writer, fed only characters XML allows.

:mod:`xml.etree.ElementTree` escapes markup characters (``&``, ``<``, ``>``, quotes, and line
breaks and tabs inside attributes) but writes every other character as it is, so a control
character from a document would make the file unreadable. XML 1.0 allows tab, line feed,
carriage return, U+0020–U+D7FF, U+E000–U+FFFD and U+10000 and above; :func:`xml_safe`
replaces everything else — C0 controls by their visible Control Pictures (U+0001 → ``␁``),
anything else (U+FFFE, U+FFFF, a lone surrogate) by U+FFFD — so the text stays readable and
nothing XML forbids is ever emitted.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping

__all__ = ["XML_DECLARATION", "element", "serialize", "xml_safe"]

XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'
_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_CONTROL_PICTURES = 0x2400
_REPLACEMENT = "\ufffd"


def _replace(match: re.Match[str]) -> str:
    code = ord(match.group())
    return chr(_CONTROL_PICTURES + code) if code < 0x20 else _REPLACEMENT


def xml_safe(text: str) -> str:
    """``text`` with every character XML 1.0 forbids replaced by a visible stand-in."""
    return _FORBIDDEN.sub(_replace, text)


def element(
    tag: str,
    attributes: Mapping[str, str | int] | None = None,
    text: str | None = None,
) -> ET.Element:
    """An element whose attribute values and text are made XML-safe (attributes in order)."""
    node = ET.Element(tag)
    for name, value in (attributes or {}).items():
        node.set(name, xml_safe(str(value)))
    if text is not None:
        node.text = xml_safe(text)
    return node


def serialize(node: ET.Element, level: int = 0) -> str:
    """The element as indented XML text (two spaces a level), ending with a line break."""
    ET.indent(node, space="  ", level=level)
    return "  " * level + ET.tostring(node, encoding="unicode") + "\n"
