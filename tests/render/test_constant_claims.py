"""Calls ``claim()`` whose key and format are constants take their own filter, which checks
only the value (``_claim.claim_filter_constant``): it must give what the checked filter
gives, for every value and format, inside ``render()`` and outside it.

The extension picks that filter when compiling, from the call's tokens
(``_extension._constant_arguments``); the call shapes below are built to fool that choice
(adjacent string literals, keyword and star arguments, trailing commas, formats that are
variables, escapes that decode to U+0000). Every shape must read alike with either filter.
"""

from __future__ import annotations

import enum
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from jinja2 import TemplateSyntaxError
from markupsafe import Markup

from textcontract.render import RenderError, environment, render
from textcontract.render import _extension as extension
from textcontract.render._claim import CLAIM_FILTER, CONSTANT_CLAIM_FILTER


class _Level(enum.IntEnum):
    HIGH = 3


class _Money(float):
    pass


class _Name(str):
    __slots__ = ()


_odd_values: list[Any] = [
    10**5000,  # str() refuses it (the int/str digit limit)
    float("nan"),
    float("inf"),
    -float("inf"),
    -0.0,
    5e-324,
    1.7976931348623157e308,
    "a\x00b",
    "x\udc80",
    "Straße",
    "",
    Markup("<b>bold</b>"),
    Markup("a &amp; b"),
    _Level.HIGH,
    _Money(59.9),
    _Name("named"),
    [1, 2],
    {"a": 1},
    b"bytes",
]
_values = st.one_of(
    st.integers(-(10**20), 10**20),
    st.floats(),
    st.booleans(),
    st.none(),
    st.text(alphabet="ab &<é€{}0", max_size=6),
    st.sampled_from(_odd_values),
)
_keys = st.sampled_from(["k", "order.total", "", "città", "a\x00b", "k\udc80", " "])
_formats = st.sampled_from(
    [
        None,
        ".2f",
        ">6",
        "d",
        ",",
        "x",
        "#x",
        "e",
        "%",
        "s",
        "",
        "=+8.2f",
        "_",
        "05",
        "*^9",
        "c",
        "<3c",
        "n",
        ".3n",
        "\x00>4",
        "é^5",
        "{:>5}",
        "{0}{0}",
        "{>4",
        "}",
        "\udc80>3",
    ]
)


def _outcome(source: str, variables: dict[str, Any]) -> Any:
    try:
        document = render(source, variables)
        # JSON tells 0.0 from -0.0 and 1 from 1.0 (Python refuses to write a 5,000-digit
        # claim in decimal, on either side)
        return document, json.dumps(document.to_json())
    except RenderError as error:
        return f"error: {error}"
    except Exception as error:  # Jinja2's and Python's own errors, as raised
        return f"{type(error).__name__}: {error}"


def _outside(source: str, variables: dict[str, Any]) -> str:
    """The template through Jinja2 alone: no recorder, no markers."""
    try:
        return environment().from_string(source).render(variables)
    except Exception as error:
        return f"{type(error).__name__}: {error}"


def _uses(source: str, name: str) -> bool:
    """Whether the compiled template calls the filter ``name`` (False when it does not
    compile)."""
    try:
        code = environment().compile(source, raw=True)
    except TemplateSyntaxError:
        return False
    return f"environment.filters[{name!r}]" in code


def _framed(call: str, around: bool) -> str:
    """The call alone, or with text around, in a surface block, and a second claim."""
    if not around:
        return call
    block = "{% surface 's' %}<" + call + ">{% endsurface %}"
    return block + "\nTotal " + call + " EUR {{ claim(other, 1) }}"


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(key=_keys, value=_values, fmt=_formats, positional=st.booleans(), around=st.booleans())
def test_a_constant_claim_equals_the_checked_claim(
    key: str, value: Any, fmt: str | None, positional: bool, around: bool
) -> None:
    # the same call, its key and format written as constants or passed as variables
    if fmt is None:
        constant = f"claim({key!r}, value)"
    elif positional:
        constant = f"claim({key!r}, value, {fmt!r})"
    else:
        constant = f"claim({key!r}, value, fmt={fmt!r})"
    checked = "claim(key, value, fmt=fmt)"
    constant_source = _framed("{{ " + constant + " }}", around)
    checked_source = _framed("{{ " + checked + " }}", around)
    assert not _uses(checked_source, CONSTANT_CLAIM_FILTER)
    chosen = _uses(constant_source, CONSTANT_CLAIM_FILTER)
    event("constant filter" if chosen else "checked filter")
    variables = {"key": key, "value": value, "fmt": fmt, "other": "n"}
    assert _outcome(constant_source, variables) == _outcome(checked_source, variables)
    assert _outside(constant_source, variables) == _outside(checked_source, variables)


@pytest.mark.parametrize(
    ("call", "constant"),
    [
        ("claim('k', v)", True),
        ("claim('k', v, '.2f')", True),
        ("claim('k', v, fmt='.2f')", True),
        ("claim('k', (v, 1)[0], fmt='>6')", True),
        ("claim('k', {'a': v}['a'])", True),
        ("claim('k', v if v else w)", True),
        ("claim('k', v)|upper", True),
        ("claim('k', v, fmt=f)", False),  # a format known only when rendering
        ("claim(key, v)", False),
        ("claim('k' 'x', v)", False),  # adjacent literals: Jinja2 joins them
        ("claim('', v)", False),
        ("claim('città', v)", False),
        ("claim('k', v,)", False),
        ("claim('k', v, fmt='.2f',)", False),
        ("claim('k', v, '.2f', 3)", False),
        ("claim('k')", False),
        ("claim('k', value=v)", False),
        ("claim(key='k', value=v)", False),
        ("claim('k', *xs)", False),
        ("claim('k', **kw)", False),
        ("claim('k', v, **kw)", False),
        ("claim('k', d.get('a', v))", True),
        ("claim('k', f(x=1))", False),  # a keyword inside the value: taken as one
        ("claim('k', v, fmt='{:.2f}')", False),
        ("claim('k', v, fmt='c')", False),
        ("claim('k', v, fmt='n')", False),
        ("claim('k', v, fmt='\\x00>4')", False),
        ("claim('k', v, fmt='é^5')", False),
        ("claim('k', v, 3)", False),
        ("claim('k', v, fmt=none)", False),
    ],
)
def test_the_constant_filter_is_compiled_for_constant_keys_and_formats(
    call: str, constant: bool
) -> None:
    source = "{{ " + call + " }}"
    assert _uses(source, CONSTANT_CLAIM_FILTER) is constant
    assert _uses(source, CLAIM_FILTER) is not constant


_CALL_KEYS = ["'k'", "'k' 'x'", "key", "''", "'città'", "key='k'", "'a\\x00b'"]
_CALL_VALUES = ["v", "(v, 1)[0]", "*xs", "**kw", "value=v", "d.get('a', v)", "[v][0]", ""]
_CALL_REST = [
    "",
    ", '.2f'",
    ", fmt='.2f'",
    ", fmt=f",
    ",",
    ", '.2f', 3",
    ", fmt='{:>6}'",
    ", fmt='c'",
    ", fmt='\\x00>4'",
    ", '>5',",
    ", fmt='x', fmt='d'",
    ", **kw",
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    key=st.sampled_from(_CALL_KEYS),
    value=st.sampled_from(_CALL_VALUES),
    rest=st.sampled_from(_CALL_REST),
    v=st.sampled_from([7, 59.9, "x", None]),
)
def test_every_call_shape_reads_alike_with_either_filter(
    key: str, value: str, rest: str, v: Any
) -> None:
    separator = ", " if value else ""
    source = "Total {{ claim(" + key + separator + value + rest + ") }} EUR"
    variables = {"v": v, "xs": [v], "kw": {"fmt": ".2f"}, "f": ".2f", "key": "k", "d": {}}
    chosen = _outcome(source, variables), _outside(source, variables)
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(extension, "_constant_arguments", lambda *_: False)
        assert not _uses(source, CONSTANT_CLAIM_FILTER)
        checked = _outcome(source, variables), _outside(source, variables)
    assert chosen == checked
