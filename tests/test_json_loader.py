"""Strict JSON reading (``textcontract._json``): what json.loads lets through, refused here."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from textcontract._json import MAX_NESTING, decode_utf8, loads_strict, read_json_file
from textcontract.errors import ExitCode, InputError
from textcontract.model import Context, Document

LIMIT = "(the limit is 4300 digits, Python's int/str conversion limit)"


def _problems(error: InputError) -> list[tuple[str | None, str]]:
    return [(p.location.key, p.message) for p in error.problems]


@pytest.mark.parametrize(
    ("text", "value", "kind"),
    [
        pytest.param("1", 1, int, id="int"),
        pytest.param("1.0", 1.0, float, id="float"),
        pytest.param("1e2", 100.0, float, id="exponent-is-float"),
        pytest.param("-0", 0, int, id="negative-zero-int"),
        pytest.param("true", True, bool, id="bool"),
        pytest.param('"1"', "1", str, id="string"),
        pytest.param("null", None, type(None), id="null"),
        pytest.param("18446744073709551616", 2**64, int, id="big-int"),
        pytest.param('"\\ud83d\\ude00"', "\U0001f600", str, id="surrogate-pair-joins"),
    ],
)
def test_scalars_keep_their_type(text: str, value: Any, kind: type) -> None:
    parsed = loads_strict(text)
    assert type(parsed) is kind
    assert parsed == value


def test_objects_are_plain_dicts_in_order() -> None:
    parsed = loads_strict('{"b": {"y": 1, "x": [2]}, "a": 3}')
    assert parsed == {"b": {"y": 1, "x": [2]}, "a": 3}
    assert type(parsed) is dict
    assert type(parsed["b"]) is dict
    assert list(parsed) == ["b", "a"]


@pytest.mark.parametrize(
    ("text", "key", "message"),
    [
        pytest.param('{"x": NaN}', "x", "NaN is not a finite JSON number", id="nan"),
        pytest.param('{"x": Infinity}', "x", "Infinity is not a finite JSON number", id="inf"),
        pytest.param(
            '{"x": -Infinity}', "x", "-Infinity is not a finite JSON number", id="minus-inf"
        ),
        pytest.param('{"x": 1e400}', "x", "1e400 is not a finite JSON number", id="overflow"),
        pytest.param(
            '{"a": {"order.total": -1e400}}',
            'a["order.total"]',
            "-1e400 is not a finite JSON number",
            id="overflow-nested-dotted-key",
        ),
        pytest.param("[1, [2, NaN]]", "[1][1]", "NaN is not a finite JSON number", id="in-list"),
        pytest.param('{"a": 1, "a": 1}', "a", "duplicate key 'a'", id="duplicate-key"),
        pytest.param(
            '{"s": {"k": 1, "j": 2, "k": 3}}', "s.k", "duplicate key 'k'", id="duplicate-nested"
        ),
        pytest.param(
            '{"k": "\\ud800"}',
            "k",
            "string holds a lone surrogate (invalid Unicode)",
            id="lone-surrogate-value",
        ),
        pytest.param(
            '{"k": ["ok", "x\\udfffy"]}',
            "k[1]",
            "string holds a lone surrogate (invalid Unicode)",
            id="lone-low-surrogate-in-list",
        ),
        pytest.param(
            '{"a": {"\\ud800": 1}}',
            'a["\\ud800"]',
            "key holds a lone surrogate (invalid Unicode)",
            id="lone-surrogate-key-named-escaped",
        ),
        pytest.param(
            '{"n": ' + "7" * 5000 + "}",
            "n",
            f"integer with 5000 digits is too long to read {LIMIT}",
            id="too-many-digits",
        ),
    ],
)
def test_refused_values_name_their_key_path(text: str, key: str, message: str) -> None:
    with pytest.raises(InputError) as caught:
        loads_strict(text, "ctx.json")
    assert _problems(caught.value) == [(key, message)]
    assert caught.value.problems[0].location.file == "ctx.json"
    assert caught.value.exit_code is ExitCode.INPUT_ERROR
    caught.value.problems[0].render().encode("utf-8")  # printable even for a lone surrogate


def test_every_problem_is_reported_at_once() -> None:
    with pytest.raises(InputError) as caught:
        loads_strict('{"a": NaN, "b": "\\ud800", "c": 1, "c": 2}')
    assert sorted(_problems(caught.value)) == [
        ("a", "NaN is not a finite JSON number"),
        ("b", "string holds a lone surrogate (invalid Unicode)"),
        ("c", "duplicate key 'c'"),
    ]


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        pytest.param('{"a": 1,}', 1, 9, id="trailing-comma"),
        pytest.param('{\n  "a": tru\n}', 2, 8, id="bad-literal"),
        pytest.param("", 1, 1, id="empty"),
        pytest.param("{} []", 1, 4, id="extra-data"),
    ],
)
def test_syntax_errors_name_line_and_column(text: str, line: int, column: int) -> None:
    with pytest.raises(InputError, match=r"invalid JSON") as caught:
        loads_strict(text, "f.json")
    location = caught.value.problems[0].location
    assert (location.file, location.line, location.column) == ("f.json", line, column)


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        pytest.param("[" * 100_000 + "]" * 100_000, 1, 101, id="beyond-the-recursion-limit"),
        pytest.param('{"a":\n  ' + "[" * 150 + "]" * 150 + "}", 2, 102, id="beyond-the-limit"),
        pytest.param('["[[[", "]]", ' + "[" * 101 + "]" * 101 + "]", 1, 114, id="strings-skipped"),
    ],
)
def test_deep_nesting_is_an_input_error_at_the_bracket_one_level_too_deep(
    text: str, line: int, column: int
) -> None:
    with pytest.raises(InputError) as caught:
        loads_strict(text, "deep.json")
    [problem] = caught.value.problems
    assert problem.message == f"JSON nests deeper than {MAX_NESTING} levels"
    assert (problem.location.file, problem.location.line, problem.location.column) == (
        "deep.json",
        line,
        column,
    )


def test_nesting_up_to_the_limit_is_read() -> None:
    assert loads_strict("[" * MAX_NESTING + "]" * MAX_NESTING) == _nested(MAX_NESTING)


def _nested(depth: int) -> list[object]:
    value: list[object] = []
    for _ in range(depth - 1):
        value = [value]
    return value


def test_recursion_limit_reached_before_the_nesting_limit_is_still_located(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Called deep inside another stack, json.loads can run out of recursion first.
    def exhausted(*args: object, **kwargs: object) -> object:
        del args, kwargs
        raise RecursionError

    monkeypatch.setattr(json, "loads", exhausted)
    with pytest.raises(InputError) as caught:
        loads_strict("{\n " + "[" * 60 + "]" * 60 + "}", "f.json")
    [problem] = caught.value.problems
    assert problem.message == "JSON nests too deeply"
    assert (problem.location.line, problem.location.column) == (2, 61)


# --- decode_utf8 ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "text"),
    [
        pytest.param(b"abc", "abc", id="plain"),
        pytest.param(b"\xef\xbb\xbfabc", "abc", id="bom-dropped"),
        pytest.param(b"\xef\xbb\xbf\xef\xbb\xbfx", "\ufeffx", id="only-one-bom-dropped"),
        pytest.param(b"a\xef\xbb\xbfb", "a\ufeffb", id="inner-bom-kept"),
        pytest.param("é".encode(), "é", id="multibyte"),
    ],
)
def test_decode_utf8(data: bytes, text: str) -> None:
    assert decode_utf8(data) == text


@pytest.mark.parametrize(
    ("data", "offset"),
    [
        pytest.param(b"\xff", 0, id="first-byte"),
        pytest.param(b"ab\xffcd", 2, id="middle"),
        pytest.param(b"\xef\xbb\xbf\x80", 3, id="after-bom-counts-bom-bytes"),
        pytest.param(b"ok \xe2\x82", 3, id="truncated-sequence"),
        pytest.param(b"\xed\xa0\x80", 0, id="encoded-surrogate"),
        pytest.param("€".encode() + b"\xc0\xaf", 3, id="overlong"),
    ],
)
def test_invalid_utf8_names_zero_based_byte_offset(data: bytes, offset: int) -> None:
    with pytest.raises(InputError, match=r"invalid UTF-8") as caught:
        decode_utf8(data, "doc.md")
    location = caught.value.problems[0].location
    assert (location.file, location.byte_offset) == ("doc.md", offset)
    assert f"(byte {offset})" in str(caught.value)


def test_read_json_file(tmp_path: Path) -> None:
    path = tmp_path / "ctx.json"
    path.write_bytes(b'\xef\xbb\xbf{"a": 1.0}')
    assert read_json_file(str(path), "ctx.json") == {"a": 1.0}
    with pytest.raises(InputError, match="cannot read file") as caught:
        read_json_file(str(tmp_path / "missing.json"), "missing.json")
    assert caught.value.problems[0].location.file == "missing.json"


# --- properties: nothing but InputError escapes ---------------------------------------------

_FRAGMENTS = st.sampled_from(
    [
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        " ",
        "\n",
        '"a"',
        '"b"',
        '"states"',
        '"current"',
        '"closed_premises"',
        '"surfaces"',
        '"body"',
        '"text"',
        '"history"',
        '"\\ud800"',
        '"\\udc00x"',
        '"é"',
        "1",
        "-0",
        "1.0",
        "1e400",
        "-1e400",
        "1e2",
        "NaN",
        "Infinity",
        "-Infinity",
        "true",
        "false",
        "null",
        "9" * 4400,
        '"',
        "\\",
        "\ufeff",
    ]
)
json_like_text = st.lists(_FRAGMENTS, max_size=30).map("".join) | st.text(max_size=50)


@settings(max_examples=300, deadline=None)
@given(json_like_text)
def test_loads_strict_raises_only_input_error(text: str) -> None:
    try:
        value = loads_strict(text)
    except InputError as error:
        for problem in error.problems:
            problem.render().encode("utf-8")
        return
    with contextlib.suppress(InputError):
        Context.from_json(value).digest  # noqa: B018 (the digest is what may fail)
    with contextlib.suppress(InputError):
        Document.from_json(value).digest  # noqa: B018


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=40) | json_like_text.map(lambda t: t.encode("utf-8", "surrogatepass")))
def test_decode_then_parse_raises_only_input_error(data: bytes) -> None:
    with contextlib.suppress(InputError):
        loads_strict(decode_utf8(data))
