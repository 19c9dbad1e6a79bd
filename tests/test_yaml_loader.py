"""Strict YAML reading (``textcontract._yaml``): the YAML 1.2 core schema with positions."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from textcontract._yaml import load_yaml
from textcontract.errors import ContractError, InputError, Location


def _value(scalar: str) -> Any:
    data, _ = load_yaml(f"v: {scalar}\n")
    assert isinstance(data, dict)
    return data["v"]


@pytest.mark.parametrize(
    ("scalar", "expected"),
    [
        pytest.param("no", "no", id="no-is-string"),
        pytest.param("yes", "yes", id="yes-is-string"),
        pytest.param("on", "on", id="on-is-string"),
        pytest.param("off", "off", id="off-is-string"),
        pytest.param("Y", "Y", id="y-is-string"),
        pytest.param("true", True, id="true"),
        pytest.param("True", True, id="True"),
        pytest.param("FALSE", False, id="FALSE"),
        pytest.param("tRUE", "tRUE", id="mixed-case-true-is-string"),
        pytest.param("~", None, id="tilde-null"),
        pytest.param("null", None, id="null"),
        pytest.param("NULL", None, id="NULL"),
        pytest.param("", None, id="empty-null"),
        pytest.param("1", 1, id="int"),
        pytest.param("-12", -12, id="negative-int"),
        pytest.param("+3", 3, id="plus-int"),
        pytest.param("010", 10, id="leading-zero-is-decimal"),
        pytest.param("0x10", 16, id="hex"),
        pytest.param("0o17", 15, id="octal"),
        pytest.param("0b101", "0b101", id="binary-is-string"),
        pytest.param("1_000", "1_000", id="underscore-is-string"),
        pytest.param("1e3", 1000.0, id="1e3-is-float"),
        pytest.param("1.5", 1.5, id="float"),
        pytest.param(".5", 0.5, id="leading-dot-float"),
        pytest.param("1.", 1.0, id="trailing-dot-float"),
        pytest.param("-2E-2", -0.02, id="upper-exponent"),
        pytest.param(".inf", math.inf, id="inf"),
        pytest.param("-.Inf", -math.inf, id="minus-inf"),
        pytest.param("1:30", "1:30", id="sexagesimal-is-string"),
        pytest.param("2024-01-01", "2024-01-01", id="date-is-string"),
        pytest.param("'1'", "1", id="single-quoted"),
        pytest.param('"true"', "true", id="double-quoted"),
        pytest.param("!!str 1", "1", id="explicit-str"),
        pytest.param("!!float 1", 1.0, id="explicit-float-of-int"),
        pytest.param("!!int '0x1f'", 31, id="explicit-int-quoted"),
        pytest.param("!!null ''", None, id="explicit-null"),
        pytest.param("[a, 1]", ["a", 1], id="flow-seq"),
        pytest.param("{x: no}", {"x": "no"}, id="flow-map"),
    ],
)
def test_core_schema_scalars(scalar: str, expected: Any) -> None:
    value = _value(scalar)
    assert type(value) is type(expected)
    assert value == expected


def test_nan_is_a_float() -> None:
    value = _value(".nan")
    assert isinstance(value, float)
    assert math.isnan(value)


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [
        pytest.param("a: 1\nb:\n  c: 1\n  c: 2\n", 4, 3, "duplicate key 'c'", id="duplicate-key"),
        pytest.param("a: &x 1\n", 1, 4, "anchors (&name) are not allowed", id="anchor"),
        pytest.param("a: 1\nb: *x\n", 2, 4, "aliases (*name) are not allowed", id="alias"),
        pytest.param(
            "a: &x {k: 1}\nb:\n  <<: *x\n", 1, 4, "anchors (&name) are not allowed", id="anchor-map"
        ),
        pytest.param("a:\n  <<: {b: 1}\n", 2, 3, "merge keys (<<) are not allowed", id="merge"),
        pytest.param(
            "a: !foo x\n",
            1,
            4,
            "tag '!foo' is not allowed (only the YAML core schema)",
            id="custom-tag",
        ),
        pytest.param(
            "a: !!binary aGk=\n",
            1,
            4,
            "tag 'tag:yaml.org,2002:binary' is not allowed (only the YAML core schema)",
            id="binary-tag",
        ),
        pytest.param(
            "a: !!set {x: null}\n",
            1,
            4,
            "tag 'tag:yaml.org,2002:set' is not allowed (only the YAML core schema)",
            id="set-tag",
        ),
        pytest.param(
            "a: !!python/object:os.system x\n",
            1,
            4,
            "tag 'tag:yaml.org,2002:python/object:os.system' is not allowed "
            "(only the YAML core schema)",
            id="python-tag",
        ),
        pytest.param("a:\n  1: x\n", 2, 3, "mapping keys must be strings", id="int-key"),
        pytest.param("true: x\n", 1, 1, "mapping keys must be strings", id="bool-key"),
        pytest.param("~: x\n", 1, 1, "mapping keys must be strings", id="null-key"),
        pytest.param("1.5: x\n", 1, 1, "mapping keys must be strings", id="float-key"),
        pytest.param("? [1]\n: x\n", 1, 3, "mapping keys must be strings", id="sequence-key"),
        pytest.param(
            "a: 1\n---\nb: 2\n",
            2,
            1,
            "invalid YAML: expected a single document in the stream, but found another document",
            id="two-documents",
        ),
        pytest.param("a: !!float 0x10\n", 1, 4, "'0x10' is not a valid float", id="float-hex"),
        pytest.param("a: !!int 1_000\n", 1, 4, "'1_000' is not a valid int", id="int-underscore"),
        pytest.param("a: !!bool yes\n", 1, 4, "'yes' is not a valid bool", id="bool-yes"),
        pytest.param(
            "a: !!str {b: 1}\n",
            1,
            4,
            "tag 'tag:yaml.org,2002:str' cannot be used on a mapping",
            id="str-tag-on-map",
        ),
        pytest.param(
            "a: !!map [1]\n",
            1,
            4,
            "tag 'tag:yaml.org,2002:map' cannot be used on a sequence",
            id="map-tag-on-seq",
        ),
        pytest.param(
            "a: !!seq x\n",
            1,
            4,
            "tag 'tag:yaml.org,2002:seq' cannot be used on a scalar",
            id="seq-tag-on-scalar",
        ),
        pytest.param(
            "a: " + "1" * 5000 + "\n",
            1,
            4,
            "integer with 5000 digits is too long to read (the limit is 4300 digits, "
            "Python's int/str conversion limit)",
            id="too-many-digits",
        ),
        pytest.param(
            "a:\n  b: 0x" + "f" * 4000 + "\n",
            2,
            6,
            "integer of more than 4300 digits is too long to read (the limit is 4300 digits",
            id="hexadecimal-beyond-the-digit-limit",
        ),
        pytest.param(
            "a: 0o" + "7" * 5000 + "\n",
            1,
            4,
            "integer of more than 4300 digits is too long to read",
            id="octal-beyond-the-digit-limit",
        ),
        pytest.param(
            "a: [" + "[" * 99 + "]" * 100 + "\n",
            1,
            103,
            "YAML nests deeper than 100 levels",
            id="nests-too-deeply",
        ),
        pytest.param(
            "a:\n" + "".join("  " * i + f"k{i}:\n" for i in range(1, 101)) + "  " * 101 + "x\n",
            101,
            201,
            "YAML nests deeper than 100 levels",
            id="block-mappings-nest-too-deeply",
        ),
        pytest.param(
            "a: [1, 2\n",
            2,
            1,
            "expected ',' or ']'",
            id="syntax",
        ),
        pytest.param(
            "a: ok\nb: x\x00\n",
            2,
            5,
            "unacceptable character #x0000",
            id="nul-character",
        ),
    ],
)
def test_refused_yaml_names_line_and_column(
    text: str, line: int, column: int, message: str
) -> None:
    with pytest.raises(InputError) as caught:
        load_yaml(text, "c.yaml")
    [problem] = caught.value.problems
    # Syntax messages come from the YAML parser (libyaml's or PyYAML's own, whose wording
    # differs slightly), so the parser's part is compared as a substring.
    assert message in problem.message
    assert (problem.location.file, problem.location.line, problem.location.column) == (
        "c.yaml",
        line,
        column,
    )
    assert str(caught.value).startswith(f"c.yaml:{line}:{column}: ")


def test_hexadecimal_within_the_digit_limit_is_read() -> None:
    value = load_yaml("a: 0x" + "f" * 3000 + "\n")[0]["a"]
    assert value == 16**3000 - 1
    assert len(str(value)) < 4300


def test_nesting_up_to_the_limit_is_read() -> None:
    value = load_yaml("a: " + "[" * 99 + "]" * 99 + "\n")[0]["a"]
    for _ in range(98):
        [value] = value
    assert value == []


def test_recursion_limit_reached_before_the_nesting_limit_is_still_located(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Called deep inside another stack, composing can run out of recursion first.
    import textcontract._yaml as module

    def exhausted(*args: object) -> object:
        del args
        raise RecursionError

    monkeypatch.setattr(module, "_construct", exhausted)
    with pytest.raises(InputError) as caught:
        load_yaml("a:\n  b: [[[1]]]\n", "f.yaml")
    [problem] = caught.value.problems
    assert problem.message == "YAML nests too deeply"
    assert (problem.location.line, problem.location.column) == (2, 8)


def test_quoted_double_angle_key_is_a_plain_string() -> None:
    assert load_yaml("'<<': 1\n")[0] == {"<<": 1}


def test_error_class_is_the_callers() -> None:
    with pytest.raises(ContractError):
        load_yaml("a: 1\na: 2\n", "c.yaml", ContractError)


@pytest.mark.parametrize(
    "text", ["", "\n", "# only a comment\n"], ids=["empty", "blank", "comment"]
)
def test_empty_document_is_none(text: str) -> None:
    value, positions = load_yaml(text, "c.yaml")
    assert value is None
    # the start of the file: every problem of an empty file has a position (SPEC §21)
    assert positions.value(("anything",)) == Location("c.yaml", 1, 1)
    assert positions.key(("anything",), "x") == Location("c.yaml", 1, 1, key="x")


_NESTED = """\
id: demo
rules:
  - id: first
    patterns: [a, b]
  - id: second
    patterns:
      - "x"
      - y
"""


@pytest.mark.parametrize(
    ("path", "value_at", "key_at"),
    [
        pytest.param(("id",), (1, 5), (1, 1), id="top-level"),
        pytest.param(("rules",), (3, 3), (2, 1), id="block-sequence"),
        pytest.param(("rules", 0), (3, 5), (3, 5), id="sequence-item-has-no-key"),
        pytest.param(("rules", 0, "patterns"), (4, 15), (4, 5), id="flow-seq-value"),
        pytest.param(("rules", 0, "patterns", 1), (4, 19), (4, 19), id="flow-item"),
        pytest.param(("rules", 1, "id"), (5, 9), (5, 5), id="second-rule-id"),
        pytest.param(("rules", 1, "patterns", 0), (7, 9), (7, 9), id="quoted-item"),
        pytest.param(("rules", 1, "patterns", 1), (8, 9), (8, 9), id="plain-item"),
        pytest.param(("rules", 1, "severity"), (5, 5), (5, 5), id="missing-key-nearest-ancestor"),
    ],
)
def test_positions_of_nested_values(
    path: tuple[str | int, ...], value_at: tuple[int, int], key_at: tuple[int, int]
) -> None:
    data, positions = load_yaml(_NESTED, "c.yaml")
    assert data["rules"][1]["patterns"] == ["x", "y"]
    where = positions.value(path, key="k")
    assert (where.file, where.line, where.column, where.key) == ("c.yaml", *value_at, "k")
    at_key = positions.key(path)
    assert (at_key.line, at_key.column) == key_at


def test_shifted_positions_move_down() -> None:
    _, positions = load_yaml(_NESTED, "c.yaml")
    moved = positions.shifted(10)
    assert (moved.value(("id",)).line, moved.value(("id",)).column) == (11, 5)
    assert (moved.key(("rules",)).line, moved.key(("rules",)).column) == (12, 1)
    assert positions.value(("id",)).line == 1  # the original is unchanged


# --- property: nothing but InputError escapes ---------------------------------------------

_YAML_FRAGMENTS = st.sampled_from(
    [
        "a",
        "b",
        ":",
        ": ",
        "- ",
        "\n",
        "  ",
        "\t",
        "{",
        "}",
        "[",
        "]",
        ",",
        "&x ",
        "*x",
        "<<",
        "!!int ",
        "!!float ",
        "!!str ",
        "!!map ",
        "!!seq ",
        "!x ",
        "? ",
        "---\n",
        "...\n",
        "'",
        '"',
        "#",
        "|",
        ">",
        "0x1",
        "0o9",
        "1e3",
        "9" * 4400,
        ".nan",
        "~",
        "%YAML 1.2\n",
        "\x00",
        "\ufeff",
        "\u2028",
    ]
)
yaml_like_text = st.lists(_YAML_FRAGMENTS, max_size=30).map("".join) | st.text(max_size=60)


@settings(max_examples=400, deadline=None)
@given(yaml_like_text)
def test_load_yaml_raises_only_input_error(text: str) -> None:
    try:
        load_yaml(text, "c.yaml")
    except InputError as error:
        for problem in error.problems:
            assert problem.location.file == "c.yaml"


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("a: no\nb: [1, 0x10, ~, 1e3, '1']\nc:\n  d: {e: 1_000}\n", id="values"),
        pytest.param("rules:\n  - id: r\n    patterns: ['\\\\bx\\\\b', \"é\"]\n", id="nested"),
        pytest.param("a: &x 1\n", id="anchor"),
        pytest.param("a: 1\nb: *x\n", id="alias"),
        pytest.param("a: 1\na: 2\n", id="duplicate"),
        pytest.param("a:\n  <<: {b: 1}\n", id="merge"),
        pytest.param("a: !custom 1\n", id="tag"),
        pytest.param("- 1\n---\n- 2\n", id="two-documents"),
    ],
)
def test_libyaml_and_pure_python_parsers_agree(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import textcontract._yaml as module

    def outcome() -> object:
        try:
            value, positions = load_yaml(text, "c.yaml")
        except InputError as error:
            [problem] = error.problems
            return ("error", problem.location.line, problem.location.column)
        return (
            "ok",
            value,
            [positions.value(path) for path in (("a",), ("rules", 0, "patterns", 1))],
        )

    fast = outcome()
    monkeypatch.setattr(module, "_CParser", None)
    assert outcome() == fast
