"""The ``engine`` block an artifact or an audit report records, and the caveats it raises.

``compare`` and ``aggregate-strength`` read results made elsewhere. Results computed under
another Unicode database, ``regex`` tables or ICU version may differ for reasons no contract
states (SPEC §20): the files stay comparable, and the output says so in ``caveats``.

- ``unicode-differs``: two of the files record different ``engine.unicode``. A file written
  before it was recorded (0.1, 0.2) counts as *unknown*, which differs from any recorded
  value; two unknowns are not said to differ (nothing tells them apart).
- ``icu-differs``: two of the files record different ``engine.icu``. A file without it made
  no use of ICU (0.1 and 0.2 had none), so only files that both used ICU can differ.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from textcontract.fields import MISSING, FieldReader, KeyPath

__all__ = ["CAVEATS", "UNKNOWN_ENGINE", "RecordedEngine", "engine_caveats", "read_engine"]

UNICODE_DIFFERS = "unicode-differs"
ICU_DIFFERS = "icu-differs"
CAVEATS = (UNICODE_DIFFERS, ICU_DIFFERS)
_UNICODE_KEYS = ("unicodedata", "regex")


@dataclass(frozen=True)
class RecordedEngine:
    """The versions a file says its results were computed under.

    ``unicode`` is ``None`` when the file does not record it (unknown); ``icu`` is ``None``
    when the results used no ICU.
    """

    unicode: tuple[tuple[str, str], ...] | None = None
    icu: str | None = None


UNKNOWN_ENGINE = RecordedEngine()
"""What a file that records no Unicode versions (nor ICU) says of its engine."""


def read_engine(reader: FieldReader, value: Any, path: KeyPath = ("engine",)) -> RecordedEngine:
    """``engine: {name, version, unicode?, icu?}``; a malformed block is reported."""
    fields = reader.mapping(value, path, required=("name", "version"), optional=("unicode", "icu"))
    reader.string(fields["name"], (*path, "name"))
    reader.string(fields["version"], (*path, "version"))
    unicode = None
    if fields.get("unicode", MISSING) is not MISSING:
        at = (*path, "unicode")
        versions = reader.mapping(fields["unicode"], at, required=_UNICODE_KEYS)
        unicode = tuple(
            (key, reader.string(versions[key], (*at, key), "")) for key in _UNICODE_KEYS
        )
    icu = None
    if fields.get("icu", MISSING) is not MISSING:
        icu = reader.string(fields["icu"], (*path, "icu"), None)
    return RecordedEngine(unicode, icu)


def engine_caveats(engines: Sequence[RecordedEngine]) -> list[str]:
    """The caveats a set of files raises, in the order of :data:`CAVEATS`."""
    caveats = []
    unicode = {engine.unicode for engine in engines}
    if len(unicode - {None}) > 1 or (None in unicode and len(unicode) > 1):
        caveats.append(UNICODE_DIFFERS)
    if len({engine.icu for engine in engines} - {None}) > 1:
        caveats.append(ICU_DIFFERS)
    return caveats
