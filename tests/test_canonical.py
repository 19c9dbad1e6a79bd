"""Canonical JSON and digests (SPEC §3): exact bytes, type-preserving numbers."""

from __future__ import annotations

import hashlib
import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from textcontract.canonical import canonical_json, digest, digest_bytes, digest_streamed


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param({}, b"{}", id="empty-object"),
        pytest.param([], b"[]", id="empty-list"),
        pytest.param({"a": [1, 2], "b": None}, b'{"a":[1,2],"b":null}', id="no-whitespace"),
        pytest.param((1, "x"), b'[1,"x"]', id="tuple-as-list"),
        pytest.param([True, False, None], b"[true,false,null]", id="literals"),
        pytest.param(
            {"b": 1, "a": 2, "B": 3, "é": 4, "aa": 5, "": 6},
            '{"":6,"B":3,"a":2,"aa":5,"b":1,"é":4}'.encode(),
            id="keys-by-code-point",
        ),
        pytest.param(
            # U+FF61 < U+1F600 by code point; RFC 8785's UTF-16 order would put the emoji
            # (surrogate D83D) first. SPEC §3 says code point.
            {"\U0001f600": 1, "\uff61": 2},
            '{"\uff61":2,"\U0001f600":1}'.encode(),
            id="keys-code-point-not-utf16",
        ),
        pytest.param(
            {"z": {"b": 1, "a": 2}, "a": [{"d": 1, "c": 2}]},
            b'{"a":[{"c":2,"d":1}],"z":{"a":2,"b":1}}',
            id="nested-keys-sorted",
        ),
    ],
)
def test_structure_bytes(value: Any, expected: bytes) -> None:
    assert canonical_json(value) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("\x00", b'"\\u0000"', id="nul"),
        pytest.param("\x1f", b'"\\u001f"', id="unit-separator-lowercase-hex"),
        pytest.param("\b\t\n\f\r", b'"\\b\\t\\n\\f\\r"', id="short-escapes"),
        pytest.param('"', b'"\\""', id="quote"),
        pytest.param("\\", b'"\\\\"', id="backslash"),
        pytest.param("/", b'"/"', id="solidus-unescaped"),
        pytest.param("\x7f", b'"\x7f"', id="del-unescaped"),
        pytest.param("é", b'"\xc3\xa9"', id="non-ascii-raw-utf8"),
        pytest.param("\u2028", b'"\xe2\x80\xa8"', id="line-separator-raw"),
        pytest.param("\U0001f600", b'"\xf0\x9f\x98\x80"', id="astral-raw-utf8"),
    ],
)
def test_string_escaping_is_minimal(text: str, expected: bytes) -> None:
    assert canonical_json(text) == expected


@pytest.mark.parametrize(
    ("number", "expected"),
    [
        pytest.param(0, b"0", id="zero"),
        pytest.param(-1, b"-1", id="negative"),
        pytest.param(2**64, b"18446744073709551616", id="beyond-64-bit"),
        pytest.param(-(10**40), b"-1" + b"0" * 40, id="forty-digits"),
        pytest.param(1.0, b"1.0", id="float-one"),
        pytest.param(-0.0, b"-0.0", id="negative-zero"),
        pytest.param(0.1, b"0.1", id="shortest-round-trip"),
        pytest.param(19.99, b"19.99", id="price"),
        pytest.param(1e16, b"1e+16", id="large-exponent"),
        pytest.param(1e-07, b"1e-07", id="small-exponent"),
        pytest.param(123456789012345680.0, b"1.2345678901234568e+17", id="long-float"),
        pytest.param(5e-324, b"5e-324", id="subnormal"),
        pytest.param(True, b"true", id="true-not-1"),
    ],
)
def test_numbers(number: float, expected: bytes) -> None:
    assert canonical_json(number) == expected


def test_non_finite_float_is_refused() -> None:
    with pytest.raises(ValueError, match="not JSON compliant"):
        canonical_json({"x": math.nan})


def test_digest_is_sha256_of_canonical_bytes() -> None:
    assert digest({}) == "sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"
    payload = b'{"a":1.0,"b":[true,null]}'
    assert digest({"b": [True, None], "a": 1.0}) == (
        "sha256:" + hashlib.sha256(payload).hexdigest()
    )
    assert digest_bytes(b"") == (
        "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    )


def test_type_sensitive_digests() -> None:
    values: list[Any] = [1, 1.0, True, "1", None, 0, False, 0.0, ""]
    digests = {digest({"v": value}) for value in values}
    assert len(digests) == len(values)


def test_digest_ignores_key_insertion_order() -> None:
    assert digest({"a": 1, "b": {"c": 2, "d": 3}}) == digest({"b": {"d": 3, "c": 2}, "a": 1})


# --- property: canonical JSON round-trips through json.loads with types preserved ----------

_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()
)
_json_values = st.recursive(
    _scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(), children),
    max_leaves=20,
)


def _strict_equal(a: Any, b: Any) -> bool:
    """Equality that tells ``1``, ``1.0`` and ``True`` apart, recursively."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_strict_equal(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_strict_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float):
        return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)
    return bool(a == b)


def _sorted_keys(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _sorted_keys(value[key]) for key in sorted(value)}
    if isinstance(value, list):
        return [_sorted_keys(item) for item in value]
    return value


@settings(max_examples=300, deadline=None)
@given(_json_values)
def test_round_trip_preserves_value_and_type(value: Any) -> None:
    data = canonical_json(value)
    back = json.loads(data.decode("utf-8"))
    assert _strict_equal(back, _sorted_keys(value))
    assert canonical_json(back) == data


_CHARS = st.characters(codec="utf-8") | st.sampled_from('\\"\n\r\t\b\f\x00\x1f\x7f\u2028é日')
_SPECIAL = st.sampled_from('ab \\"\n\r\t\b\f\x00\x0b\x0e\x1f\x7fé日\u2028')
_SHORT_ESCAPES = st.sampled_from('ab \\"\n\r\té日\u2028')
_LONG = (
    st.text(_CHARS, min_size=250, max_size=700)
    | st.builds(lambda text: "x" * 250 + text, st.text(_SHORT_ESCAPES, max_size=12))
    | st.builds(
        lambda text, control: "x" * 250 + text + control + text,
        st.text(_SHORT_ESCAPES, max_size=6),
        st.sampled_from([chr(code) for code in range(32)]),
    )
    | st.builds(
        lambda head, tail: "x" * 250 + head + tail, st.text(_SPECIAL, max_size=8), st.text(_CHARS)
    )
)
_TEXTS = st.text(_CHARS, max_size=40) | _LONG
_FLOATS = st.floats(allow_nan=False, allow_infinity=False)
_LEAVES = st.none() | st.booleans() | st.integers() | _FLOATS | _TEXTS
_VALUES = st.recursive(
    _LEAVES,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.lists(inner, max_size=3).map(tuple)
        | st.dictionaries(_TEXTS, inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=300)
@given(_VALUES)
def test_the_streamed_digest_is_the_digest_of_the_canonical_json(value: Any) -> None:
    """Long strings (escaped as bytes there) full of quotes, backslashes, line breaks, rare
    control characters and wide characters, inside any nesting."""
    assert digest_streamed(value) == digest(value)


@pytest.mark.parametrize(
    ("value", "error"),
    [
        pytest.param({"text": "a" * 300 + "\ud800"}, UnicodeEncodeError, id="lone-surrogate"),
        pytest.param({"x": float("nan"), "text": "b" * 300}, ValueError, id="nan"),
        pytest.param({1: "x" * 300, "a": 1}, TypeError, id="non-string-key"),
        pytest.param({"x": {1, 2}}, TypeError, id="a-set"),
    ],
)
def test_the_streamed_digest_refuses_what_the_digest_refuses(
    value: Any, error: type[Exception]
) -> None:
    with pytest.raises(error):
        digest(value)
    with pytest.raises(error):
        digest_streamed(value)


@settings(max_examples=200)
@given(_VALUES, st.integers(1, 40))
def test_the_streamed_digest_is_the_same_escaping_a_long_string_piece_by_piece(
    value: Any, piece: int
) -> None:
    """Pieces of any size, cut anywhere — between a backslash and a quote, in a run of line
    breaks, beside a control character or a wide one."""
    from unittest import mock

    import textcontract.canonical as canonical

    with mock.patch.object(canonical, "_PIECE", piece):
        assert digest_streamed(value) == digest(value)
