"""render(): surfaces, claims and anchors from a Jinja2 rendering (SPEC §15)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from jinja2 import DictLoader, Environment, StrictUndefined, Template, TemplateSyntaxError
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup

from textcontract import Context, load_contract_text
from textcontract.errors import ExitCode, InputError
from textcontract.model import Anchor, Document, Surface
from textcontract.render import (
    ClaimExtension,
    RenderError,
    claim,
    environment,
    render,
    render_async,
)


def anchored(document: Document) -> None:
    """Every anchor's text is what its surface holds at its span."""
    for surface in document.surfaces:
        assert set(surface.anchors) == set(surface.claims), surface.name
        for key, anchors in surface.anchors.items():
            for anchor in anchors:
                assert surface.text[anchor.start : anchor.end] == anchor.text, (key, anchor)


def body(document: Document) -> Surface:
    found = document.surface("body")
    assert found is not None
    return found


# -- claims, values, formats -------------------------------------------------------------


def test_claim_renders_the_value_and_records_claim_and_anchor() -> None:
    document = render('Total: {{ claim("order.total", total, fmt=".2f") }} EUR', {"total": 59.9})
    assert document.surfaces == (
        Surface(
            "body",
            "Total: 59.90 EUR",
            "current",
            {"order.total": 59.9},
            {"order.total": (Anchor(7, 12, "59.90"),)},
        ),
    )
    assert document.to_json()["surfaces"]["body"]["anchors"] == {
        "order.total": [{"span": [7, 12], "text": "59.90"}]
    }


@pytest.mark.parametrize(
    ("value", "fmt", "text"),
    [
        (59.9, None, "59.9"),
        (59.9, ".2f", "59.90"),
        (59.9, "{:.2f}", "59.90"),
        (1234567, ",", "1,234,567"),
        (1234.5, "{:,.2f} EUR", "1,234.50 EUR"),
        (7, "03d", "007"),
        (True, None, "True"),
        (None, None, "None"),
        ("shipped", None, "shipped"),
        ("shipped", ">9", "  shipped"),
        ("Straße", None, "Straße"),
        ("x", "{}", "x"),
        ("x", "{{{:>3}}}", "{  x}"),
    ],
)
def test_fmt_is_a_format_spec_or_a_str_format_template(value: Any, fmt: Any, text: str) -> None:
    document = render("{{ claim('k', v, fmt=f) }}", {"v": value, "f": fmt})
    surface = body(document)
    assert surface.text == text
    assert surface.anchors == {"k": (Anchor(0, len(text), text),)}


@pytest.mark.parametrize(
    ("value", "kind"),
    [(1, int), (1.0, float), (True, bool), ("1", str), (None, type(None))],
)
def test_claimed_value_keeps_its_type(value: Any, kind: type) -> None:
    claims = body(render("{{ claim('k', v) }}", {"v": value})).claims
    assert type(claims["k"]) is kind
    assert claims["k"] == value


def test_subclasses_of_json_types_are_recorded_as_the_json_type() -> None:
    from enum import IntEnum

    class Level(IntEnum):
        HIGH = 3

    class Amount(float):
        pass

    claims = body(
        render("{{ claim('a', a) }} {{ claim('b', b) }}", {"a": Level.HIGH, "b": Amount(2.5)})
    ).claims
    assert claims == {"a": 3, "b": 2.5}
    assert type(claims["a"]) is int
    assert type(claims["b"]) is float


def test_markup_value_is_recorded_as_a_string_and_not_escaped_again() -> None:
    env = environment(autoescape=True)
    document = render("{{ claim('k', v) }} {{ w }}", {"v": Markup("<b>A</b>"), "w": "<i>"}, env=env)
    surface = body(document)
    assert surface.text == "<b>A</b> &lt;i&gt;"
    assert surface.claims == {"k": "<b>A</b>"}
    assert type(surface.claims["k"]) is str
    anchored(document)


def test_non_ascii_keys_and_values_take_the_checked_path() -> None:
    document = render("{{ claim('città', v) }}", {"v": "Zürich"})
    assert body(document).claims == {"città": "Zürich"}
    anchored(document)


# -- render errors name the template and the line ----------------------------------------


def _error(source: str, variables: dict[str, Any] | None = None, **options: Any) -> RenderError:
    with pytest.raises(RenderError) as caught:
        render(source, variables or {}, **options)
    return caught.value


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ([1, 2], "a list is not a fact value"),
        ({"a": 1}, "a dict is not a fact value"),
        (float("nan"), "nan is not a finite number"),
        (float("inf"), "inf is not a finite number"),
        ("\ud800", "lone surrogate"),
    ],
)
def test_a_value_that_is_no_fact_is_a_render_error(value: Any, message: str) -> None:
    error = _error("line one\n{{ claim('order.items', v) }}", {"v": value})
    assert message in str(error)
    assert "claim 'order.items'" in str(error)
    assert (error.template_name, error.line) == ("<template>", 2)
    assert error.exit_code is ExitCode.INPUT_ERROR
    assert isinstance(error, InputError)


def test_decimal_is_refused_with_a_hint() -> None:
    from decimal import Decimal

    error = _error("{{ claim('t', v) }}", {"v": Decimal("1.5")})
    assert "a Decimal is not a fact value" in str(error)
    assert "float(...)" in str(error)


def test_undefined_value_is_a_render_error_naming_the_variable() -> None:
    env = Environment(extensions=[ClaimExtension])  # the lenient Undefined of plain Jinja2
    error = _error("\n\n{{ claim('order.total', missing) }}", env=env)
    assert "the value is undefined ('missing' is undefined)" in str(error)
    assert error.line == 3


@pytest.mark.parametrize(
    ("call", "message"),
    [
        ("claim('', 1)", "the key must be a non-empty string"),
        ("claim(3, 1)", "the key must be a non-empty string, got 3"),
        ("claim('k', 1.5, fmt='d')", "fmt 'd' cannot format 1.5"),
        ("claim('k', 'x', fmt='.2f')", 'cannot format "x"'),
        ("claim('k', 1, fmt=2)", "fmt must be a string, got 2"),
        ("claim('k', 1, fmt='{:q}')", "fmt '{:q}' cannot format 1"),
        ("claim('k', 1, fmt='{}{}')", "fmt '{}{}' cannot format 1"),
        ("claim('k', 1, fmt='{:>')", "fmt '{:>' cannot format 1"),
    ],
)
def test_bad_keys_and_formats_are_render_errors(call: str, message: str) -> None:
    error = _error("a\nb\n{{ " + call + " }}")
    assert message in str(error)
    assert error.line == 3


def test_render_error_names_a_loaded_template_and_its_line() -> None:
    loader = DictLoader({"mail/order.txt": "Hello\n\nTotal {{ claim('t', items) }}\n"})
    env = environment(loader=loader)
    with pytest.raises(RenderError) as caught:
        render(env.get_template("mail/order.txt"), {"items": [1]})
    assert str(caught.value).startswith("mail/order.txt:3: claim 't'")


def test_same_key_different_value_is_a_render_error_naming_both_lines() -> None:
    source = "{{ claim('order.total', 59.9) }}\n\n{{ claim('order.total', 59.95) }}"
    error = _error(source)
    assert error.line == 3
    assert "claim 'order.total' = 59.95 on surface 'body' conflicts with 59.9" in str(error)
    assert "claimed at <template>, line 1" in str(error)


def test_one_and_one_point_oh_are_different_values() -> None:
    error = _error("{{ claim('n', 1) }} {{ claim('n', 1.0) }}")
    assert "claim 'n' = 1.0 on surface 'body' conflicts with 1" in str(error)


def test_conflict_inside_a_loop_names_the_loop_line() -> None:
    source = "Items:\n{% for item in items %}\n  {{ claim('first', item) }}\n{% endfor %}"
    error = _error(source, {"items": ["a", "b"]})
    assert error.line == 3
    assert "claim 'first' = \"b\"" in str(error)


def test_same_key_same_value_is_one_claim_with_an_anchor_per_occurrence() -> None:
    source = "{% for i in range(3) %}[{{ claim('order.id', 1001) }}]{% endfor %}"
    surface = body(render(source))
    assert surface.text == "[1001][1001][1001]"
    assert surface.claims == {"order.id": 1001}
    assert surface.anchors == {
        "order.id": (Anchor(1, 5, "1001"), Anchor(7, 11, "1001"), Anchor(13, 17, "1001"))
    }


def test_same_value_in_two_formats_gives_two_anchor_texts() -> None:
    source = "{{ claim('t', t, fmt='.2f') }} / {{ claim('t', t) }}"
    surface = body(render(source, {"t": 59.9}))
    assert surface.anchors == {"t": (Anchor(0, 5, "59.90"), Anchor(8, 12, "59.9"))}


def test_claims_keep_the_order_they_are_printed_in() -> None:
    surface = body(render("{{ claim('b', 2) }}{{ claim('a', 1) }}{{ claim('b', 2) }}"))
    assert list(surface.claims) == ["b", "a"]


# -- surfaces ---------------------------------------------------------------------------


def test_surface_blocks_render_their_own_surfaces_with_their_states() -> None:
    source = (
        '{% surface "subject", state="after" -%}\n'
        "Order {{ claim('order.status', status_after) }}\n"
        "{%- endsurface %}\n"
        "Dear {{ name }}, your order is {{ claim('order.status', status) }}."
    )
    document = render(source, {"status": "packed", "status_after": "shipped", "name": "Dana"})
    assert document.names == ("body", "subject")
    subject = document.surface("subject")
    assert subject == Surface(
        "subject",
        "Order shipped",
        "after",
        {"order.status": "shipped"},
        {"order.status": (Anchor(6, 13, "shipped"),)},
    )
    assert body(document).text == "\nDear Dana, your order is packed."
    assert body(document).anchors == {"order.status": (Anchor(26, 32, "packed"),)}


def test_render_state_is_the_default_snapshot_of_every_surface() -> None:
    source = '{% surface "a" %}x{% endsurface %}{% surface "b", state="before" %}y{% endsurface %}z'
    document = render(source, state="after")
    assert [(s.name, s.state) for s in document.surfaces] == [
        ("body", "after"),
        ("a", "after"),
        ("b", "before"),
    ]


def test_surface_name_and_state_may_be_expressions() -> None:
    source = "{% surface prefix ~ '.subject' state=snap %}s{% endsurface %}"
    document = render(source, {"prefix": "mail", "snap": "after"})
    assert document.names == ("mail.subject",)
    assert document.surfaces[0].state == "after"


def test_whitespace_only_body_around_surface_blocks_is_no_surface() -> None:
    source = (
        '{% surface "subject" %}S{% endsurface %}\n\n{% surface "preheader" %}P{% endsurface %}\n'
    )
    assert render(source).names == ("subject", "preheader")


def test_a_template_of_nothing_is_an_empty_body() -> None:
    assert render("").surfaces == (Surface("body", ""),)


def test_explicit_body_block() -> None:
    source = '{% surface "body", state="after" %}Shipped {{ claim("n", 2) }}{% endsurface %}\n'
    document = render(source)
    assert document.surfaces == (
        Surface("body", "Shipped 2", "after", {"n": 2}, {"n": (Anchor(8, 9, "2"),)}),
    )


def test_body_block_and_text_outside_blocks_is_a_render_error() -> None:
    error = _error('Hello\n{% surface "body" %}x{% endsurface %}')
    assert 'a {% surface "body" %} block and text outside surface blocks' in str(error)
    assert error.line == 2


@pytest.mark.parametrize(
    ("source", "message", "line"),
    [
        ('\n{% surface "Subject" %}x{% endsurface %}', "'Subject' does not match", 2),
        ("{% surface 3 %}x{% endsurface %}", "surface name 3 does not match", 1),
        ('{% surface "s", state="" %}x{% endsurface %}', "state must be a non-empty", 1),
        (
            '{% surface "a" %}\n{% surface "b" %}x{% endsurface %}{% endsurface %}',
            "surface 'b' opens inside surface 'a'",
            2,
        ),
        (
            '{% for i in range(2) %}\n{% surface "s" %}{{ i }}{% endsurface %}{% endfor %}',
            "surface 's' is rendered twice (first at <template>, line 2)",
            2,
        ),
    ],
)
def test_surface_mistakes_are_render_errors(source: str, message: str, line: int) -> None:
    error = _error(source)
    assert message in str(error)
    assert error.line == line


def test_unknown_surface_option_is_a_template_syntax_error() -> None:
    with pytest.raises(TemplateSyntaxError, match="unknown surface option 'snapshot'"):
        render('{% surface "s", snapshot="after" %}x{% endsurface %}')


def test_a_repeated_surface_option_is_a_template_syntax_error() -> None:
    with pytest.raises(TemplateSyntaxError, match="repeated surface option 'format'") as caught:
        render('\n{% surface "s", format="html", state="a", format="plain" %}x{% endsurface %}')
    assert caught.value.lineno == 2


# -- formats (SPEC §18) -------------------------------------------------------------------


def test_render_format_is_the_format_of_every_surface_without_its_own() -> None:
    source = (
        '{% surface "subject" %}S{% endsurface %}'
        '{% surface "html", format="html" %}<p>{{ claim("n", 1) }}</p>{% endsurface %}'
        '{% surface "notes" format="plain", state="after" %}N{% endsurface %}'
        "**B** {{ claim('n', 2) }}"
    )
    document = render(source, format="markdown")
    assert [(s.name, s.format, s.state) for s in document.surfaces] == [
        ("body", "markdown", "current"),
        ("subject", "markdown", "current"),
        ("html", "html", "current"),
        ("notes", "plain", "after"),
    ]
    surfaces = document.to_json()["surfaces"]
    assert surfaces["body"]["format"] == "markdown"
    assert surfaces["html"]["format"] == "html"
    assert "format" not in surfaces["notes"]  # plain: the canonical form leaves it out
    assert Document.from_json(document.to_json()) == document
    anchored(document)


def test_the_default_format_is_plain_and_keeps_the_digest() -> None:
    document = render("Total {{ claim('t', 5) }}{% surface 's' %}x{% endsurface %}")
    assert {surface.format for surface in document.surfaces} == {"plain"}
    assert document.digest == Document.from_json(document.to_json()).digest
    assert "format" not in document.to_json()["surfaces"]["body"]


@pytest.mark.parametrize("format", ["plain", "markdown", "html"])
def test_a_rendering_without_markers_takes_the_format(format: str) -> None:
    assert render("# Title", format=format).surfaces == (Surface("body", "# Title", format=format),)


def test_render_async_takes_the_format_too() -> None:
    source = "{% surface 's', format='html' %}<i>x</i>{% endsurface %}*{{ claim('k', 1) }}*"
    document = asyncio.run(
        render_async(source, {}, env=environment(enable_async=True), format="markdown")
    )
    assert [(s.name, s.format) for s in document.surfaces] == [("body", "markdown"), ("s", "html")]
    assert document == render(source, format="markdown")


def test_surface_format_may_be_an_expression() -> None:
    source = "{% surface 's', format=kind %}<b>x</b>{% endsurface %}"
    assert render(source, {"kind": "html"}).surfaces[0].format == "html"


@pytest.mark.parametrize(
    ("source", "variables", "message", "line"),
    [
        (
            '\n{% surface "s", format="rtf" %}x{% endsurface %}',
            {},
            "surface 's': format must be one of plain, markdown, html, got 'rtf'",
            2,
        ),
        (
            '{% surface "s", format="Markdown" %}x{% endsurface %}',
            {},
            "got 'Markdown'",
            1,
        ),
        ('{% surface "s", format=f %}x{% endsurface %}', {"f": 3}, "got 3", 1),
    ],
)
def test_a_bad_surface_format_is_a_render_error(
    source: str, variables: dict[str, Any], message: str, line: int
) -> None:
    error = _error(source, variables)
    assert message in str(error)
    assert error.line == line


@pytest.mark.parametrize("format", ["rtf", "Markdown", None, 1])
def test_a_bad_render_format_is_a_value_error(format: Any) -> None:
    with pytest.raises(ValueError, match="format must be one of plain, markdown, html"):
        render("x", format=format)


def test_anchors_and_views_of_a_markdown_surface_point_at_the_same_characters() -> None:
    # the anchor is a span of the text as rendered; a rule reading prose locates its match
    # there through the view's map, and skips the same text in a code span
    source = (
        "# Order\n\nYour total is **{{ claim('order.total', total, fmt='.2f') }} EUR**,"
        " not `{{ total }}0 EUR`.\n"
    )
    document = render(source, {"total": 59.9}, format="markdown")
    surface = body(document)
    anchor = surface.anchors["order.total"][0]
    assert surface.text[anchor.start : anchor.end] == "59.90"
    contract = load_contract_text(
        "textcontract: 1\nid: t\nrules:\n"
        "  - {id: anchored, type: ClaimsAnchored}\n"
        "  - {id: amount, type: ForbiddenPattern, patterns: ['59[.]90 eur'], read: [prose]}\n"
    )
    report = json.loads(contract.check(document, Context.from_json({})).to_json())
    held, amount = report["checks"]
    assert held["status"] == "satisfied"
    assert held["evidence"][0]["location"]["offsets"] == [anchor.start, anchor.end]
    assert amount["status"] == "violated"
    assert [e["location"]["offsets"] for e in amount["evidence"]] == [
        [anchor.start, anchor.end + len(" EUR")]
    ]


# -- spans in the final text: escaping, whitespace control, what comes after -------------


def test_spans_account_for_autoescaping_before_and_inside_a_claim() -> None:
    env = environment(autoescape=True)
    source = "<p>{{ name }} &amp; {{ claim('customer.note', note) }} — {{ claim('n', 3) }}</p>"
    document = render(source, {"name": "<Dana>", "note": 'Tom & "Jerry"'}, env=env)
    surface = body(document)
    assert surface.text == ("<p>&lt;Dana&gt; &amp; Tom &amp; &#34;Jerry&#34; — 3</p>")
    assert surface.claims == {"customer.note": 'Tom & "Jerry"', "n": 3}
    assert surface.anchors["customer.note"] == (Anchor(22, 47, "Tom &amp; &#34;Jerry&#34;"),)
    anchored(document)


def test_autoescape_block_and_safe_filter() -> None:
    env = environment(autoescape=False)
    source = (
        "{% autoescape true %}{{ claim('a', '<x>') }}{% endautoescape %}"
        " {{ claim('b', '<y>') }} {{ claim('c', '<z>')|e }}"
    )
    surface = body(render(source, env=env))
    assert surface.text == "&lt;x&gt; <y> &lt;z&gt;"
    assert [a[0].text for a in surface.anchors.values()] == ["&lt;x&gt;", "<y>", "&lt;z&gt;"]


def test_spans_under_whitespace_control() -> None:
    source = (
        "Items:\n{%- for i in items %}\n  - {{ claim('item.' ~ loop.index, i) -}}\n"
        "{% endfor %}\nEnd"
    )
    variables = {"items": ["a", "b"]}
    document = render(source, variables)
    assert body(document).text == "Items:\n  - a\n  - b\nEnd"
    assert body(document).text == environment().from_string(source).render(variables)
    anchored(document)
    assert body(document).anchors["item.2"] == (Anchor(17, 18, "b"),)


def test_spans_under_trim_blocks_and_lstrip_blocks() -> None:
    env = environment(trim_blocks=True, lstrip_blocks=True)
    source = (
        "Order\n    {% if paid %}\n    Paid: {{ claim('order.paid', paid) }}\n    {% endif %}\n"
        "Total: {{ claim('t', 5) }}\n"
    )
    document = render(source, {"paid": True}, env=env)
    assert body(document).text == "Order\n    Paid: True\nTotal: 5"
    assert body(document).anchors == {
        "order.paid": (Anchor(16, 20, "True"),),
        "t": (Anchor(28, 29, "5"),),
    }


def test_keep_trailing_newline_and_text_after_the_last_claim() -> None:
    env = environment(keep_trailing_newline=True)
    document = render("{{ claim('a', 1) }} and then a long tail\n", env=env)
    assert body(document).text == "1 and then a long tail\n"
    assert body(document).anchors == {"a": (Anchor(0, 1, "1"),)}


def test_filters_that_leave_the_claimed_text_alone_keep_it_anchored() -> None:
    source = (
        "[{{ claim('s', 'shipped')|center(11) }}] "
        "{{ (claim('t', 'a b') ~ ' x y')|replace(' x', '-x') }}"
    )
    surface = body(render(source))
    assert surface.text == "[shipped] a b-x y"
    assert surface.claims == {"s": "shipped", "t": "a b"}
    assert surface.anchors == {"s": (Anchor(1, 8, "shipped"),), "t": (Anchor(10, 13, "a b"),)}


def test_filter_block_around_claims() -> None:
    surface = body(render("{% filter upper %}total {{ claim('t', 'X1') }}!{% endfilter %}"))
    assert surface.text == "TOTAL X1!"
    assert surface.anchors == {"t": (Anchor(6, 8, "X1"),)}


@pytest.mark.parametrize(
    "expression",
    [
        "claim('k', 'a long value indeed')|truncate(9)",
        "claim('k', 'abc')|reverse|join",
        "claim('k', 'abc')|first",
    ],
)
def test_filters_that_break_the_markers_are_render_errors(expression: str) -> None:
    error = _error("\n{{ " + expression + " }}")
    assert "claim('k')" in str(error) or "claim 'k'" in str(error)
    assert error.line == 2


def test_a_claim_that_is_never_printed_is_a_render_error() -> None:
    error = _error("{% set t = claim('order.total', 5) %}\nnothing printed")
    assert "claim 'order.total' was evaluated but its output is not in the rendered text" in str(
        error
    )
    assert error.line == 1


def test_a_claim_output_printed_twice_gives_two_anchors() -> None:
    source = "{% set t = claim('order.total', 5) %}Total {{ t }}, again {{ t }}"
    surface = body(render(source))
    assert surface.text == "Total 5, again 5"
    assert surface.anchors == {"order.total": (Anchor(6, 7, "5"), Anchor(15, 16, "5"))}


def test_claim_passed_as_a_macro_argument_is_anchored_where_printed() -> None:
    source = (
        "{% macro line(label, value) %}{{ label }}: {{ value }}{% endmacro %}"
        "{{ line('Total', claim('t', 7)) }}"
    )
    surface = body(render(source))
    assert surface.text == "Total: 7"
    assert surface.anchors == {"t": (Anchor(7, 8, "7"),)}


# -- Jinja2 features: includes, macros, loops, inheritance -------------------------------


def test_includes_macros_imports_and_inheritance() -> None:
    loader = DictLoader(
        {
            "macros.txt": (
                "{% macro money(key, value) %}{{ claim(key, value, fmt='.2f') }} EUR{% endmacro %}"
            ),
            "footer.txt": "Order {{ claim('order.id', order_id) }}\n",
            "base.txt": (
                "{% block subject %}{% endblock %}Hello!\n{% block content %}{% endblock %}Bye"
            ),
            "mail.txt": (
                "{% extends 'base.txt' %}{% import 'macros.txt' as m %}"
                "{% block subject %}{% surface 'subject' %}Order {{ claim('order.id', order_id) }}"
                "{% endsurface %}{% endblock %}"
                "{% block content %}{% for item in items %}- {{ item.name }}: "
                "{{ m.money('item.' ~ loop.index ~ '.price', item.price) }}\n{% endfor %}"
                "Total: {{ m.money('order.total', total) }}\n{% include 'footer.txt' %}"
                "{% endblock %}"
            ),
        }
    )
    env = environment(loader=loader)
    variables = {
        "order_id": 1001,
        "items": [{"name": "Jacket", "price": 50.0}, {"name": "Socks", "price": 9.9}],
        "total": 59.9,
    }
    document = render(env.get_template("mail.txt"), variables)
    assert document.names == ("body", "subject")
    surface = body(document)
    assert surface.text == (
        "Hello!\n- Jacket: 50.00 EUR\n- Socks: 9.90 EUR\nTotal: 59.90 EUR\nOrder 1001Bye"
    )
    assert surface.claims == {
        "item.1.price": 50.0,
        "item.2.price": 9.9,
        "order.total": 59.9,
        "order.id": 1001,
    }
    anchored(document)
    assert document.surface("subject") == Surface(
        "subject",
        "Order 1001",
        "current",
        {"order.id": 1001},
        {"order.id": (Anchor(6, 10, "1001"),)},
    )


def test_call_blocks_and_caller() -> None:
    source = (
        "{% macro box() %}[{{ caller() }}]{% endmacro %}"
        "{% call box() %}total {{ claim('t', 3) }}{% endcall %}"
    )
    surface = body(render(source))
    assert surface.text == "[total 3]"
    assert surface.anchors == {"t": (Anchor(7, 8, "3"),)}


def test_a_template_that_defines_claim_keeps_its_own() -> None:
    source = "{% macro claim(a, b) %}<{{ a }}={{ b }}>{% endmacro %}{{ claim('k', 1) }}"
    document = render(source)
    assert body(document) == Surface("body", "<k=1>")


def test_claim_as_a_value_still_records() -> None:
    source = "{% set c = claim %}{{ c('k', 5) }}"
    surface = body(render(source))
    assert surface.text == "5"
    assert surface.anchors == {"k": (Anchor(0, 1, "5"),)}


def test_claim_global_reports_the_line_too() -> None:
    error = _error("{% set c = claim %}\n\n{{ c('k', [1]) }}")
    assert error.line == 3


def test_sandboxed_environment() -> None:
    env = SandboxedEnvironment(extensions=[ClaimExtension], undefined=StrictUndefined)
    document = render("{{ claim('k', v) }} {{ c('j', 2) }}", {"v": 1, "c": claim}, env=env)
    assert body(document).claims == {"k": 1, "j": 2}
    anchored(document)


# -- environments and templates -----------------------------------------------------------


def test_default_environment_is_strict_about_undefined_variables() -> None:
    from jinja2 import UndefinedError

    with pytest.raises(UndefinedError, match="'missing' is undefined"):
        render("{{ missing }}")


def test_environment_keeps_given_options_and_extensions() -> None:
    env = environment(autoescape=True, extensions=["jinja2.ext.loopcontrols"])
    assert env.autoescape is True
    assert "jinja2.ext.LoopControlExtension" in env.extensions
    document = render(
        "{% for i in range(5) %}{% if i == 2 %}{% break %}{% endif %}"
        "{{ claim('k', 1) }}{% endfor %}",
        env=env,
    )
    assert body(document).text == "11"


def test_a_compiled_template_is_reused() -> None:
    template = environment().from_string("{{ claim('k', v) }}")
    assert [body(render(template, {"v": v})).claims for v in (1, 2)] == [{"k": 1}, {"k": 2}]


def test_a_template_compiled_without_the_extension_is_refused() -> None:
    # its code was compiled without the claim filters; env= with the source renders it
    with pytest.raises(ValueError, match=r"does not load textcontract\.render\.ClaimExtension"):
        render(Environment().from_string("x"))


def test_env_with_a_compiled_template_is_refused() -> None:
    template = environment().from_string("x")
    with pytest.raises(ValueError, match="brings its own environment"):
        render(template, env=environment())


@pytest.mark.parametrize("state", ["", 3, None])
def test_bad_state_argument(state: Any) -> None:
    with pytest.raises(ValueError, match="state must be a non-empty snapshot name"):
        render("x", state=state)


def test_template_must_be_text_or_a_template() -> None:
    with pytest.raises(TypeError, match=r"template must be source text or a jinja2\.Template"):
        render(b"x")  # type: ignore[arg-type]


def test_outside_render_the_extension_renders_plain_text() -> None:
    template = environment().from_string(
        '{% surface "subject" %}S {{ claim("k", 2, fmt="03d") }}{% endsurface %} body'
    )
    assert template.render() == "S 002 body"
    assert isinstance(template, Template)


# -- the reserved code point U+0000 ---------------------------------------------------------


def test_nul_in_template_source_is_a_syntax_error_with_its_line() -> None:
    with pytest.raises(TemplateSyntaxError, match="U\\+0000") as caught:
        render("line\nli\x00ne")
    assert caught.value.lineno == 2


def test_nul_in_a_claimed_value_is_a_render_error() -> None:
    error = _error("\n{{ claim('k', v) }}", {"v": "a\x00b"})
    assert "the text of claim 'k' contains U+0000 (NUL) at index 1" in str(error)
    assert error.line == 2


def test_nul_in_a_variable_is_a_render_error() -> None:
    error = _error("{{ claim('k', 1) }}{{ v }}", {"v": "x\x00y"})
    assert "contains U+0000 (NUL)" in str(error)


def test_a_forged_marker_is_not_read_as_a_claim() -> None:
    forged = "\x00123456" + "10000000FAKE" + "\x00123456" + "2"
    error = _error("{{ claim('k', 1) }}{{ v }}", {"v": forged})
    assert "U+0000 (NUL)" in str(error)


def test_lone_surrogate_in_rendered_text_is_a_render_error() -> None:
    error = _error("{{ claim('k', 1) }}{{ v }}", {"v": "\udc80"})
    assert "lone surrogate" in str(error)


def test_nul_in_a_key_is_harmless() -> None:
    assert body(render("{{ claim(k, 1) }}", {"k": "a\x00b"})).claims == {"a\x00b": 1}


def test_surface_tags_of_constants_are_checked_when_compiled_and_render_alike() -> None:
    from textcontract.render._extension import SURFACE_START, SURFACE_START_CHECKED

    env = environment()
    body = "Hi {{ claim('k', 1) }}{% endsurface %} and {{ claim('n', 2) }}"
    constant = '{% surface "sub.ject-1", state="after" %}' + body
    variable = "{% surface name, state=after %}" + body
    assert f"'{SURFACE_START_CHECKED}'" in env.compile(constant, raw=True)
    assert f"'{SURFACE_START_CHECKED}'" not in env.compile(variable, raw=True)
    assert f"'{SURFACE_START}'" in env.compile(variable, raw=True)
    for unchecked in ('"Sub"', '"s", state=""', '"s", state="a\udc80"', "3"):
        source = "{% surface " + unchecked + " %}x{% endsurface %}"
        assert f"'{SURFACE_START_CHECKED}'" not in env.compile(source, raw=True)
    variables = {"name": "sub.ject-1", "after": "after"}
    document = render(constant, variables)
    assert document == render(variable, variables)
    assert document.surface("sub.ject-1") == Surface(
        "sub.ject-1", "Hi 1", "after", {"k": 1}, {"k": (Anchor(3, 4, "1"),)}
    )
