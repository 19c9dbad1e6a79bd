"""forbidden-disguise: a forbidden text planted in disguise — fullwidth, ligatures, accents, case.

Each rule's forbidden text (one of those ``forbidden-inject`` would plant, picked by the seed
among the texts a form changes) is written four ways, one variant each, into one surface the
rule reads, planted as ``forbidden-inject`` plants:

* ``fullwidth`` — ASCII characters as their fullwidth forms (``ｆｕｌｌ　ｒｅｆｕｎｄ``);
* ``ligatures`` — ``ff``, ``fi``, ``fl``, ``ffi``, ``ffl``, ``st`` as one ligature character;
* ``accents`` — a combining acute accent on the first vowel of each word (``réfund``);
* ``case`` — the text in upper case (lower case when it is upper case already).

A form that changes none of the rule's texts (no ligature pair, no vowel) is skipped. These are the
disguises SPEC §4's normalization is meant to undo (NFKC folds fullwidth forms and
ligatures, case folding the case, accent folding the accents), so the class measures the
normalization: a rule with ``accent_folding: false`` misses the accented form.

Valid by construction: each form reads as the same forbidden words to a person.
Where it is not: accents can change a word in languages that use them (``pâte``/``pate``); for
English contracts the accented form is a disguise, for others it may be another word.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import ClassVar

import regex

from textcontract.mutate._base import (
    Baseline,
    Mutation,
    Operator,
    OperatorClass,
    Proposal,
    Skip,
    expected,
    with_texts,
)
from textcontract.mutate._choice import Chooser
from textcontract.mutate._forbidden import FORBIDDING_TYPES, forbidden_texts
from textcontract.mutate._texts import insert

__all__ = ["DISGUISES", "ForbiddenDisguise"]

_LIGATURES = (
    ("ffi", "\ufb03"),
    ("ffl", "\ufb04"),
    ("ff", "\ufb00"),
    ("fi", "\ufb01"),
    ("fl", "\ufb02"),
    ("st", "\ufb06"),
)
_FIRST_VOWEL = regex.compile(r"\b([^\W\d_]*?)([aeiouAEIOU])")
_ACUTE = "\u0301"


def fullwidth(text: str) -> str:
    """ASCII printable characters as fullwidth forms, the space as the ideographic space."""
    return "".join(
        "\u3000" if char == " " else chr(ord(char) + 0xFEE0) if "!" <= char <= "~" else char
        for char in text
    )


def ligatures(text: str) -> str:
    for pair, ligature in _LIGATURES:
        text = text.replace(pair, ligature)
    return text


def accents(text: str) -> str:
    """A combining acute accent (U+0301, left decomposed) after the first vowel of each word."""
    return _FIRST_VOWEL.sub(lambda found: found.group(1) + found.group(2) + _ACUTE, text)


def changed_case(text: str) -> str:
    upper = text.upper()
    return upper if upper != text else text.lower()


DISGUISES: tuple[tuple[str, Callable[[str], str]], ...] = (
    ("fullwidth", fullwidth),
    ("ligatures", ligatures),
    ("accents", accents),
    ("case", changed_case),
)


class ForbiddenDisguise(Operator):
    name = "forbidden-disguise"
    probe_class = OperatorClass.GAMEABILITY
    targets: ClassVar[tuple[str, ...]] = FORBIDDING_TYPES
    summary = (
        "a forbidden text planted in fullwidth forms, with ligatures, with combining accents "
        "or in another case: the same words to a reader, a test of the normalization"
    )

    def generate(self, baseline: Baseline, chooser: Chooser) -> Iterator[Proposal]:
        for entry in baseline.entries(self.targets):
            rule = entry.rule
            surfaces = baseline.surfaces_read(rule)
            if not surfaces:
                yield Skip(f"{rule.header.id}: the document has none of the surfaces it reads")
                continue
            texts = forbidden_texts(entry, baseline.context, chooser)
            if isinstance(texts, Skip):
                yield texts
                continue
            surface = chooser.pick(surfaces, rule.header.id, "surface")
            for form, disguise in DISGUISES:
                # the seed picks the text among those this form changes
                changed = [(item, disguise(item.text)) for item in texts]
                changed = [(item, text) for item, text in changed if text != item.text]
                if not changed:
                    yield Skip(f"{rule.header.id}: the {form} form changes none of its texts")
                    continue
                item, disguised = chooser.pick(changed, rule.header.id, form)
                planted = insert(surface.text, disguised, chooser, rule.header.id, form)
                yield Mutation(
                    with_texts(baseline.document, {surface.name: planted}),
                    baseline.context,
                    f"planted on surface {surface.name!r} in {form} form: {item.origin}",
                    (expected(rule, rule.main_code, f"surface:{surface.name}"),),
                )
