"""A template cannot make a document contradict its claims (SPEC §22).

The text between a claim's markers must be what ``claim()`` printed (or that text
HTML-escaped, as autoescaping prints it); a filter or slice that changes it is a render
error naming the template line that printed the changed text. Values the model refuses
are render errors, and ``fmt`` cannot reach the value's attributes.
"""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jinja2 import DictLoader, StrictUndefined
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup, escape

from textcontract import load_contract_text
from textcontract.model import Context, Document
from textcontract.render import ClaimExtension, RenderError, environment, render, render_async


def _error(source: Any, variables: dict[str, Any] | None = None, **options: Any) -> RenderError:
    with pytest.raises(RenderError) as caught:
        render(source, variables or {}, **options)
    return caught.value


# -- the attacks of issue 29 -------------------------------------------------------------


def test_replace_on_a_claim_is_refused_naming_its_line() -> None:
    error = _error("Hello\nTotal: {{ claim('order.total', 59.9)|replace('59.9','99.9') }} EUR")
    assert error.line == 2
    assert "claim 'order.total'" in str(error)
    assert "'59.9' became '99.9'" in str(error)


def test_a_sliced_claim_is_refused_naming_the_line_that_prints_the_slice() -> None:
    source = (
        "{% set m = claim('order.total', 59.9) %}\n"
        "Dear customer,\n"
        "you paid {{ m[:15] }}99.99{{ m[-8:] }} EUR."
    )
    error = _error(source)
    assert error.line == 3
    assert "'59.9' became '99.99'" in str(error)


def test_a_slice_that_cuts_the_claimed_text_short_is_refused_where_the_cut_is_printed() -> None:
    source = (
        "{% set m = claim('order.total', 59.9) %}{{ m[:17] }}\n"  # the marker and '59'
        "{{ m[-8:] }}"  # the end marker, on the next line
    )
    error = _error(source)
    assert "'59.9' became '59\\n'" in str(error)
    assert error.line == 1  # the newline after '59' is printed on line 1


def _claims_contract() -> Any:
    return load_contract_text(
        "textcontract: 1\nid: c\nrules:\n"
        "  - {id: consistent, type: DeclaredClaimsConsistent}\n"
        "  - {id: anchored, type: ClaimsAnchored}\n"
    )


def test_the_contract_sees_no_document_that_contradicts_its_claims() -> None:
    """Before §22 both claim rules accepted the document saying 99.9 while claiming 59.9."""
    contract = _claims_contract()
    context = Context.from_json({"order.total": 59.9})
    honest = render("Total: {{ claim('order.total', 59.9) }}")
    assert contract.check(honest, context).accepted
    with pytest.raises(RenderError):
        render("Total: {{ claim('order.total', 59.9)|replace('59.9','99.9') }}")


@pytest.mark.parametrize(
    "expression",
    [
        "claim('s', 'shipped')|upper",
        "claim('s', 'now shipped')|title",
        "claim('s', 'shipped')|replace('ship', 'stopp')",
        "claim('s', 'a  b')|wordcount ~ claim('t', 1)",  # consumed: never printed
        "(claim('s', 'a\\nb'))|indent(2)",
    ],
)
def test_filters_that_change_a_claims_text_are_render_errors(expression: str) -> None:
    error = _error("x\n\n{{ " + expression + " }}")
    assert error.line == 3


def test_a_filter_block_that_changes_a_claim_names_the_block() -> None:
    error = _error("one\n{% filter upper %}\ntotal {{ claim('t', 'x') }}!{% endfilter %}")
    assert "'x' became 'X'" in str(error)
    assert error.line == 2


def test_a_macro_that_changes_a_claim_names_the_line_that_calls_it() -> None:
    source = (
        "{% set m = claim('t', 'five') %}"
        "{% macro shout(x) %}\n{{ x|replace('five', 'six') }}{% endmacro %}\n\n{{ shout(m) }}"
    )
    error = _error(source)
    assert "'five' became 'six'" in str(error)
    assert error.line == 4


def test_includes_and_inheritance_name_the_template_that_printed_the_change() -> None:
    loader = DictLoader(
        {
            "outer.txt": "x\n{% include 'inner.txt' %}",
            "inner.txt": "\n\n{{ m[:15] }}7{{ m[-8:] }}",
            "base.txt": "a\n{% block b %}{% endblock %}",
            "child.txt": "{% extends 'base.txt' %}{% block b %}\n\n\n{{ m[:15] }}7{{ m[-8:] }}"
            "{% endblock %}",
        }
    )
    env = environment(loader=loader)
    included = _error(env.from_string("{% set m = claim('t', 5) %}{% include 'outer.txt' %}"))
    assert (included.template_name, included.line) == ("inner.txt", 3)
    extended = _error(env.from_string("{% set m = claim('t', 5) %}{% include 'child.txt' %}"))
    assert (extended.template_name, extended.line) == ("child.txt", 4)


def test_a_template_that_renders_differently_the_second_time_keeps_the_claim_line() -> None:
    """Finding the printing line renders again; a template that is no function of its
    variables gives another output then, and the error names where claim() ran."""
    texts = itertools.count(6)
    source = "{% set m = claim('t', 5) %}\n{{ m[:15] }}{{ next() }}{{ m[-8:] }}"
    error = _error(source, {"next": lambda: str(next(texts))})
    assert "'5' became '6'" in str(error)
    assert error.line == 1


def test_render_async_names_the_line_too() -> None:
    env = environment(enable_async=True)
    source = "{% set m = claim('order.total', 59.9) %}\n\n{{ m[:15] }}99.99{{ m[-8:] }}"
    with pytest.raises(RenderError) as caught:
        asyncio.run(render_async(source, {}, env=env))
    assert caught.value.line == 3
    assert "'59.9' became '99.99'" in str(caught.value)


def test_render_of_an_async_template_names_the_claim_line() -> None:
    env = environment(enable_async=True)
    error = _error("{% set m = claim('t', 5) %}\n{{ m[:15] }}6{{ m[-8:] }}", env=env)
    assert "'5' became '6'" in str(error)
    assert error.line == 1


# -- what may stand between the markers ---------------------------------------------------


def test_escaped_text_is_the_claimed_text_as_printed() -> None:
    env = environment(autoescape=True)
    source = (
        "{{ claim('a', 'Tom & Jerry') }} {{ claim('b', '<b>')|e }} "
        "{{ claim('c', c) }} {% autoescape false %}{{ claim('d', 'x & y')|forceescape }}"
        "{% endautoescape %} {% set m = claim('e', '\"q\"') %}{{ m[:15] }}{{ m[15:] }}"
    )
    document = render(source, {"c": Markup("<i>c</i>")}, env=env)
    surface = document.surfaces[0]
    assert [anchors[0].text for anchors in surface.anchors.values()] == [
        "Tom &amp; Jerry",
        "&lt;b&gt;",
        "<i>c</i>",
        "x &amp; y",
        "&#34;q&#34;",
    ]


def test_escaping_twice_is_a_change() -> None:
    env = environment(autoescape=False)
    error = _error("{{ claim('a', 'x & y')|e|string|forceescape }}", env=env)
    assert "'x & y' became 'x &amp;amp; y'" in str(error)


_FILTERS = [
    "|upper",
    "|lower",
    "|title",
    "|capitalize",
    "|e",
    "|trim",
    "|center(30)",
    "|replace('a', 'b')",
    "|replace('1', '2')",
    "|replace('.', ',')",
    "|replace(' ', '')",
    "|string",
    "[:15] ~ 'x' ~ m[-8:]",
    "[:16] ~ m[-8:]",
    "[:15] ~ m[15:]",
]


@settings(max_examples=60, deadline=None)
@given(
    value=st.sampled_from(["shipped", "A & b", "1.5", "a1", " ", "", 59.9, 10, True, None]),
    chain=st.lists(st.sampled_from(_FILTERS), max_size=3),
    autoescape=st.booleans(),
)
def test_a_rendered_documents_claims_stand_as_claim_printed_them(
    value: Any, chain: list[str], autoescape: bool
) -> None:
    """Whatever filters and slices act on a claim's output, render() gives either a
    render error or a document whose anchors hold what claim() printed (or its escape)."""
    expression = "m"
    for step in chain:
        expression = f"({expression}){step}" if step.startswith("|") else f"m{step}"
    source = f"{{% set m = claim('k', v) %}}<{{{{ {expression} }}}}>"
    try:
        document = render(source, {"v": value}, env=environment(autoescape=autoescape))
    except RenderError:
        return
    printed = str(value)
    for surface in document.surfaces:
        for anchors in surface.anchors.values():
            for anchor in anchors:
                assert anchor.text in (printed, str(escape(printed)))


# -- values the model refuses, and fmt ----------------------------------------------------


@pytest.mark.parametrize(
    ("call", "variables"),
    [
        ("claim('n', v)", {"v": 10**5000}),
        ("claim('n', v, fmt='x')", {"v": -(10**5000)}),
        ("claim(k, v)", {"k": "n", "v": 10**5000}),
        ("claim('città', v)", {"v": 10**5000}),
        ("claim('n', v, fmt=f)", {"v": 10**5000, "f": "d"}),
    ],
)
def test_an_integer_beyond_the_digit_limit_is_a_render_error(
    call: str, variables: dict[str, Any]
) -> None:
    error = _error("\n{{ " + call + " }}", variables)
    assert "an integer of more than 4,300 digits is not a fact value" in str(error)
    assert error.line == 2


def test_an_integer_beyond_the_digit_limit_is_refused_outside_render_too() -> None:
    with pytest.raises(RenderError, match="4,300 digits"):
        environment().from_string("{{ claim('n', v) }}").render(v=10**5000)


def test_large_integers_within_the_limit_are_claims() -> None:
    value = 10**4000
    document = render("{{ claim('n', v) }}", {"v": value})
    assert document.surfaces[0].claims == {"n": value}
    assert document.surfaces[0].text == str(value)


def test_an_integer_too_large_for_a_float_format_is_a_render_error() -> None:
    error = _error("{{ claim('n', v, fmt='.2f') }}", {"v": 10**400})
    assert "int too large to convert to float" in str(error)


@pytest.mark.parametrize(
    "fmt",
    [
        "{0.__class__.__mro__}",
        "{0.__class__}",
        "{0:.2f}",
        "{0}",
        "{.real}",
        "{[0]}",
        "{!r}",
        "{:>{0.__class__}}",
        "{:{}}",
        "Total {} {0}",
    ],
)
def test_fmt_fields_may_not_name_index_convert_or_nest(fmt: str) -> None:
    env = SandboxedEnvironment(extensions=[ClaimExtension], undefined=StrictUndefined)
    error = _error("\n{{ claim('k', 5, fmt=f) }}", {"f": fmt}, env=env)
    assert "field names, indexes, attributes, conversions and nested fields are refused" in str(
        error
    )
    assert error.line == 2


@pytest.mark.parametrize(
    ("fmt", "text"),
    [("{}", "5"), ("{:.2f}", "5.00"), ("{:,.2f} EUR", "5.00 EUR"), ("{{{}}}", "{5}")],
)
def test_fmt_templates_of_plain_fields_format_the_value(fmt: str, text: str) -> None:
    document: Document = render("{{ claim('k', 5, fmt=f) }}", {"f": fmt})
    assert document.surfaces[0].text == text


def test_the_changed_one_of_two_printings_is_named() -> None:
    source = "{% set m = claim('t', 5) %}{{ m }}\n\n{{ m[:15] }}6{{ m[-8:] }}"
    error = _error(source)
    assert "'5' became '6'" in str(error)
    assert error.line == 3


def test_a_second_rendering_that_fails_or_claims_otherwise_keeps_the_claim_line() -> None:
    calls = itertools.count()

    def flaky() -> int:
        if next(calls):
            raise RuntimeError("only once")
        return 5

    source = "{% set m = claim('t', f()) %}\n{{ m[:15] }}6{{ m[-8:] }}"
    assert _error(source, {"f": flaky}).line == 1
    values = itertools.count(5)
    assert _error(source, {"f": lambda: next(values)}).line == 1
