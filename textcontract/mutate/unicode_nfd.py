"""unicode-nfd: every surface in Unicode normalization form D (decomposed).

Precomposed letters become a base letter and combining marks (``é`` → ``e`` + U+0301), as
macOS file names and some input methods produce them. A document that is all ASCII (or has
nothing to decompose) gives nothing.

Valid by construction: NFD and NFC are canonically equivalent — the same text by the Unicode
standard, drawn identically. Where it is not: a consumer that compares bytes (a database key,
a legacy system) would see another string; the contract checks text, and SPEC §4 normalizes
before every pattern and token rule.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator

from textcontract.mutate._base import Baseline, Operator, OperatorClass, Proposal
from textcontract.mutate._choice import Chooser
from textcontract.mutate._preserve import rewrite_surfaces

__all__ = ["UnicodeNfd"]


class UnicodeNfd(Operator):
    name = "unicode-nfd"
    probe_class = OperatorClass.PRESERVE
    summary = (
        "every surface in Unicode form D (é as e + combining accent): canonically the same "
        "text, a different byte sequence"
    )

    def generate(self, baseline: Baseline, chooser: Chooser) -> Iterator[Proposal]:
        del chooser  # nothing to choose
        yield from rewrite_surfaces(
            baseline, lambda _, text: unicodedata.normalize("NFD", text), "decomposed (NFD)"
        )
