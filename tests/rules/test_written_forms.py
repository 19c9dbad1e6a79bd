"""ClaimsAnchored's search mode: the written forms of a value and where one occurs (SPEC §15)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from textcontract.model import FactValue
from textcontract.rules._written_forms import find_written, written_forms

FORMS: list[tuple[FactValue, tuple[str, ...]]] = [
    (59, ("59",)),
    (1234, ("1234", "1,234")),
    (-1234567, ("-1234567", "-1,234,567")),
    (0, ("0",)),
    (59.9, ("59.9", "59.90")),
    (59.0, ("59.0", "59", "59.00")),
    (1059.9, ("1059.9", "1059.90", "1,059.9", "1,059.90")),
    (0.5, ("0.5", "0.50")),
    (0.001, ("0.001",)),  # 0.00 would be another value
    (59.999, ("59.999",)),  # so would 60.00
    (-2.5, ("-2.5", "-2.50")),
    (
        1e16,
        (
            "1e+16",
            "10000000000000000",
            "10000000000000000.00",
            "10,000,000,000,000,000",
            "10,000,000,000,000,000.00",
        ),
    ),
    (1e-07, ("1e-07", "0.0000001")),
    (True, ("true",)),
    (False, ("false",)),
    ("Shipped", ("shipped",)),
    ("Straße", ("strasse",)),
    ("", ()),
    (None, ()),
]


@pytest.mark.parametrize(("value", "forms"), FORMS, ids=[repr(v) for v, _ in FORMS])
def test_written_forms(value: FactValue, forms: tuple[str, ...]) -> None:
    assert written_forms(value) == forms


FOUND: list[tuple[FactValue, str, str | None]] = [
    # integers: plain or grouped, whole numbers only
    (1234, "Points: 1234.", "1234"),
    (1234, "Points: 1,234.", "1,234"),
    (1234, "Points: 11234", None),
    (1234, "Points: 12345", None),
    (1234, "Points: 1234.5", None),
    (1234, "Points: 1,234,567", None),
    (1234, "Points: 5,1234", None),
    (1234, "Points: -1234", None),
    (-1234, "Balance: -1234", "-1234"),
    (-1234, "Balance: -1,234 EUR", "-1,234"),
    (5, "pages 3-5", "5"),
    (5, "order #5, item 5", "5"),
    (1001, "ref A1001", "1001"),
    (1001, "#1001!", "1001"),
    # floats: shortest form or two decimals
    (59.9, "Total: 59.90 EUR", "59.90"),
    (59.9, "Total: 59.9 EUR", "59.9"),
    (59.9, "Total: EUR59.90", "59.90"),
    (59.9, "Total: 159.90 EUR", None),
    (59.9, "Total: 59.95 EUR", None),
    (59.9, "Total: 59.900 EUR", None),
    (59.9, "Total: 1,059.90", None),
    (59.9, "Total: 59,9", None),
    (59.9, "Total: 59.90.", "59.90"),
    (59.9, "Total: 59.90, then", "59.90"),
    (1059.9, "Total: 1,059.90", "1,059.90"),
    (59.0, "Total: 59 EUR", "59"),
    (59.0, "Total: 59.00 EUR", "59.00"),
    (0.001, "rate 0.00", None),
    # booleans: words, any case
    (True, "Gift wrap: TRUE", "TRUE"),
    (True, "Gift wrap: True.", "True"),
    (True, "untrue", None),
    (True, "trueness", None),
    (False, "paid=false", "false"),
    # strings: case-folded, whole words at word edges
    ("Shipped", "Your order has SHIPPED.", "SHIPPED"),
    ("Straße", "Ship to STRASSE 5", "STRASSE"),
    ("STRASSE", "Ship to Straße 5", "Straße"),
    ("ship", "It has shipped", None),
    ("A1", "Seat A12", None),
    ("A1", "Seat A1, row 3", "A1"),
    ("Dana", "Dana's order", "Dana"),
    ("-x-", "a-x-b", "-x-"),
    ("ﬁne", "FINE", "FINE"),
    ("İ", "i̇", "i̇"),
    # nothing to look for
    (None, "None null", None),
    ("", "anything", None),
]


@pytest.mark.parametrize(("value", "text", "found"), FOUND)
def test_find_written(value: FactValue, text: str, found: str | None) -> None:
    span = find_written(value, text)
    if found is None:
        assert span is None
    else:
        assert span is not None
        assert text[span[0] : span[1]] == found


def test_the_first_occurrence_is_reported() -> None:
    assert find_written(59.9, "was 59.90, now 59.9") == (4, 9)
    assert find_written(7, "17 then 7 then 7") == (8, 9)


_filler = st.text(alphabet="ab ,.-\n€", max_size=6)


@given(number=st.integers(-(10**12), 10**12), before=_filler, after=_filler)
def test_an_integer_written_between_spaces_is_found(number: int, before: str, after: str) -> None:
    text = f"{before} {number:,} {after}"
    span = find_written(number, text)
    assert span is not None
    assert text[span[0] : span[1]] in {str(number), f"{number:,}"}


@given(number=st.integers(0, 10**9), digit=st.integers(0, 9), side=st.booleans())
def test_an_integer_is_never_found_inside_a_longer_number(
    number: int, digit: int, side: bool
) -> None:
    text = f"x {digit}{number} y" if side else f"x {number}{digit} y"
    assert find_written(number, text) is None


@given(
    value=st.floats(allow_nan=False, allow_infinity=False, min_value=-1e9, max_value=1e9),
    digit=st.integers(1, 9),  # an appended 0 can give another form of the value (59.90)
)
def test_a_float_is_never_found_inside_a_longer_number(value: float, digit: int) -> None:
    for form in written_forms(value):
        assert find_written(value, f"= {form}{digit} =") is None
        assert find_written(value, f"= {digit}{form.lstrip('-')} =") is None


@given(value=st.floats(allow_nan=False, allow_infinity=False))
def test_every_written_form_denotes_the_value(value: float) -> None:
    for form in written_forms(value):
        assert float(form.replace(",", "")) == value
