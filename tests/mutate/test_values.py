"""Other representations of a value, and other values of its type."""

from __future__ import annotations

import pytest

from textcontract.model import FactValue, same_value
from textcontract.mutate import Chooser
from textcontract.mutate._values import flip, representations


@pytest.mark.parametrize(
    ("value", "forms"),
    [
        pytest.param(1, [1.0, "1", True], id="one"),
        pytest.param(0, [0.0, "0", False], id="zero"),
        pytest.param(1001, [1001.0, "1001"], id="integer"),
        pytest.param(1.0, [1, "1.0", True], id="integral-float"),
        pytest.param(59.9, ["59.9"], id="float"),
        pytest.param(True, [1, 1.0, "true"], id="true"),
        pytest.param("1", [1, 1.0, True], id="string-one"),
        pytest.param("59.9", [59.9], id="string-float"),
        pytest.param("true", [1, 1.0, True], id="string-true"),
        pytest.param("59.90", [], id="not-shortest"),
        pytest.param("shipped", [], id="word"),
        pytest.param(None, [], id="null"),
        pytest.param(2**60, [str(2**60)], id="beyond-float"),
    ],
)
def test_representations(value: FactValue, forms: list[FactValue]) -> None:
    found = representations(value)
    assert len(found) == len(forms)
    assert all(same_value(a, b) for a, b in zip(found, forms, strict=True))
    assert not any(same_value(form, value) for form in found)


def test_a_flip_keeps_the_type_and_avoids_what_it_must() -> None:
    chooser = Chooser(0, "t")
    assert flip(True, [], chooser) is False
    assert flip(True, [False], chooser) is None
    assert flip(None, [], chooser) is None
    for value in (7, 2.5, "shipped", ""):
        new = flip(value, [], chooser, "x")
        assert type(new) is type(value)
        assert new != value
    assert flip(5, [6, 4], chooser) == 15


def test_a_value_seen_in_another_snapshot_comes_first() -> None:
    chooser = Chooser(3, "t")
    assert flip("shipped", ["shipped"], chooser, others=["pending", 5]) == "pending"
    assert flip("shipped", ["pending"], chooser, others=["pending"]) not in ("pending", "shipped")


def test_the_seed_chooses_among_the_candidates() -> None:
    picks = {flip(100, [], Chooser(seed, "t"), "k") for seed in range(40)}
    assert picks == {101, 99, 110}
