"""``_fast.read_fast`` against the marker-by-marker reader, on templates built to split it.

The fast reader handles all markers at once and declines (returns None) anything but the
usual output. These generated templates aim at the places where it could go wrong: surface
blocks first, last, adjacent, empty or ``body``; a key again on the same surface with an
equal value of another type (``1``, ``1.0``, ``True``; ``0.0`` and ``-0.0``); claims
stored and printed zero, one or two times, or printed after claims evaluated later; claims
in macros, call and filter blocks; filters that keep or break the markers; variables
holding U+0000, a forged marker, a lone surrogate, text beyond Latin-1. Documents are
compared as canonical JSON as well, which tells ``0.0`` from ``-0.0`` and ``1`` from
``1.0`` where ``==`` does not.
"""

from __future__ import annotations

import json
import pickle
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from jinja2 import UndefinedError

from textcontract.model import FORMATS, Anchor, Document
from textcontract.render import RenderError, environment, render
from textcontract.render import _markers as markers
from textcontract.render._assemble import assemble
from textcontract.render._fast import read_fast
from textcontract.render._markers import CLAIM_HEADS, SURFACE_HEADS, new_separator
from textcontract.render._recorder import ACTIVE, Recorder

ENVIRONMENTS = {
    (escape, trim): environment(autoescape=escape, trim_blocks=trim, lstrip_blocks=trim)
    for escape in (False, True)
    for trim in (False, True)
}
VALUES: dict[str, Any] = {
    "i": 7,
    "f": 7.0,
    "b": True,
    "z": 0.0,
    "nz": -0.0,
    "n": None,
    "s": "Tom & Jerry",
    "u": "Straße",
    "e": "59 €",
    "astral": "ok 😀",
    "nul": "a\x00b",
    "forged": "\x00123456" + "10000000x" + "\x00123456" + "2",
    "lone": "x\udc80",
    "items": [1, 2, 3],
}

_gap = st.sampled_from(["", " ", "\n", "  \n", "a", "é", "€", "{{ s }}", "{{ u }}", "{{ e }}"])
_key = st.sampled_from(["k", "k", "total", "città"])
_value = st.sampled_from(["i", "f", "b", "z", "nz", "n", "s", "u", "e", "astral", "7", "'7'"])
_print_filter = st.sampled_from(
    ["", "", "|upper", "|e", "|center(12)", "|truncate(3, True, '')", "|replace('o', '0')"]
)
_variable = st.sampled_from(["s", "u", "e", "astral", "nul", "forged", "lone"])


@st.composite
def _claim(draw: st.DrawFn) -> str:
    fmt = draw(st.sampled_from(["", "", ", fmt='>4'"]))
    return f"{{{{ claim({draw(_key)!r}, {draw(_value)}{fmt}){draw(_print_filter)} }}}}"


@st.composite
def _stored(draw: st.DrawFn) -> str:
    times = draw(st.sampled_from([0, 1, 1, 2]))
    return f"{{% set x = claim({draw(_key)!r}, {draw(_value)}) %}}" + "{{ x }}" * times


@st.composite
def _wrapped(draw: st.DrawFn) -> str:
    claim = f"claim({draw(_key)!r}, {draw(_value)})"
    return draw(
        st.sampled_from(
            [
                f"{{% macro m(v) %}}[{{{{ v }}}}]{{% endmacro %}}{{{{ m({claim}) }}}}",
                f"{{% filter upper %}}<{{{{ {claim} }}}}>{{% endfilter %}}",
                f"{{% macro box() %}}({{{{ caller() }}}}){{% endmacro %}}"
                f"{{% call box() %}}{{{{ {claim} }}}}{{% endcall %}}",
                f"{{% for v in items %}}{{{{ {claim} }}}}{{% endfor %}}",
                f"{{{{ {draw(_variable)} }}}}",
                "{{ late }}",  # a claim evaluated at the start (or undefined), printed here
            ]
        )
    )


_leaf = st.one_of(_gap, _claim(), _claim(), _stored(), _wrapped())


def _block(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    name = st.sampled_from(["subject", "subject", "footer", "body"])
    state = st.sampled_from(
        ["", ", state='after'", ", format='html'", " format='markdown', state='after'"]
    )
    dash = st.sampled_from(["", "-"])
    return st.tuples(name, state, dash, st.lists(inner, max_size=4)).map(
        lambda t: f"{{% surface {t[0]!r}{t[1]} {t[2]}%}}{''.join(t[3])}{{%{t[2]} endsurface %}}"
    )


_piece = st.one_of(_leaf, _block(_leaf), _block(st.one_of(_leaf, _block(_leaf))))
_late = st.sampled_from(["", "", "{% set late = claim('late', i) %}"])  # for {{ late }}
_template = st.tuples(_late, st.lists(_piece, max_size=7)).map(lambda t: t[0] + "".join(t[1]))


def _rendered(source: str, escape: bool, trim: bool) -> tuple[Any, str, Recorder] | None:
    template = ENVIRONMENTS[escape, trim].from_string(source)
    recorder = Recorder()
    token = ACTIVE.set(recorder)
    try:
        output = template.render(VALUES)
    except (RenderError, UndefinedError):
        return None  # raised while rendering (a bad value, no late): nothing to assemble
    finally:
        ACTIVE.reset(token)
    return template, output, recorder


def _outcome(
    output: str, recorder: Recorder, template: Any, *, fast: bool, format: str = "plain"
) -> Any:
    try:
        document = assemble(output, recorder, "current", template, format=format, fast=fast)
    except RenderError as error:
        return f"error: {error}"
    return document, json.dumps(document.to_json())


def _usual(document: Document) -> None:
    for surface in document.surfaces:
        for key, anchors in surface.anchors.items():
            assert key in surface.claims
            for anchor in anchors:
                assert surface.text[anchor.start : anchor.end] == anchor.text


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(source=_template, escape=st.booleans(), trim=st.booleans(), format=st.sampled_from(FORMATS))
def test_fast_reader_equals_marker_by_marker_reader(
    source: str, escape: bool, trim: bool, format: str
) -> None:
    rendered = _rendered(source, escape, trim)
    if rendered is None:
        return
    template, output, recorder = rendered
    plain = _outcome(output, recorder, template, fast=False, format=format)
    assert _outcome(output, recorder, template, fast=True, format=format) == plain
    fast = read_fast(output, recorder, "current", format)
    event("fast reader declined" if fast is None else "fast reader read it")
    if fast is not None:  # whatever the fast reader accepts, it reads as the plain one
        assert (fast, json.dumps(fast.to_json())) == plain
        _usual(fast)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(source=_template, escape=st.booleans(), trim=st.booleans())
def test_unread_anchors_of_the_fast_reader_read_as_the_plain_ones(
    source: str, escape: bool, trim: bool
) -> None:
    # the fast reader's surfaces build their anchors when first read: each reader of a
    # fresh Document (JSON, repr, pickle, equality) sees the marker-by-marker one
    rendered = _rendered(source, escape, trim)
    if rendered is None:
        return
    template, output, recorder = rendered
    if read_fast(output, recorder, "current") is None:
        return
    plain = assemble(output, recorder, "current", template, fast=False)

    def fresh() -> Document:
        document = read_fast(output, recorder, "current")
        assert document is not None
        return document

    assert json.dumps(fresh().to_json()) == json.dumps(plain.to_json())
    assert fresh().digest == plain.digest
    assert repr(fresh()) == repr(plain)
    unpickled = pickle.loads(pickle.dumps(fresh()))
    assert unpickled == plain
    assert [vars(s) for s in unpickled.surfaces] == [vars(s) for s in plain.surfaces]
    assert plain == fresh()
    for surface, plain_surface in zip(fresh().surfaces, plain.surfaces, strict=True):
        for key in plain_surface.anchors:
            assert surface.anchors[key] == plain_surface.anchors[key]
        assert list(surface.anchors) == list(plain_surface.anchors)


# The usual output, and only it: every claim printed once where evaluated, blocks one after
# another, text free of U+0000 and lone surrogates. The fast reader must take all of it.
_usual_leaf = st.one_of(
    _gap,
    st.builds(
        lambda key, value, fmt: f"{{{{ claim({key!r}, {value}{fmt}) }}}}",
        st.sampled_from(["a", "b", "c", "d"]),
        st.sampled_from(["i", "f", "n", "s", "u", "e", "astral"]),
        st.sampled_from(["", ", fmt='>4'"]),
    ),
    st.just("{% for v in items %}{{ claim('item.' ~ v, v) }};{% endfor %}"),
    st.just("{% for v in items %}{{ claim('same', 1) }}{% endfor %}"),
)


@st.composite
def _usual_template(draw: st.DrawFn) -> str:
    pieces = draw(st.lists(_usual_leaf, max_size=6))
    names = draw(st.lists(st.sampled_from(["subject", "preheader", "footer"]), unique=True))
    for name in names:
        inner = "".join(draw(st.lists(_usual_leaf, max_size=3)))
        at = draw(st.integers(0, len(pieces)))
        written = draw(st.sampled_from(["", ", format='markdown'", ", format='html'"]))
        pieces.insert(at, f"{{% surface {name!r}{written} %}}{inner}{{% endsurface %}}")
    return "".join(pieces)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(source=_usual_template(), escape=st.booleans())
def test_fast_reader_takes_the_usual_output(source: str, escape: bool) -> None:
    # distinct keys per surface or equal values: a key's values must agree on a surface
    variables = {**VALUES, "items": [1, 2, 3]}
    template = ENVIRONMENTS[escape, False].from_string(source)
    recorder = Recorder()
    token = ACTIVE.set(recorder)
    try:
        output = template.render(variables)
    except RenderError:
        return
    finally:
        ACTIVE.reset(token)
    try:
        plain = assemble(output, recorder, "current", template, fast=False)
    except RenderError:
        return  # a key claimed on one surface with two values: not the usual output
    fast = read_fast(output, recorder, "current")
    assert fast is not None
    assert (fast, json.dumps(fast.to_json())) == (plain, json.dumps(plain.to_json()))


@pytest.mark.parametrize(
    "source",
    [
        "{{ claim('k', z) }} {{ claim('k', nz) }}",  # equal floats: the first is kept
        "{{ claim('k', nz) }} {{ claim('k', z) }}",
        "{% surface 's' %}{{ claim('k', nz) }}{{ claim('k', z) }}{% endsurface %}x",
        "{{ claim('k', i) }}{{ claim('k', f) }}",  # 7 and 7.0: a conflict
        "{{ claim('k', b) }}{{ claim('k', 1) }}",  # True and 1: a conflict
        "{% surface 'a' %}{% endsurface %}{% surface 'b' %}{% endsurface %}",
        "{% surface 'a' %}{{ claim('k', 1) }}{% endsurface %}{{ claim('k', 2) }}",
        " {% surface 'body' %}{{ claim('k', 1) }}{% endsurface %}\n",
        "{% for v in items %}{% if loop.first %}{% surface 's' %}{{ v }}"
        "{% endsurface %}{% endif %}{{ claim('n', v) }}{% endfor %}",
    ],
)
def test_tricky_outputs_read_alike(source: str) -> None:
    rendered = _rendered(source, False, False)
    assert rendered is not None
    template, output, recorder = rendered
    plain = _outcome(output, recorder, template, fast=False)
    assert _outcome(output, recorder, template, fast=True) == plain
    fast = read_fast(output, recorder, "current")
    if not isinstance(plain, str):  # a Document: the usual output, read by the fast reader
        assert fast is not None
        assert (fast, json.dumps(fast.to_json())) == plain


def test_claims_past_the_table_of_opening_heads() -> None:
    # claims from len(CLAIM_HEADS) on take Recorder.claimed(); both kinds of marker mix
    count = len(CLAIM_HEADS) + 40
    source = (
        "{% surface 'subject' %}{{ claim('first', 1) }}{% endsurface %}"
        "{% for i in range(n) %}{{ claim('k' ~ i, i) }} {% endfor %}"
        "{% surface 'footer' %}{{ claim('last', 2) }}{% endsurface %}"
    )
    template = environment().from_string(source)
    recorder = Recorder()
    token = ACTIVE.set(recorder)
    try:
        output = template.render(n=count)
    finally:
        ACTIVE.reset(token)
    fast = read_fast(output, recorder, "current")
    assert fast is not None
    assert fast == assemble(output, recorder, "current", template, fast=False)
    body = fast.surface("body")
    assert body is not None
    assert len(body.claims) == count
    last = f"k{count - 1}"
    assert body.anchors[last][0].text == str(count - 1)
    assert body.text[body.anchors[last][0].start :].startswith(str(count - 1))
    assert render(template, {"n": count}) == fast


def test_marker_length_is_what_the_markers_take() -> None:
    template = environment().from_string(
        "a{% surface 's', state='x' %}{{ claim('k', 12) }}b{% endsurface %}"
        "{% for i in range(3) %}{{ claim('n' ~ i, i) }}{% endfor %}"
    )
    recorder = Recorder()
    token = ACTIVE.set(recorder)
    try:
        output = template.render()
    finally:
        ACTIVE.reset(token)
    markers = len(output) - len("a12b012")
    assert recorder.marker_length() == markers
    assert output.count(recorder.separator) == 2 * recorder.count + 2


def test_the_fast_reader_declines_a_foreign_nul_and_a_lone_surrogate() -> None:
    for variable in ("nul", "forged", "lone"):
        rendered = _rendered(f"{{{{ claim('k', 1) }}}}{{{{ {variable} }}}}", False, False)
        assert rendered is not None
        _, output, recorder = rendered
        assert read_fast(output, recorder, "current") is None


def test_the_fast_reader_declines_blocks_out_of_sequence() -> None:
    for source in (
        "{% surface 'a' %}{% surface 'b' %}x{% endsurface %}{% endsurface %}",
        "{% for i in range(2) %}{% surface 's' %}{{ i }}{% endsurface %}{% endfor %}",
        "x{% surface 'body' %}y{% endsurface %}",
    ):
        rendered = _rendered(source, False, False)
        assert rendered is not None
        _, output, recorder = rendered
        assert read_fast(output, recorder, "current") is None


def test_separators_are_a_nul_and_six_digits_drawn_anew() -> None:
    separators = {new_separator() for _ in range(50)}
    assert all(len(s) == 7 and s[0] == "\x00" and s[1:].isdigit() for s in separators)
    assert len(separators) > 40  # 50 draws out of 10**6: collisions are rare


# -- claim()'s one-frame path against its checked path ------------------------------------

_any_value = st.one_of(
    st.integers(-(10**12), 10**12),
    st.floats(),
    st.booleans(),
    st.none(),
    st.text(alphabet="ab &<\x00é€", max_size=6),
)
_any_fmt = st.sampled_from(
    [None, ".2f", ">6", "{:>5}", "d", ",", "\x00>4", "é^5", "{0}{0}", "{>4", 3]
)


@settings(max_examples=400, deadline=None)
@given(
    key=st.sampled_from(["k", "città", "a\x00b", "k\udc80", "", 3]),
    value=_any_value,
    fmt=_any_fmt,
)
def test_claim_filter_equals_the_checked_claim(key: Any, value: Any, fmt: Any) -> None:
    # claim(...) compiles to the filter (one frame for plain keys and values); a claim
    # passed around as a value is Jinja2's global, which always takes the checked path.
    variables = {"key": key, "value": value, "fmt": fmt}
    direct = _claimed("{{ claim(key, value, fmt=fmt) }}", variables)
    checked = _claimed("{% set c = claim %}{{ c(key, value, fmt=fmt) }}", variables)
    assert direct == checked


def _claimed(source: str, variables: dict[str, Any]) -> Any:
    try:
        document = render(source, variables)
    except RenderError as error:
        return f"error: {error}"
    return document, json.dumps(document.to_json())


def test_a_nul_in_a_surface_state_is_a_render_error() -> None:
    # the state is checked for U+0000 before its message is built (the usual state has none)
    with pytest.raises(RenderError, match="the state of surface 's' contains U\\+0000") as caught:
        render("\n{% surface 's', state=v %}x{% endsurface %}", {"v": "a\x00"})
    assert caught.value.line == 2


def test_blocks_past_the_table_of_surface_heads() -> None:
    # blocks from len(SURFACE_HEADS) on have their heads formatted; both kinds mix, with
    # claims on both sides of the table of claim heads
    count = len(SURFACE_HEADS) + 6
    source = (
        "{% for i in range(n) %}{% surface 's' ~ i %}{{ claim('k', i) }}{% endsurface %}"
        "{{ claim('b' ~ i, i) }},{% endfor %}"
        "{% for i in range(m) %}{{ claim('late' ~ i, i) }}{% endfor %}"
    )
    template = environment().from_string(source)
    for more in (0, len(CLAIM_HEADS)):
        recorder = Recorder()
        token = ACTIVE.set(recorder)
        try:
            output = template.render(n=count, m=more)
        finally:
            ACTIVE.reset(token)
        fast = read_fast(output, recorder, "current")
        assert fast is not None
        assert fast == assemble(output, recorder, "current", template, fast=False)
        assert fast.names == ("body", *(f"s{i}" for i in range(count)))
        last = fast.surface(f"s{count - 1}")
        assert last is not None
        assert (last.text, last.claims) == (str(count - 1), {"k": count - 1})


def test_a_key_claimed_again_around_blocks_reads_alike() -> None:
    # keys claimed twice in the body (on both sides of blocks) and in a block: the readers
    # take the claims of the body or of the block apart from the others
    for source in (
        "{{ claim('k', 1) }}{% surface 'a' %}{{ claim('k', 2) }}{{ claim('k', 2) }}"
        "{% endsurface %}{{ claim('k', 1) }}{% surface 'b' %}{{ claim('j', 3) }}"
        "{% endsurface %}{{ claim('k', 1) }}",
        "{% surface 'a' %}{{ claim('k', 2) }}{% endsurface %}{{ claim('k', 1) }}"
        "{{ claim('k', 1.0) }}",
        "{{ claim('x', 1) }}{% surface 'a' %}{{ claim('k', 2) }}{{ claim('k', 3) }}"
        "{% endsurface %}",
    ):
        rendered = _rendered(source, False, False)
        assert rendered is not None
        template, output, recorder = rendered
        plain = _outcome(output, recorder, template, fast=False)
        assert _outcome(output, recorder, template, fast=True) == plain
    document = render(
        "{{ claim('k', 1) }}{% surface 'a' %}{{ claim('k', 2) }}{% endsurface %}"
        "-{{ claim('k', 1) }}"
    )
    body = document.surface("body")
    assert body is not None
    assert body.anchors == {"k": (Anchor(0, 1, "1"), Anchor(2, 3, "1"))}


def test_the_nonce_comes_from_os_urandom_where_getrandom_fails(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def missing(size: int) -> bytes:
        raise OSError(38, f"getrandom({size}): function not implemented")

    monkeypatch.setattr(markers, "_random_bytes", missing)
    separators = {new_separator() for _ in range(20)}
    assert all(len(s) == 7 and s[0] == "\x00" and s[1:].isdigit() for s in separators)
    assert len(separators) > 15
    assert render("{{ claim('k', 1) }}").surfaces[0].claims == {"k": 1}


def test_the_tables_of_heads_are_the_heads_formatted() -> None:
    for count in (0, 1, 3, len(CLAIM_HEADS), len(CLAIM_HEADS) + 3):
        expected = [""]
        for ident in range(count):
            expected += [f"1{ident:07d}", "2"]
        assert list(markers.claim_heads(count)) == expected
    expected = []
    for ident in range(len(SURFACE_HEADS) + 5):
        expected += [f"3{ident:07d}", "4"]
    assert [markers.surface_marker_head(index) for index in range(len(expected))] == expected
