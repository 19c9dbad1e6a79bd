"""A small, deterministic YAML writer for case files, read back exactly by the strict loader.

Only what case files need: mappings, sequences, and the scalars of SPEC §2.1. Every scalar is
written so that YAML 1.2 core (``textcontract._yaml``) and YAML 1.1 readers alike read back
the same type and value:

* a string is plain only when it is an identifier-like word no schema reads as anything
  else (``violation``, ``fact-flip``, ``order.status``); multi-line text is a literal block
  (``|``) when every character can stand in one; anything else is double-quoted with JSON
  escapes, plus ``\\u`` escapes for characters YAML reads as line breaks or refuses;
* integers are decimal digits; floats are ``repr`` with ``.0`` put before an exponent that
  lacks a point (``1.0e+16``); ``true``/``false``/``null``.

Small mappings and sequences of scalars are written in flow style (``{rule: …, code: …}``).
A round-trip property test holds every output against the loader.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

import regex

__all__ = ["dump_yaml"]

_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_./-]*\Z")
# Words some YAML schema reads as booleans or null (YAML 1.1 adds y/n, yes/no, on/off).
_RESERVED = frozenset({"true", "false", "null", "yes", "no", "on", "off", "y", "n", "~"})
# Characters a double-quoted scalar escapes beyond JSON's: C1 controls and DEL (which YAML
# refuses), NEL, LS and PS (which YAML reads as line breaks), non-characters, and what a
# reviewer could not see: format characters (BOM, zero-width and bidi controls) and
# combining marks, so ``"cafe\u0301"`` shows the decomposed form it holds.
_EXTRA_ESCAPES = regex.compile(r"[\x7f-\x9f\u2028\u2029\ufffe\uffff\p{Cf}\p{Mn}\p{Me}]")
# Characters a literal block may hold: tab, and printable characters that are no line break
# and no invisible format character.
_BLOCK_UNSAFE = regex.compile(
    r"[^\t\n\x20-\x7e\xa0-\u2027\u202a-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]|\p{Cf}"
)
_FLOW_WIDTH = 96
_INDENT = 2


def dump_yaml(value: Mapping[str, Any], comments: Sequence[str] = ()) -> str:
    """``value`` as a YAML document, after ``comments`` (one ``# `` line each)."""
    lines = [f"# {line}".rstrip() for line in comments]
    lines.extend(_mapping_lines(value, 0))
    return "\n".join(lines) + "\n"


def _is_scalar(value: object) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def _scalar(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        text = repr(value)
        if "e" in text and "." not in text:
            mantissa, exponent = text.split("e")
            text = f"{mantissa}.0e{exponent}"
        return text
    if isinstance(value, str):
        return _string(value)
    raise TypeError(f"not a YAML scalar of a case file: {type(value).__name__}")


def _string(text: str) -> str:
    if _PLAIN.match(text) and text.lower() not in _RESERVED:
        return text
    return _quoted(text)


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def _quoted(text: str) -> str:
    quoted = json.dumps(text, ensure_ascii=False)
    return _EXTRA_ESCAPES.sub(lambda found: _escape(found.group()), quoted)


def _key(key: object) -> str:
    if not isinstance(key, str):
        raise TypeError(f"mapping keys of a case file are strings, not {type(key).__name__}")
    return _string(key)


def _flow(value: object) -> str | None:
    """``value`` in flow style when it is a scalar or a short collection of scalars."""
    if _is_scalar(value):
        if isinstance(value, str) and "\n" in value:
            return None
        return _scalar(value)
    if isinstance(value, Mapping):
        if not all(_is_scalar(item) for item in value.values()):
            return None
        pairs = [(_key(key), _flow(item)) for key, item in value.items()]
        if any(item is None for _, item in pairs):
            return None
        text = "{" + ", ".join(f"{key}: {item}" for key, item in pairs) + "}"
    elif isinstance(value, list | tuple):
        if not all(_is_scalar(item) for item in value):
            return None
        parts = [_flow(item) for item in value]
        if any(part is None for part in parts):
            return None
        text = "[" + ", ".join(str(part) for part in parts) + "]"
    else:
        raise TypeError(f"not a YAML value of a case file: {type(value).__name__}")
    return text if len(text) <= _FLOW_WIDTH or not value else None


def _block_string(text: str, indent: int) -> list[str] | None:
    """A literal block scalar's header and lines, or ``None`` when the text cannot be one."""
    body = text.rstrip("\n")
    if "\n" not in text or not body or _BLOCK_UNSAFE.search(text):
        return None
    trailing = len(text) - len(body)
    chomp = {0: "-", 1: ""}.get(trailing, "+")
    lines = body.split("\n")
    indicator = str(_INDENT) if _needs_indicator(lines) else ""
    pad = " " * (indent + _INDENT)
    content = [pad + line if line else "" for line in lines]
    content.extend("" for _ in range(trailing - 1))
    return [f"|{indicator}{chomp}", *content]


def _needs_indicator(lines: list[str]) -> bool:
    """Whether auto-detected indentation could go wrong: a line holding only white space
    before the first other line, or a first other line that starts with white space."""
    for line in lines:
        if not line:
            continue
        return line[0] in " \t" or not line.strip(" \t")
    return False


def _entry(prefix: str, value: object, indent: int) -> list[str]:
    """``prefix`` (``key:`` or ``-``) followed by ``value``, which is nested at ``indent``."""
    if isinstance(value, str):
        block = _block_string(value, indent)
        if block is not None:
            return [f"{prefix} {block[0]}", *block[1:]]
        return [f"{prefix} {_string(value)}"]
    flow = _flow(value)
    if flow is not None:
        return [f"{prefix} {flow}"]
    if isinstance(value, Mapping):
        return [prefix, *_mapping_lines(value, indent + _INDENT)]
    if isinstance(value, list | tuple):
        return [prefix, *_sequence_lines(value, indent + _INDENT)]
    raise TypeError(f"not a YAML value of a case file: {type(value).__name__}")


def _mapping_lines(mapping: Mapping[str, Any], indent: int) -> list[str]:
    pad = " " * indent
    lines: list[str] = []
    for key, value in mapping.items():
        lines.extend(_entry(f"{pad}{_key(key)}:", value, indent))
    return lines


def _sequence_lines(items: Sequence[Any], indent: int) -> list[str]:
    pad = " " * indent
    lines: list[str] = []
    for item in items:
        if isinstance(item, Mapping) and item and _flow(item) is None:
            nested = _mapping_lines(item, indent + _INDENT)
            lines.append(f"{pad}- {nested[0][indent + _INDENT :]}")
            lines.extend(nested[1:])
        else:
            lines.extend(_entry(f"{pad}-", item, indent))
    return lines
