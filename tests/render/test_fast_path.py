"""The assembler's fast path gives exactly what the marker-by-marker path gives.

Generated templates mix text that needs escaping, claims of every value type and format,
keys claimed again (same and different values), claims stored in variables and printed
zero, one or two times, loops, surface blocks (also nested or repeated), filters that keep
or break the markers, and both autoescape settings. Each is rendered once; its output is
then assembled by both paths, which must give the same Document or the same error.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from textcontract.model import Document
from textcontract.render import RenderError, environment
from textcontract.render._assemble import _Assembly, assemble
from textcontract.render._recorder import ACTIVE, Recorder

ENVIRONMENTS = {escape: environment(autoescape=escape) for escape in (False, True)}
VALUES: dict[str, Any] = {
    "i": 1001,
    "f": 59.9,
    "g": 1.0,
    "b": True,
    "n": None,
    "s": "Tom & Jerry <3",
    "u": "Straße",
    "items": ["a", "b&c", "d"],
}

_text = st.text(alphabet="ab &<>\"'\n\t-.é€{", max_size=8).map(
    lambda t: t.replace("{", "{{ '{' }}")
)
_key = st.sampled_from(["order.total", "order.id", "k", "città", "a", "b", "c"])
_value = st.sampled_from(["i", "f", "g", "b", "n", "s", "u", "1", "1.0", "'1'"])
_fmt = st.sampled_from(["", ", fmt='.2f'", ", fmt='{:>6}'", ", fmt='d'"])
_filter = st.sampled_from(["", "|upper", "|e", "|truncate(3, True, '')"])


@st.composite
def _claim(draw: st.DrawFn) -> str:
    fmt = draw(_fmt)
    if fmt == ", fmt='d'":
        fmt = ""  # 'd' fails on most values; format errors are tested elsewhere
    return f"{{{{ claim({draw(_key)!r}, {draw(_value)}{fmt}){draw(_filter)} }}}}"


@st.composite
def _stored(draw: st.DrawFn) -> str:
    name = draw(st.sampled_from(["x", "y"]))
    times = draw(st.sampled_from([0, 1, 1, 1, 2]))
    return (
        f"{{% set {name} = claim({draw(_key)!r}, {draw(_value)}) %}}" + f"{{{{ {name} }}}}" * times
    )


@st.composite
def _loop(draw: st.DrawFn) -> str:
    claim = draw(st.sampled_from(["'item.' ~ loop.index, v", "'count', items|length", "'item', v"]))
    return f"{{% for v in items %}}{draw(_text)}{{{{ claim({claim}) }}}}{{% endfor %}}"


def _surface(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    name = st.sampled_from(["subject", "preheader", "footer", "legal", "body"])
    state = st.sampled_from(["", ", state='after'"])
    return st.tuples(name, state, st.lists(inner, max_size=4)).map(
        lambda t: f"{{% surface {t[0]!r}{t[1]} %}}{''.join(t[2])}{{% endsurface %}}"
    )


_leaf = st.one_of(_text, _claim(), _stored(), _stored(), _loop())
_piece = st.one_of(_leaf, _surface(_leaf), _surface(st.one_of(_leaf, _surface(_leaf))))
_template = st.lists(_piece, max_size=8).map("".join)


def _outcome(output: str, recorder: Recorder, template: Any, *, fast: bool) -> Document | str:
    try:
        return assemble(output, recorder, "current", template, fast=fast)
    except RenderError as error:
        return f"error: {error}"


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(source=_template, escape=st.booleans())
def test_fast_path_equals_marker_by_marker_path(source: str, escape: bool) -> None:
    template = ENVIRONMENTS[escape].from_string(source)
    recorder = Recorder()
    token = ACTIVE.set(recorder)
    try:
        output = template.render(VALUES)
    except RenderError:
        return  # raised while rendering (a bad value): no output to assemble
    finally:
        ACTIVE.reset(token)
    fast = _outcome(output, recorder, template, fast=True)
    plain = _outcome(output, recorder, template, fast=False)
    assert fast == plain
    if isinstance(plain, Document):
        for surface in plain.surfaces:
            for anchors in surface.anchors.values():
                for anchor in anchors:
                    assert surface.text[anchor.start : anchor.end] == anchor.text


def test_the_fast_path_is_taken_for_the_usual_output() -> None:
    template = environment().from_string(
        "{% surface 'subject' %}Order {{ claim('id', 7) }}{% endsurface %}"
        "Total {{ claim('t', 5.5, fmt='.2f') }} for {{ claim('id', 7) }}"
    )
    recorder = Recorder()
    token = ACTIVE.set(recorder)
    try:
        output = template.render()
    finally:
        ACTIVE.reset(token)
    assert _Assembly(recorder, "current", template).read_fast(output) is not None


def test_the_fast_path_declines_reordered_output() -> None:
    template = environment().from_string("{% set a = claim('a', 1) %}{{ claim('b', 2) }}{{ a }}")
    recorder = Recorder()
    token = ACTIVE.set(recorder)
    try:
        output = template.render()
    finally:
        ACTIVE.reset(token)
    assert _Assembly(recorder, "current", template).read_fast(output) is None
    document = assemble(output, recorder, "current", template)
    assert document.surfaces[0].text == "21"
    assert list(document.surfaces[0].claims) == ["b", "a"]
