"""Rules that read views of markup surfaces (SPEC §18): what they read, where their evidence
points (view → surface text → file), the contract errors of read/within, and 0.2 behaviour
kept for raw reads."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.text._markup_strategies import html_texts, markdown_texts
from textcontract import load_contract_text
from textcontract.contract import parse_contract_text
from textcontract.errors import ContractError
from textcontract.inputs import parse_markdown
from textcontract.model import Context, Document
from textcontract.text import Profile, normalize
from textcontract.text.markup import Format, layout_of

EMPTY = Context.from_json({})


def _checks(rules: str, document: Document) -> list[dict[str, Any]]:
    contract = load_contract_text(f"textcontract: 1\nid: t\nrules:\n{rules}")
    return list(json.loads(contract.check(document, EMPTY).to_json())["checks"])


def _errors(rules: str) -> list[str]:
    with pytest.raises(ContractError) as caught:
        parse_contract_text(f"textcontract: 1\nid: t\nrules:\n{rules}", "c.yaml")
    return [problem.render() for problem in caught.value.problems]


README = "Never run `rm -rf /`.\n\n```sh\nrm -rf build/\n```\n"


def test_read_prose_stops_a_false_alarm_on_code() -> None:
    document = Document.from_text(README, format="markdown")
    raw, prose = _checks(
        "  - {id: raw, type: ForbiddenPattern, patterns: ['rm -rf']}\n"
        "  - {id: prose, type: ForbiddenPattern, patterns: ['rm -rf'], read: [prose]}\n",
        document,
    )
    assert (raw["status"], prose["status"]) == ("violated", "satisfied")
    code = _checks(
        "  - {id: code, type: ForbiddenPattern, patterns: ['rm -rf'], read: [code]}\n", document
    )
    assert code[0]["metrics"] == {"matches": 2}


def test_markup_removed_from_a_match_and_located_through_both_maps() -> None:
    text = "---\nsurfaces: {s: x}\n---\n# Title\n\nIt is **ｖｅｒｙ** im&#x70;ortant.\n"
    document = parse_markdown(text, "doc.md")
    (check,) = _checks(
        "  - {id: p, type: ForbiddenPattern, patterns: ['very important'], read: [prose],"
        " surfaces: [body]}\n",
        document,
    )
    (item,) = check["evidence"]
    body = document.surfaces[0].text
    start, end = item["location"]["offsets"]
    assert body[start:end] == "ｖｅｒｙ** im&#x70;ortant"
    assert item["location"]["start"] == [6, 9]  # file lines: after the front matter
    assert item["location"]["end"] == [6, 30]


@pytest.mark.parametrize(
    ("within", "status"),
    [
        pytest.param("[heading]", "violated", id="heading"),
        pytest.param("[paragraph]", "satisfied", id="paragraph"),
        pytest.param("[paragraph, h1]", "violated", id="union"),
        pytest.param("[h2]", "satisfied", id="other-level"),
    ],
)
def test_within_reads_prose_of_those_containers(within: str, status: str) -> None:
    document = Document.from_text("# Refund now\n\nNothing here.\n", format="markdown")
    (check,) = _checks(
        "  - {id: p, type: ForbiddenPattern, patterns: [refund], read: [prose],"
        f" within: {within}}}\n",
        document,
    )
    assert check["status"] == status


def test_token_rules_count_the_view() -> None:
    document = Document.from_text(
        "Short.\n\n```\nlots of code words here in a block\n```\n", format="markdown"
    )
    raw, prose = _checks(
        "  - {id: raw, type: MinimumTokens, minimum: 5}\n"
        "  - {id: prose, type: MinimumTokens, minimum: 5, read: [prose]}\n",
        document,
    )
    assert raw["metrics"]["tokens"] == 9
    assert prose["metrics"]["tokens"] == 1


def test_a_required_pattern_in_a_comment_does_not_count() -> None:
    document = Document.from_text("<p>Hi</p><!-- order #1001 -->", format="html")
    raw, prose = _checks(
        "  - {id: raw, type: RequiredPattern, patterns: ['order #\\d+']}\n"
        "  - {id: prose, type: RequiredPattern, patterns: ['order #\\d+'], read: [prose]}\n",
        document,
    )
    assert (raw["status"], prose["status"]) == ("satisfied", "violated")


def test_no_repeated_text_and_restatement_read_views() -> None:
    document = Document.from_json(
        {
            "surfaces": {
                "body": {"text": "**Thanks**, see `x` you", "format": "markdown"},
                "summary": {"text": "<b>Thanks</b> see you", "format": "html"},
            }
        }
    )
    context = Context.from_json({"states": {}, "history": ["thanks see you"]})
    contract = load_contract_text(
        "textcontract: 1\nid: t\nrules:\n"
        "  - {id: fresh, type: NoRepeatedText, read: [prose], surfaces: [body]}\n"
        "  - {id: restate, type: LexicalRestatement, source: body, target: summary,"
        " read: [prose]}\n"
    )
    fresh, restate = json.loads(contract.check(document, context).to_json())["checks"]
    assert fresh["status"] == "violated"
    assert restate["metrics"]["novel_tokens"] == 0


def test_a_plain_surface_reads_the_same_with_prose() -> None:
    document = Document.from_text("a refund")
    raw, prose, code = _checks(
        "  - {id: raw, type: ForbiddenPattern, patterns: [refund]}\n"
        "  - {id: prose, type: ForbiddenPattern, patterns: [refund], read: [prose]}\n"
        "  - {id: code, type: ForbiddenPattern, patterns: [refund], read: [code]}\n",
        document,
    )
    assert raw["evidence"] == prose["evidence"]
    assert code["status"] == "satisfied"


def test_link_domains_judges_declared_destinations() -> None:
    text = (
        "[our shop](https://evil.example/deal) and ![x](//img.evil.example/p.png)\n\n"
        "[ref]: https://ref.evil.example\n"
    )
    document = Document.from_text(text, format="markdown")
    raw, markup = _checks(
        "  - {id: raw, type: LinkDomains, allowed: [shop.example]}\n"
        "  - {id: markup, type: LinkDomains, allowed: [shop.example], read: [prose]}\n",
        document,
    )
    assert raw["metrics"] == {"links": 2, "offending_links": 2}
    assert markup["metrics"] == {"links": 3, "offending_links": 3}
    hosts = {item["host"]: item["location"]["offsets"] for item in markup["evidence"]}
    assert text[slice(*hosts["img.evil.example"])] == "//img.evil.example/p.png"
    html = Document.from_text('<a href="//evil.example">shop.example</a>', format="html")
    (check,) = _checks(
        "  - {id: l, type: LinkDomains, allowed: [shop.example], read: [prose]}\n", html
    )
    assert check["evidence"][0]["host"] == "evil.example"


def test_a_raw_search_never_takes_a_label_as_a_host() -> None:
    document = Document.from_text("[https://shop.example.com](https://evil.example/deal)")
    (check,) = _checks("  - {id: l, type: LinkDomains, allowed: [shop.example.com]}\n", document)
    assert [item["host"] for item in check["evidence"]] == ["evil.example"]


@pytest.mark.parametrize(
    ("rule", "message"),
    [
        pytest.param(
            "{id: p, type: ForbiddenPattern, patterns: [x], within: [heading]}",
            "c.yaml:4:60: rule 'p', field within: within needs prose in read (read: [prose, …])",
            id="within-without-read",
        ),
        pytest.param(
            "{id: p, type: ForbiddenPattern, patterns: [x], read: [code], within: [heading]}",
            "c.yaml:4:74: rule 'p', field within: within needs prose in read (read: [prose, …])",
            id="within-without-prose",
        ),
        pytest.param(
            "{id: p, type: ForbiddenPattern, patterns: [x], read: [prse]}",
            "c.yaml:4:59: rule 'p', field read[0]: 'prse' is not one of prose, code, url, comment"
            " (did you mean 'prose'?)",
            id="unknown-kind",
        ),
        pytest.param(
            "{id: p, type: ForbiddenPattern, patterns: [x], read: [prose], within: [headng]}",
            "c.yaml:4:76: rule 'p', field within[0]: 'headng' is not one of heading, h1, h2, h3,"
            " h4, h5, h6, paragraph, list_item, blockquote, table, link_text"
            " (did you mean 'heading'?)",
            id="unknown-container",
        ),
        pytest.param(
            "{id: f, type: RequiredFact, key: k, read: [prose]}",
            "c.yaml:4:41: rule 'f', field read: 'read' is for rules that read surface text;"
            " RequiredFact reads none",
            id="rule-reads-no-text",
        ),
        pytest.param(
            "{id: p, type: ForbiddenPattern, patterns: [x], read: prose}",
            "c.yaml:4:58: rule 'p', field read: read is raw or a list of kinds (prose, code, url,"
            " comment), got 'prose' (write [prose])",
            id="a-kind-not-in-a-list",
        ),
    ],
)
def test_read_and_within_errors_name_file_line_and_column(rule: str, message: str) -> None:
    assert _errors(f"  - {rule}\n") == [message]


def test_read_and_within_enter_the_digest_only_when_given() -> None:
    bare = parse_contract_text(
        "textcontract: 1\nid: t\nrules:\n  - {id: p, type: ForbiddenPattern, patterns: [x]}\n"
    )
    raw = parse_contract_text(
        "textcontract: 1\nid: t\nrules:\n"
        "  - {id: p, type: ForbiddenPattern, patterns: [x], read: raw}\n"
    )
    prose = parse_contract_text(
        "textcontract: 1\nid: t\nrules:\n"
        "  - {id: p, type: ForbiddenPattern, patterns: [x], read: [prose]}\n"
    )
    assert bare.digest != prose.digest
    assert raw.digest != prose.digest


@settings(max_examples=60)
@given(
    st.one_of(
        markdown_texts.map(lambda text: (text, "markdown")),
        html_texts.map(lambda text: (text, "html")),
    ),
    st.sampled_from(["[prose]", "[prose, code]", "[code, url]", "[prose, url, comment]"]),
)
def test_every_located_match_maps_back_exactly(case: tuple[str, str], read: str) -> None:
    """SPEC §18: for every match located at [s, e), the view characters whose original
    offsets lie in [s, e), normalized, contain the match."""
    text, written = case
    document = Document.from_text(text, format=written)
    (check,) = _checks(
        f"  - {{id: p, type: ForbiddenPattern, patterns: ['\\w\\W?\\w?'], read: {read}}}\n",
        document,
    )
    kinds = read.strip("[]").split(", ")
    view = layout_of(text, Format(written)).view(kinds)
    chars = [view.map.char(index) for index in range(len(view.text))]
    for item in check["evidence"]:
        start, end = item["location"]["offsets"]
        inside = "".join(view.text[i] for i, (a, b) in enumerate(chars) if start <= a and b <= end)
        assert item["normalized"] in normalize(inside, Profile.FOLDED)


_VIEW_RULES = {
    "prose": "  - {id: prose, type: ForbiddenPattern, patterns: ['\\w+'], read: [prose]}\n",
    "code": "  - {id: code, type: RequiredPattern, patterns: ['\\w\\w'], read: [code]}\n",
    "links": "  - {id: links, type: LinkDomains, allowed: [example.com], read: [prose, url]}\n",
    "tokens": "  - {id: tokens, type: MinimumTokens, minimum: 3, read: [prose]}\n",
    "headings": (
        "  - {id: headings, type: ForbiddenPattern, patterns: ['\\w'], read: [prose],"
        " within: [heading]}\n"
    ),
}


@settings(max_examples=40)
@given(
    st.one_of(
        markdown_texts.map(lambda text: (text, "markdown")),
        html_texts.map(lambda text: (text, "html")),
    ),
    st.sampled_from(sorted(_VIEW_RULES)),
    st.lists(st.sampled_from(sorted(_VIEW_RULES)), unique=True, max_size=4),
)
def test_a_rule_reads_the_same_view_whichever_other_rules_run(
    case: tuple[str, str], rule: str, others: list[str]
) -> None:
    """SPEC §18: views are a function of the surface and the rule's read/within only; a rule's
    check is the same alone and among rules that read other views of the same surface."""
    text, written = case
    document = Document.from_text(text, format=written)
    (alone,) = _checks(_VIEW_RULES[rule], document)
    before = [name for name in others if name != rule]
    among = _checks("".join(_VIEW_RULES[name] for name in [*before, rule]), document)
    assert among[-1] == alone


def test_a_markup_surface_is_parsed_once_however_many_rules_read_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """SPEC §18: parsed at most once per surface per check, and only when a view is read."""
    from textcontract.rules import _subject

    parsed: list[str] = []

    def counted(text: str, written: Format) -> Any:
        parsed.append(text)
        return layout_of(text, written)

    monkeypatch.setattr(_subject, "layout_of", counted)
    document = Document.from_text(README, format="markdown")
    _checks("".join(_VIEW_RULES.values()), document)
    assert parsed == [README]
    parsed.clear()
    _checks("  - {id: raw, type: ForbiddenPattern, patterns: ['rm']}\n", document)
    assert parsed == []
