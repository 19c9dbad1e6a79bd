"""A contract file's ``tokens:`` block (SPEC §19): how the token rules under it cut tokens.

``tokens: {segmenter: icu, locale: ja}`` applies to the rules that declare ``segmenter``
(the token rules, LexicalRestatement, NoRepeatedText) in its file and in the files that file
includes, except those under a ``tokens:`` block of their own; a rule's own ``segmenter`` or
``locale`` overrides it. The block and every parameter it gives a rule enter the contract
digest only when written, so contracts without it keep their 0.2 digests.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from textcontract.contract._header import valid_param
from textcontract.fields import MISSING, FieldReader
from textcontract.rules import DEFAULT_LOCALE, LOCALE, SEGMENTER, Param

__all__ = ["TOKENS_FIELDS", "Tokens", "read_tokens", "resolve_segmenting"]

_PARAMS: Mapping[str, Param] = {param.name: param for param in (SEGMENTER, LOCALE)}
TOKENS_FIELDS = tuple(_PARAMS)


@dataclass(frozen=True)
class Tokens:
    """A file's ``tokens:`` block (SPEC §19): how its token rules cut tokens.

    It applies to the rules of its file and of the files that file includes, except those
    under a ``tokens:`` block of their own; a rule's own ``segmenter`` overrides it.
    """

    segmenter: str
    locale: str | None = None

    def inherited_by(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """What a rule whose own parameters are ``given`` takes from this block.

        The block's segmenter when the rule names none; its locale when the rule names no
        locale and cuts with the block's segmenter (a rule choosing ``words`` has no locale).
        """
        inherited: dict[str, Any] = {}
        if "segmenter" not in given:
            inherited["segmenter"] = self.segmenter
        segmenter = given.get("segmenter", self.segmenter)
        if self.locale is not None and "locale" not in given and segmenter == self.segmenter:
            inherited["locale"] = self.locale
        return inherited

    def to_json(self) -> dict[str, Any]:
        """The block as the contract digest covers it (locale only with a segmenter using one)."""
        if self.locale is None:
            return {"segmenter": self.segmenter}
        return {"segmenter": self.segmenter, "locale": self.locale}


def read_tokens(reader: FieldReader, value: Any) -> Tokens | None:
    """``tokens: {segmenter, locale}``, or ``None`` when absent or invalid (each problem
    reported). ``locale`` (default root) goes with ``segmenter: icu`` only."""
    if value is MISSING or value is None:
        return None
    start = reader.mark()
    fields = reader.mapping(value, ("tokens",), required=("segmenter",), optional=("locale",))
    for name, param in _PARAMS.items():
        if fields.get(name, MISSING) is not MISSING:
            valid_param(reader, param, fields[name], ("tokens", name))
    if "locale" in fields and fields["segmenter"] == "words":
        reader.problem(("tokens", "locale"), "tokens.locale applies to segmenter: icu only")
    if reader.failed_since(start):
        return None
    segmenter = str(fields["segmenter"])
    locale = fields.get("locale", DEFAULT_LOCALE if segmenter == "icu" else None)
    return Tokens(segmenter, None if locale is None else str(locale))


def resolve_segmenting(resolved: Mapping[str, Any]) -> dict[str, Any]:
    """A rule's resolved parameters with the icu segmenter's locale filled in (``root``)."""
    if resolved.get("segmenter") == "icu" and "locale" not in resolved:
        return {**resolved, "locale": DEFAULT_LOCALE}
    return dict(resolved)
