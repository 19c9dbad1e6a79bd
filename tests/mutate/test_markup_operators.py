"""code-wrap and emphasis-toggle (SPEC §18): what each plants, and the relation a code-wrap
variant takes from what its rule reads (never from what it finds)."""

from __future__ import annotations

import pytest

from textcontract.model import Document

from .baselines import caught, reasons, run

RULES = (
    "textcontract: 1\nid: c\nrules:\n"
    "  - {{id: no-rm, type: ForbiddenPattern, patterns: ['rm -rf'], {read}"
    "examples: {{violated: ['rm -rf /']}}}}\n"
)


@pytest.mark.parametrize(
    ("read", "relation"),
    [
        pytest.param("", "violation", id="raw-reads-code"),
        pytest.param("read: [prose, code], ", "violation", id="code-read"),
        pytest.param("read: [prose], ", "preserve", id="prose-only"),
        pytest.param("read: [prose], within: [paragraph], ", "preserve", id="within"),
    ],
)
@pytest.mark.parametrize("written", ["markdown", "html"])
def test_code_wrap_plants_code_and_expects_by_the_view(
    read: str, relation: str, written: str
) -> None:
    document = Document.from_text("Clean the build folder with care.\n", format=written)
    case, contract = run(RULES.format(read=read), document.to_json(), None, "code-wrap")
    assert [variant.to_json()["relation"] for variant in case.variants] == [relation] * 2
    texts = [variant.document.surfaces[0].text for variant in case.variants]
    if written == "markdown":
        assert "`rm -rf /`" in texts[0]
        assert "```\nrm -rf /\n```" in texts[1]
    else:
        assert "<code>rm -rf /</code>" in texts[0]
        assert "<pre>rm -rf /</pre>" in texts[1]
    if relation == "violation":
        assert caught(contract, case) == [True, True]  # a rule reading code catches it


def test_code_wrap_skips_plain_surfaces() -> None:
    case, _ = run(RULES.format(read=""), "Plain text.", None, "code-wrap")
    assert case.variants == ()
    assert reasons(case) == ["no-rm: no Markdown or HTML surface it reads"]


def test_a_code_span_fence_is_longer_than_the_backticks_inside() -> None:
    rules = RULES.format(read="").replace("'rm -rf /'", "'a `b` c'").replace("'rm -rf'", "'b'")
    document = Document.from_text("Text.\n", format="markdown")
    case, _ = run(rules, document.to_json(), None, "code-wrap")
    assert "``a `b` c``" in case.variants[0].document.surfaces[0].text
    assert "```\na `b` c\n```" in case.variants[1].document.surfaces[0].text


TOKENS = "textcontract: 1\nid: c\nrules:\n  - {id: long, type: MinimumTokens, minimum: 2}\n"


@pytest.mark.parametrize(
    ("written", "text", "toggled"),
    [
        pytest.param(
            "markdown",
            "Clean the `build` folder.\n",
            "**Clean** **the** `build` **folder**.\n",
            id="added-never-in-code",
        ),
        pytest.param(
            "markdown",
            "A **very** good `**x**` day.\n",
            "A very good `**x**` day.\n",
            id="removed-outside-code",
        ),
        pytest.param("html", "<p>Clean it now</p>", "<p><b>Clean</b> it <b>now</b></p>", id="html"),
    ],
)
def test_emphasis_toggle(written: str, text: str, toggled: str) -> None:
    document = Document.from_text(text, format=written)
    case, _ = run(TOKENS, document.to_json(), None, "emphasis-toggle")
    (variant,) = case.variants
    assert variant.to_json()["relation"] == "preserve"
    assert variant.document.surfaces[0].text == toggled


def test_emphasis_toggle_leaves_plain_surfaces() -> None:
    case, _ = run(TOKENS, "Plain text here.", None, "emphasis-toggle")
    assert reasons(case) == ["no surface changes: emphasis toggled"]
