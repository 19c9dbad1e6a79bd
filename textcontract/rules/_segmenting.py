"""The ``segmenter`` and ``locale`` parameters of the rules that read tokens (SPEC §19).

A rule without ``segmenter`` reads §4's word tokens. ``segmenter: icu`` needs the optional
``icu`` extra: asking for it where icu4py cannot be imported is a problem with the value
itself, so the contract error points at the line that asked (rule or header).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from textcontract.rules._params import ABSENT, Param, ParamProblem, ParamType, choice
from textcontract.text import (
    LOCALE_SYNTAX,
    SEGMENTER_NAMES,
    WORDS,
    Segmenter,
    SegmenterUnavailable,
    icu_segmenter,
)

__all__ = [
    "DEFAULT_LOCALE",
    "LOCALE",
    "SEGMENTER",
    "SEGMENTING_PARAMS",
    "segmenter_of",
    "segmenting_problems",
]

DEFAULT_LOCALE = "root"
_NAMES = choice(*SEGMENTER_NAMES)


class _SegmenterName(ParamType):
    label = " | ".join(SEGMENTER_NAMES)

    def json_schema(self) -> dict[str, Any]:
        return _NAMES.json_schema()

    def convert(self, value: Any) -> str:
        name: str = _NAMES.convert(value)
        if name == "icu":
            try:
                icu_segmenter()
            except SegmenterUnavailable as error:
                raise ParamProblem(str(error)) from None
        return name


class _Locale(ParamType):
    label = "locale id"

    def json_schema(self) -> dict[str, Any]:
        return {"type": "string", "pattern": "^" + LOCALE_SYNTAX.pattern.removesuffix("\\Z") + "$"}

    def convert(self, value: Any) -> str:
        if not isinstance(value, str) or LOCALE_SYNTAX.match(value) is None:
            raise ParamProblem(
                f"expected a locale id such as root, ja, zh_Hant or th_TH, got {value!r}"
            )
        return value


SEGMENTER: Final = Param(
    "segmenter",
    _SegmenterName(),
    "how tokens are cut: words (word tokens, the default) or icu (ICU word segments holding a"
    " letter, in every script; needs the icu extra); default: the contract's tokens.segmenter",
    default=ABSENT,
)
LOCALE: Final = Param(
    "locale",
    _Locale(),
    "the locale of the icu segmenter's dictionaries; default: the contract's tokens.locale,"
    " else root",
    default=ABSENT,
)
SEGMENTING_PARAMS: Final = (SEGMENTER, LOCALE)


def segmenting_problems(options: Mapping[str, Any]) -> list[ParamProblem]:
    """``locale`` is the icu segmenter's: with any other it would be silently ignored."""
    if options.get("locale") is not None and options.get("segmenter") != "icu":
        return [ParamProblem("locale applies to segmenter: icu only", ("locale",))]
    return []


def segmenter_of(options: Mapping[str, Any]) -> Segmenter:
    """The segmenter a rule's converted options ask for (words when they name none)."""
    if options.get("segmenter") != "icu":
        return WORDS
    locale = options.get("locale")
    return icu_segmenter(DEFAULT_LOCALE if locale is None else str(locale))
