"""The usual written forms of a claimed value, and where one of them occurs in a text.

ClaimsAnchored's search mode (SPEC §15) looks for a claim that carries no anchor:

- integers: plain (``1234``) or with ``,`` thousands separators (``1,234``);
- floats: Python's shortest round-tripping form (``59.9``; ``59.0`` also as ``59``) and two
  decimals (``59.90``) when those two decimals denote the same value — ``0.001`` is never
  "found" as ``0.00`` — each also with ``,`` thousands separators (``1,059.90``);
- booleans: ``true`` / ``false``, case-insensitively, as whole words;
- strings: the value case-folded, found in the case-folded text, as a whole word at each end
  that is a letter, digit or ``_``.

Numbers match as **whole numbers**: a form does not count when it is part of a longer number —
a digit touching it, a ``.`` or ``,`` between it and another digit (``59.9`` is not in
``159.90``, ``1,059.9`` or ``59.95``), or, for a value without its own sign, a sign directly
before it that is not a hyphen between words (``-5`` is not ``5``; ``3-5`` contains ``5``).
Letters may touch a number (``EUR59.90``, ``#1001``). ``null`` and the empty string have no
written form.
"""

from __future__ import annotations

from textcontract.model import FactValue

__all__ = ["find_written", "written_forms"]

_SIGNS = "-+\u2212"


def written_forms(value: FactValue) -> tuple[str, ...]:
    """The forms searched for ``value``, most usual first; empty when there are none."""
    if value is None or value == "":
        return ()
    if isinstance(value, bool):
        return ("true",) if value else ("false",)
    if isinstance(value, int):
        return _unique([str(value), f"{value:,}"])
    if isinstance(value, float):
        return _float_forms(value)
    return (value.casefold(),)


def _float_forms(value: float) -> tuple[str, ...]:
    shortest = repr(value)
    forms = [shortest]
    if value.is_integer():
        forms.append(str(int(value)))
    elif "e" in shortest:
        from decimal import Decimal  # (for exponents only: a cold start does without)

        forms.append(format(Decimal(shortest), "f"))
    two_decimals = f"{value:.2f}"
    if float(two_decimals) == value:
        forms.append(two_decimals)
    forms.extend([_grouped(form) for form in forms])
    return _unique(forms)


def _grouped(form: str) -> str:
    """``1059.90`` → ``1,059.90``; exponent forms stay as they are."""
    if "e" in form or "E" in form:
        return form
    sign = form[0] if form[0] in _SIGNS else ""
    whole, dot, fraction = form[len(sign) :].partition(".")
    return f"{sign}{int(whole):,}{dot}{fraction}"


def _unique(forms: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(forms))


def find_written(value: FactValue, text: str) -> tuple[int, int] | None:
    """The ``[start, end)`` of the first whole occurrence of a written form, or None."""
    forms = written_forms(value)
    if not forms:
        return None
    if isinstance(value, int | float) and not isinstance(value, bool):
        return _first_number(forms, text)
    return _first_word(forms, text)


def _first_number(forms: tuple[str, ...], text: str) -> tuple[int, int] | None:
    best: tuple[int, int] | None = None
    for form in forms:
        start = text.find(form)
        while start >= 0:
            end = start + len(form)
            if _number_starts(text, start, signed=form[0] in _SIGNS) and _number_ends(text, end):
                if best is None or (start, -end) < (best[0], -best[1]):
                    best = (start, end)
                break
            start = text.find(form, start + 1)
    return best


def _number_starts(text: str, start: int, *, signed: bool) -> bool:
    if start == 0:
        return True
    before = text[start - 1]
    if before.isdecimal():
        return False
    if before in ".," and start >= 2 and text[start - 2].isdecimal():
        return False
    return not (not signed and before in _SIGNS and (start < 2 or not text[start - 2].isalnum()))


def _number_ends(text: str, end: int) -> bool:
    if end == len(text):
        return True
    after = text[end]
    if after.isdecimal():
        return False
    return not (after in ".," and end + 1 < len(text) and text[end + 1].isdecimal())


def _first_word(forms: tuple[str, ...], text: str) -> tuple[int, int] | None:
    folded, origin = _casefolded(text)
    best: tuple[int, int] | None = None
    for form in forms:
        start = folded.find(form)
        while start >= 0:
            end = start + len(form)
            if _word_edge(folded, start - 1, form[0]) and _word_edge(folded, end, form[-1]):
                found = (origin[start], origin[end - 1] + 1)
                if best is None or found < best:
                    best = found
                break
            start = folded.find(form, start + 1)
    return best


def _is_word(char: str) -> bool:
    return char.isalnum() or char == "_"


def _word_edge(folded: str, outside: int, edge: str) -> bool:
    """True when the character just outside a match does not glue it to a longer word."""
    if not _is_word(edge) or outside < 0 or outside >= len(folded):
        return True
    return not _is_word(folded[outside])


def _casefolded(text: str) -> tuple[str, list[int] | range]:
    """The case-folded text and, for each of its characters, the original index.

    ``str.casefold`` maps each character on its own to one or more characters, so equal
    lengths mean a one-to-one mapping.
    """
    folded = text.casefold()
    if len(folded) == len(text):
        return folded, range(len(text))
    origin: list[int] = []
    for index, char in enumerate(text):
        origin.extend([index] * len(char.casefold()))
    return folded, origin
