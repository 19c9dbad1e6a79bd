"""What a report, an audit report or an evidence artifact records of the engine that made it.

``engine`` = ``{"name", "version", "unicode", "icu"?}`` (SPEC §3, §19, §20). Normalization
reads the Unicode database of the running Python (``unicodedata``) and the tables the
``regex`` package ships with; both can change a result without any change to the contract,
so both are on record. ``icu`` is the version of ICU whose dictionaries cut the tokens, and
is there only when the contract uses the ``icu`` segmenter.
"""

from __future__ import annotations

from typing import Any

from textcontract._version import ENGINE_NAME, __version__

__all__ = ["engine_identity", "engine_json", "unicode_versions"]


def unicode_versions() -> dict[str, str]:
    """``{"unicodedata": <Unicode database version>, "regex": <regex package version>}``."""
    import unicodedata

    import regex

    return {"unicodedata": unicodedata.unidata_version, "regex": str(regex.__version__)}


def engine_identity() -> dict[str, Any]:
    """``{"name", "version"}``: the block of an output that holds no computed results (what
    ``score`` prints for an INVALID run, a preflight verdict)."""
    return {"name": ENGINE_NAME, "version": __version__}


def engine_json(icu: str | None = None) -> dict[str, Any]:
    """This engine's block, with ``icu`` when the results depend on ICU's data."""
    block = engine_identity()
    block["unicode"] = unicode_versions()
    if icu is not None:
        block["icu"] = icu
    return block
