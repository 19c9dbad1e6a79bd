"""The case-file writer: what it writes, the strict loader reads back exactly."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from textcontract._yaml import load_yaml
from textcontract.mutate._yaml_writer import dump_yaml

_text = st.text(st.characters(exclude_categories=["Cs"]), max_size=40)
_lines = st.lists(
    st.sampled_from(["", " ", "  x", "\t", "a b", "#c", "- d", "---", "é", "\u200b", ": e"]),
    max_size=6,
).map("\n".join)
_strings = st.one_of(
    _text,
    _lines,
    _lines.map(lambda s: s + "\n\n"),
    st.sampled_from(
        ["true", "no", "null", "1e3", "0o17", "~", "", "-1", "1_000", "yes", "x: y", "@a", "%b"]
    ),
)
_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    _strings,
)
_keys = st.one_of(_strings, st.sampled_from(["order.total", "id", "true", "1", "a b"]))
_values: st.SearchStrategy[Any] = st.recursive(
    _scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(_keys, children, max_size=4)
    ),
    max_leaves=12,
)


def _same(a: object, b: object) -> bool:
    """Equal with types (``1`` is not ``1.0`` nor ``True``)."""
    if isinstance(a, dict):
        return isinstance(b, dict) and list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(map(_same, a, b))
    if isinstance(a, float):
        return isinstance(b, float) and repr(a) == repr(b)
    return type(a) is type(b) and a == b


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(_keys, _values, max_size=5))
def test_the_loader_reads_back_what_was_written(value: dict[str, Any]) -> None:
    written = dump_yaml(value, ["a comment"])
    loaded, _ = load_yaml(written, "case.yaml")
    assert _same(value, loaded if value else {}) or (not value and loaded is None)


def test_scalars_are_written_unambiguously() -> None:
    written = dump_yaml(
        {"a": "yes", "b": "1e3", "c": 1e16, "d": 1.0, "e": "plain-word", "f": None, "g": True}
    )
    assert written == ('a: "yes"\nb: "1e3"\nc: 1.0e+16\nd: 1.0\ne: plain-word\nf: null\ng: true\n')


def test_multi_line_text_is_a_literal_block_with_its_final_breaks() -> None:
    assert dump_yaml({"t": "one\ntwo"}) == "t: |-\n  one\n  two\n"
    assert dump_yaml({"t": "one\ntwo\n"}) == "t: |\n  one\n  two\n"
    assert dump_yaml({"t": "one\n\ntwo\n\n"}) == "t: |+\n  one\n\n  two\n\n"
    assert dump_yaml({"t": " lead\nx"}) == "t: |2-\n   lead\n  x\n"


def test_invisible_characters_are_escaped_and_never_in_a_block() -> None:
    assert dump_yaml({"t": "cafe\u0301"}) == 't: "cafe\\u0301"\n'
    assert dump_yaml({"t": "a\u200bb\nc"}) == 't: "a\\u200bb\\nc"\n'
    assert dump_yaml({"t": "x\u2028y"}) == 't: "x\\u2028y"\n'


def test_small_collections_of_scalars_are_flow_style() -> None:
    written = dump_yaml({"expect": [{"rule": "r", "code": "C", "scope": "surface:body"}]})
    assert written == 'expect:\n  - {rule: r, code: C, scope: "surface:body"}\n'
    assert dump_yaml({"l": [1, "a"], "m": {}, "k": []}) == "l: [1, a]\nm: {}\nk: []\n"
    assert dump_yaml({"n": 1, "on": 2}) == '"n": 1\n"on": 2\n'  # YAML 1.1 booleans
