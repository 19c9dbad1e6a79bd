"""The one field reader: wording, places (line:column or key path), stand-ins, "did you mean"."""

from __future__ import annotations

import re
from enum import Enum
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from textcontract._yaml import load_yaml
from textcontract.errors import InputError, Location, Problem
from textcontract.fields import (
    MISSING,
    FieldReader,
    closest,
    did_you_mean,
    type_name,
    unknown_key,
)


class Colour(Enum):
    RED = "red"
    GREEN = "green"


def _yaml_reader(text: str) -> tuple[Any, FieldReader]:
    value, positions = load_yaml(text, "f.yaml")
    return value, FieldReader("f.yaml", positions)


def _rendered(reader: FieldReader) -> list[str]:
    return [problem.render() for problem in reader.problems]


def test_mapping_reports_unknown_keys_at_the_key_and_missing_ones_at_the_mapping() -> None:
    value, reader = _yaml_reader("top:\n  nme: x\n  colour: red\n")
    fields = reader.mapping(value["top"], ("top",), required=("name",), optional=("colour",))
    assert fields["name"] is MISSING
    assert _rendered(reader) == [
        "f.yaml:2:3: top.nme: unknown key 'nme' (did you mean 'name'?)",
        "f.yaml:2:3: top: missing required key 'name'",
    ]


def test_an_unknown_key_far_from_every_known_one_lists_them() -> None:
    reader = FieldReader("f.json")
    reader.mapping({"zzz": 1}, (), optional=("alpha", "beta"))
    assert _rendered(reader) == ["f.json: zzz: unknown key 'zzz' (known keys: alpha, beta)"]


@pytest.mark.parametrize(
    ("read", "value", "message"),
    [
        pytest.param("string", 3, "expected a string, got an integer", id="string-type"),
        pytest.param("string", "", "must not be empty", id="string-empty"),
        pytest.param("integer", True, "expected an integer, got a boolean", id="integer-bool"),
        pytest.param("integer", 1.0, "expected an integer, got a number", id="integer-float"),
        pytest.param("fraction", 1.5, "must be in [0, 1], got 1.5", id="fraction-range"),
        pytest.param(
            "fraction", "x", "expected a number in [0, 1], got a string", id="fraction-type"
        ),
        pytest.param("boolean", "yes", "expected true or false, got a string", id="boolean"),
        pytest.param("sequence", {}, "expected a list, got an object", id="sequence"),
        pytest.param("mapping", [], "expected a mapping, got a list", id="mapping"),
    ],
)
def test_one_wording_for_each_kind_of_problem(read: str, value: Any, message: str) -> None:
    reader = FieldReader("f.json")
    getattr(reader, read)(value, ("a", 0, "b"))
    assert _rendered(reader) == [f"f.json: a[0].b: {message}"]


def test_ranges_and_choices() -> None:
    reader = FieldReader("f.json")
    assert reader.integer(0, ("n",), minimum=1) == 1
    assert reader.integer(9, ("m",), None, maximum=5) is None
    assert reader.choice("gren", ("c",), Colour) is Colour.RED
    assert reader.choice(3, ("d",), Colour, None) is None
    assert _rendered(reader) == [
        "f.json: n: must be at least 1, got 0",
        "f.json: m: must be at most 5, got 9",
        "f.json: c: 'gren' is not one of red, green (did you mean 'green'?)",
        "f.json: d: expected one of red, green, got an integer",
    ]


def test_missing_values_give_the_fallback_and_no_second_problem() -> None:
    reader = FieldReader("f.json")
    fields = reader.mapping("not a mapping", ("x",), required=("a", "b"))
    assert reader.string(fields["a"], ("x", "a"), None) is None
    assert reader.integer(fields["b"], ("x", "b")) == 0
    assert reader.mapping(fields["a"], ("x", "a"), required=("deeper",)) == {"deeper": MISSING}
    assert reader.sequence(fields["b"], ("x", "b")) == []
    assert _rendered(reader) == ["f.json: x: expected a mapping, got a string"]


def test_valid_values_come_back_as_given() -> None:
    reader = FieldReader(None)
    assert reader.string("  ", ("s",)) == "  "
    assert reader.fraction(1, ("f",)) == 1.0
    assert isinstance(reader.fraction(1, ("f",)), float)
    assert reader.optional_string(None, ("o",)) is None
    assert reader.optional_fraction(None, ("o",)) is None
    assert reader.strings(["a", "b"], ("l",)) == ["a", "b"]
    assert reader.choice("green", ("c",), Colour) is Colour.GREEN
    assert reader.problems == []


def test_blank_strings_can_be_refused() -> None:
    reader = FieldReader("f.json")
    assert reader.string("   ", ("s",), None, blank=False) is None
    assert _rendered(reader) == ["f.json: s: must not be blank"]


def test_identifiers() -> None:
    reader = FieldReader("f.json")
    pattern = re.compile(r"[a-z]+\Z")
    assert reader.identifier("ok", ("id",), "rule", pattern) == "ok"
    assert reader.identifier("Not OK", ("id",), "rule", pattern) is None
    assert reader.identifier(7, ("id",), "rule", pattern) is None
    assert _rendered(reader) == [
        "f.json: id: rule id 'Not OK' does not match [a-z]+",
        "f.json: id: rule id must be a string, got an integer",
    ]


def test_a_labelled_reader_names_its_place_and_shares_problems() -> None:
    value, reader = _yaml_reader("rules:\n  - id: one\n    minimum: many\n")
    rule = reader.within(("rules", 0), "rule 'one'")
    rule.integer(value["rules"][0]["minimum"], ("minimum",))
    rule.problem((), "something about the whole rule")
    inner = rule.within(("deeper",))
    inner.problem(("x",), "nested")
    assert _rendered(reader) == [
        "f.yaml:3:14: rule 'one', field minimum: expected an integer, got a string",
        "f.yaml:2:5: rule 'one': something about the whole rule",
        "f.yaml:2:5: rule 'one', field deeper.x: nested",
    ]
    assert rule.at(("minimum",)).path == ("rules", 0, "minimum")


def test_absorb_moves_problems_of_an_embedded_value_into_the_file() -> None:
    _, reader = _yaml_reader("case:\n  context:\n    states: {current: 3}\n")
    inner = InputError(
        Problem("expected an object of facts", Location.of_path("x", ["states", "current"]))
    )
    reader.absorb(inner, ("case", "context"))
    assert _rendered(reader) == [
        "f.yaml:3:23: case.context.states.current: expected an object of facts"
    ]


def test_a_reader_without_names_keeps_key_paths_and_still_names_every_problem() -> None:
    named = FieldReader("c.yaml")
    unnamed = FieldReader("c.yaml", names=False)
    for reader in (named, unnamed):
        inner = reader.within(("variants", 2), "variant 'x'").within(("change",))
        inner.integer("many", ("trials", 0))
        inner.absorb(InputError(Problem("bad", Location.of_path("y", ["a"]))), ("claims",))
        reader.problem(("id",), "wrong", at_key=True)
    assert (
        _rendered(unnamed)
        == _rendered(named)
        == [
            "c.yaml: variant 'x', field change.trials[0]: expected an integer, got a string",
            "c.yaml: variant 'x', field change.claims.a: bad",
            "c.yaml: id: wrong",
        ]
    )
    inner = unnamed.within(("variants", 2)).within(("change",))
    assert inner.at(("replace", 1)) == Location(
        "c.yaml", path=("variants", 2, "change", "replace", 1)
    )
    assert inner.at_key(("claims", "body")).key is None
    assert named.within(("variants", 2)).at(("change",)).key == "variants[2].change"
    # with positions, locations are named whatever ``names`` says
    _, reader = _yaml_reader("a:\n  b: 1\n")
    positioned = FieldReader(reader.file, reader.positions, names=False)
    assert positioned.at(("a", "b")) == reader.at(("a", "b"))


def test_mark_and_raise() -> None:
    reader = FieldReader("f.json")
    start = reader.mark()
    assert not reader.failed_since(start)
    reader.raise_if_problems()
    reader.boolean(1, ("b",))
    assert reader.failed_since(start)
    with pytest.raises(InputError) as caught:
        reader.raise_if_problems()
    assert len(caught.value.problems) == 1


def test_expect_equal() -> None:
    reader = FieldReader("f.json")
    reader.expect_equal(1, ("v",), 1)
    reader.expect_equal(True, ("v",), 1)
    reader.expect_equal(2, ("v",), 1, "reads version 1")
    assert _rendered(reader) == [
        "f.json: v: expected 1, got True",
        "f.json: v: expected 1, got 2 (reads version 1)",
    ]


def test_did_you_mean() -> None:
    assert closest("requiredfact", ["RequiredFact", "RequiredPattern"]) == "RequiredFact"
    assert closest("catch_treshold", ["catch_threshold", "floors"]) == "catch_threshold"
    assert closest("zzz", ["alpha"]) is None
    assert did_you_mean("colr", ["colour"]) == "did you mean 'colour'?"
    assert did_you_mean("zzz", ["alpha"]) is None
    assert unknown_key("zzz", ()) == ("unknown key 'zzz'", "known keys: none")


def test_type_names() -> None:
    values: list[object] = [None, True, 1, 1.5, float("inf"), "s", {}, [], ()]
    assert [type_name(v) for v in values] == [
        "null",
        "a boolean",
        "an integer",
        "a number",
        "a non-finite number",
        "a string",
        "an object",
        "a list",
        "a list",
    ]


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=8,
)


@given(JSON_VALUES)
def test_every_reader_returns_its_type_or_reports(value: Any) -> None:
    """Whatever the value, each accessor returns a value of its type, or a problem is recorded."""
    reader = FieldReader("f.json")
    results = {
        "string": reader.string(value, ("s",)),
        "integer": reader.integer(value, ("i",)),
        "fraction": reader.fraction(value, ("f",)),
        "boolean": reader.boolean(value, ("b",)),
        "choice": reader.choice(value, ("c",), Colour),
        "sequence": reader.sequence(value, ("l",)),
        "mapping": reader.mapping(value, ("m",), allow_unknown=True),
    }
    types = {
        "string": str,
        "integer": int,
        "fraction": float,
        "boolean": bool,
        "choice": Colour,
        "sequence": list,
        "mapping": dict,
    }
    for name, result in results.items():
        assert isinstance(result, types[name]), name
    reported = {problem.location.key for problem in reader.problems}
    assert all(key in {"s", "i", "f", "b", "c", "l", "m"} for key in reported)
    assert ("m" in reported) is not isinstance(value, dict)
    assert ("l" in reported) is not isinstance(value, list)
