"""The context (SPEC §2.1): two input forms, one canonical form, type-sensitive facts."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from textcontract._json import loads_strict
from textcontract.errors import InputError
from textcontract.model import Context, Document, same_value


def _problems(error: InputError) -> list[tuple[str | None, str]]:
    return [(p.location.key, p.message) for p in error.problems]


def test_flat_shorthand_is_the_current_snapshot() -> None:
    context = Context.from_json({"order.status": "pending", "order.total": 19.99})
    assert context.states == {"current": {"order.status": "pending", "order.total": 19.99}}
    assert context.closed_premises == ()
    assert context.history == ()


def test_full_form_keeps_snapshots_premises_and_history() -> None:
    context = Context.from_json(
        {
            "states": {"current": {"s": "pending"}, "after": {"s": "shipped", "n": None}},
            "closed_premises": ["refund-offered"],
            "history": ["Earlier reply text"],
        }
    )
    assert context.states == {"current": {"s": "pending"}, "after": {"s": "shipped", "n": None}}
    assert context.closed_premises == ("refund-offered",)
    assert context.history == ("Earlier reply text",)


def test_shorthand_and_full_form_share_canonical_form_and_digest() -> None:
    short = Context.from_json({"a": 1})
    full = Context.from_json({"states": {"current": {"a": 1}}})
    explicit = Context.from_json({"states": {"current": {"a": 1}}, "closed_premises": []})
    expected = {"states": {"current": {"a": 1}}, "closed_premises": [], "history": []}
    assert short.to_json() == full.to_json() == explicit.to_json() == expected
    canonical = b'{"closed_premises":[],"history":[],"states":{"current":{"a":1}}}'
    expected_digest = "sha256:" + hashlib.sha256(canonical).hexdigest()
    assert short.digest == full.digest == explicit.digest == expected_digest


def test_empty_context_is_one_empty_current_snapshot() -> None:
    assert Context.empty().states == {"current": {}}
    assert Context.empty().digest == Context.from_json({}).digest


@pytest.mark.parametrize("name", ["closed_premises", "history"])
def test_full_form_fields_in_shorthand_are_invalid_nested_facts(name: str) -> None:
    with pytest.raises(InputError) as caught:
        Context.from_json({"a": 1, name: ["x"]}, "ctx.json")
    assert _problems(caught.value) == [
        (name, "nested values are not facts; project them into flat keys such as 'order.total'")
    ]


@pytest.mark.parametrize(
    ("obj", "key", "message"),
    [
        pytest.param(
            {"order": {"total": 1}},
            "order",
            "nested values are not facts; project them into flat keys such as 'order.total'",
            id="nested-object",
        ),
        pytest.param(
            {"states": {"after": {"order.items": [1, 2]}}},
            'states.after["order.items"]',
            "nested values are not facts; project them into flat keys such as 'order.total'",
            id="nested-list-in-snapshot",
        ),
        pytest.param(
            {"states": {"current": {}}, "extra": 1},
            "extra",
            "unknown key in a context with 'states' (expected states, closed_premises, history)",
            id="unknown-key-full-form",
        ),
        pytest.param(
            {"states": {"": {}}},
            'states[""]',
            "snapshot names must be non-empty, valid Unicode strings",
            id="empty-snapshot-name",
        ),
        pytest.param(
            {"states": {"current": 3}},
            "states.current",
            "expected an object of facts, got an integer",
            id="snapshot-not-object",
        ),
        pytest.param(
            {"states": {}, "closed_premises": "refund"},
            "closed_premises",
            "expected a list of strings, got a string",
            id="premises-not-list",
        ),
        pytest.param(
            {"states": {}, "history": ["ok", 2]},
            "history[1]",
            "expected a string, got an integer",
            id="history-item-not-string",
        ),
        pytest.param({"": 1}, '""', "fact keys must not be empty", id="empty-key"),
        pytest.param({1: "x"}, "[1]", "fact keys must be strings", id="non-string-key"),
        pytest.param(
            {"k": float("nan")}, "k", "a non-finite number is not a finite JSON scalar", id="nan"
        ),
        pytest.param(
            {"k": "\ud800"}, "k", "string holds a lone surrogate (invalid Unicode)", id="surrogate"
        ),
        pytest.param(
            {"\udc00": 1},
            '"\\udc00"',
            "fact key holds a lone surrogate (invalid Unicode)",
            id="surrogate-key",
        ),
        pytest.param(
            {"states": {}, "history": ["\ud800"]},
            "history[0]",
            "string holds a lone surrogate (invalid Unicode)",
            id="surrogate-history",
        ),
    ],
)
def test_invalid_contexts_name_the_key(obj: dict[Any, Any], key: str, message: str) -> None:
    with pytest.raises(InputError) as caught:
        Context.from_json(obj, "ctx.json")
    assert _problems(caught.value) == [(key, message)]
    assert caught.value.problems[0].location.file == "ctx.json"
    caught.value.problems[0].render().encode("utf-8")


@pytest.mark.parametrize(
    "top", [[], "x", 1, 1.5, True, None], ids=["list", "string", "int", "float", "bool", "null"]
)
def test_non_object_top_level(top: object) -> None:
    with pytest.raises(InputError, match="a context must be a JSON object, got "):
        Context.from_json(top)


@pytest.mark.parametrize(
    ("text", "key"),
    [
        pytest.param('{"order.total": NaN}', '"order.total"', id="nan"),
        pytest.param('{"x": Infinity}', "x", id="infinity"),
        pytest.param('{"states": {"current": {"x": 1e400}}}', "states.current.x", id="1e400"),
        pytest.param('{"x": 1, "x": 1}', "x", id="duplicate-key"),
        pytest.param('{"x": "\\ud800"}', "x", id="lone-surrogate"),
    ],
)
def test_strict_json_context_errors_name_the_key(text: str, key: str) -> None:
    with pytest.raises(InputError) as caught:
        Context.from_json(loads_strict(text, "ctx.json"), "ctx.json")
    assert [p.location.key for p in caught.value.problems] == [key]


def test_all_problems_reported_together() -> None:
    with pytest.raises(InputError) as caught:
        Context.from_json({"a": [1], "b": {"c": 1}, "ok": 1})
    assert [key for key, _ in _problems(caught.value)] == ["a", "b"]


def test_four_distinct_values_by_type() -> None:
    values = {}
    for text in ("1", "1.0", "true", '"1"'):
        context = Context.from_json(loads_strict('{"v": ' + text + "}"))
        values[text] = (context.fact("current", "v")[1], context.digest)
    assert [type(value) for value, _ in values.values()] == [int, float, bool, str]
    assert len({d for _, d in values.values()}) == 4
    pairs = [(a, b) for a in values for b in values if a != b]
    assert not any(same_value(values[a][0], values[b][0]) for a, b in pairs)
    assert same_value(values["1.0"][0], 1.0)


def test_exponent_is_a_float() -> None:
    context = Context.from_json(loads_strict('{"v": 1e2}'))
    present, value = context.fact("current", "v")
    assert present
    assert type(value) is float
    assert value == 100.0


def test_unknown_is_not_null() -> None:
    context = Context.from_json({"states": {"current": {"n": None, "f": False, "z": 0, "e": ""}}})
    assert context.fact("current", "n") == (True, None)
    assert context.fact("current", "missing") == (False, None)
    assert context.fact("after", "n") == (False, None)
    assert context.fact("current", "f") == (True, False)
    assert context.fact("current", "z") == (True, 0)
    assert context.fact("current", "e") == (True, "")


def test_null_and_absent_contexts_have_different_digests() -> None:
    assert Context.from_json({"n": None}).digest != Context.from_json({}).digest


def test_states_without_object_value_is_shorthand() -> None:
    # SPEC §2.1: "A JSON object without a `states` object is shorthand" — so a scalar
    # `states` is an ordinary fact of the current snapshot.
    context = Context.from_json({"states": "open"})
    assert context.states == {"current": {"states": "open"}}


# --- property: nothing but InputError escapes -------------------------------------------------

_keys = st.sampled_from(["states", "current", "closed_premises", "history", "a", "", "\ud800"])
_scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=3) | _keys
_values = st.recursive(
    _scalars,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(_keys, children, max_size=3),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(_values)
def test_from_json_raises_only_input_error(value: Any) -> None:
    try:
        context = Context.from_json(value)
    except InputError:
        return
    assert context.digest.startswith("sha256:")
    assert Context.from_json(context.to_json()).digest == context.digest


@pytest.mark.parametrize("digits", [4301, 10_000])
def test_integers_python_cannot_write_are_input_errors_from_the_library(digits: int) -> None:
    huge = 10 ** (digits - 1)
    with pytest.raises(InputError) as caught:
        Context.from_json({"order.total": huge})
    assert caught.value.problems[0].render() == (
        '"order.total": integer of more than 4300 digits is too long to read '
        "(the limit is 4300 digits, Python's int/str conversion limit)"
    )
    with pytest.raises(InputError):
        Document.from_json({"surfaces": {"body": {"text": "x", "claims": {"n": -huge}}}})


def test_the_longest_integer_python_can_write_is_a_fact() -> None:
    assert Context.from_json({"n": 10**4299}).fact("current", "n") == (True, 10**4299)
