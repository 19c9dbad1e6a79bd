"""Located evidence of the pattern, link and claims-anchored rules (SPEC §10, §15).

The promise, checked on generated text: for every match a rule reports, normalizing the
original span with the rule's profile yields a string that contains the match text, and the
lines and columns are those of the span's ends.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from textcontract import load_contract_text
from textcontract._lines import line_column
from textcontract.cli import app
from textcontract.inputs import parse_markdown
from textcontract.model import Context, Document, Status
from textcontract.text import Profile, normalize

_PIECES = st.sampled_from(
    [
        "refund",
        "REFUND",
        "ﬁnal",
        "Straße",
        "cafe\u0301",
        "Café",
        "ｶﾞｲﾄﾞ",
        "\u1100\u1161\u11a8",
        "İ",
        "㍿",
        "\r\n",
        "\r",
        "\n",
        "\u2028",
        " ",
        "x",
        "ΚΑΛΗΜΈΡΑ",
        "й",
    ]
)
_TEXT = st.lists(_PIECES, max_size=20).map("".join)


def _one_line(text: str) -> str:
    return text.replace("\r\n", " ").replace("\r", " ").replace("\n", " ")


def _located(evidence: Any) -> list[dict[str, Any]]:
    return [item for item in evidence if "location" in item]


@pytest.mark.parametrize("folding", [True, False], ids=["folded", "text"])
@settings(max_examples=150, deadline=None)
@given(original=_TEXT, data=st.data())
def test_every_reported_match_is_produced_by_its_original_span(
    folding: bool, original: str, data: st.DataObject
) -> None:
    profile = Profile.FOLDED if folding else Profile.TEXT
    normalized = normalize(original, profile)
    start = data.draw(st.integers(0, len(normalized)))
    end = data.draw(st.integers(start, min(len(normalized), start + 6)))
    wanted = normalized[start:end] or "refund"
    pattern = regex.escape(wanted).replace("'", "''")
    contract = load_contract_text(
        "textcontract: 1\nid: t\nrules:\n"
        f"  - {{id: p, type: ForbiddenPattern, patterns: ['{pattern}'],"
        f" accent_folding: {str(folding).lower()}}}\n"
    )
    (check,) = contract.check(Document.from_text(original), Context.empty()).checks
    for item in _located(check.evidence):
        location = item["location"]
        first, last = location["offsets"]
        # SPEC §21: match and excerpt quote the original; the normalized match stays beside
        assert item["match"] == original[first:last]
        assert item["normalized"] in normalize(item["match"], profile)
        assert _one_line(item["match"]) in item["excerpt"]
        assert item["excerpt"].strip("…") in _one_line(original)
        assert location["start"] == list(line_column(original, first))
        assert location["end"] == list(line_column(original, last))
        assert location["surface"] == "body"


def test_every_pattern_rule_locates_its_matches() -> None:
    contract = load_contract_text(
        "textcontract: 1\nid: t\nrules:\n"
        "  - {id: f, type: ForbiddenPattern, patterns: [refund]}\n"
        "  - {id: r, type: RequiredPattern, patterns: [order]}\n"
        "  - {id: s, type: SettledPremise, premises: {refund-offered: [refund]}}\n"
        "  - {id: l, type: LinkDomains, allowed: [shop.example]}\n"
    )
    document = Document.from_text("Your ORDER:\r\na REFUND at https://evil.test/r")
    context = Context.from_json({"states": {"current": {}}, "closed_premises": ["refund-offered"]})
    checks = contract.check(document, context).checks
    assert [check.status for check in checks] == [
        Status.VIOLATED,
        Status.SATISFIED,
        Status.VIOLATED,
        Status.VIOLATED,
    ]
    located = [item["location"] for check in checks for item in check.evidence]
    refund = {"surface": "body", "offsets": [15, 21], "start": [2, 3], "end": [2, 9]}
    assert located == [
        refund,
        {"surface": "body", "offsets": [5, 10], "start": [1, 6], "end": [1, 11]},
        refund,
        {"surface": "body", "offsets": [25, 42], "start": [2, 13], "end": [2, 30]},
    ]
    # "location" comes last; "normalized" (0.3) follows the match, which quotes the original
    assert [list(item) for item in checks[2].evidence] == [
        ["premise", "pattern", "span", "match", "normalized", "excerpt", "location"]
    ]
    assert list(checks[3].evidence[0]) == ["host", "count", "link", "span", "excerpt", "location"]


def test_a_markdown_body_is_located_in_file_lines() -> None:
    contract = load_contract_text(
        "textcontract: 1\nid: t\nrules:\n  - {id: f, type: ForbiddenPattern, patterns: [refund]}\n"
    )
    text = "---\nsurfaces:\n  subject: a refund\n---\n\nNo\nrefund here\n"
    document = parse_markdown(text, "mail.md")
    body, subject = (check.evidence[0]["location"] for check in contract.check(document).checks)
    assert body == {"surface": "body", "offsets": [4, 10], "start": [7, 1], "end": [7, 7]}
    assert subject == {"surface": "subject", "offsets": [2, 8], "start": [1, 3], "end": [1, 9]}


def test_matches_far_into_a_long_surface_are_located() -> None:
    contract = load_contract_text(
        "textcontract: 1\nid: t\nrules:\n  - {id: f, type: ForbiddenPattern, patterns: [refund]}\n"
    )
    # 50,000 lines, each with a character that normalizes to two
    text = "refund " + "Straße\n" * 50_000 + "refund"
    (check,) = contract.check(Document.from_text(text)).checks
    assert [item["span"] for item in check.evidence] == [[0, 6], [400_007, 400_013]]
    assert [item["location"] for item in check.evidence] == [
        {"surface": "body", "offsets": [0, 6], "start": [1, 1], "end": [1, 7]},
        {
            "surface": "body",
            "offsets": [350_007, 350_013],
            "start": [50_001, 1],
            "end": [50_001, 7],
        },
    ]


def test_claims_anchored_evidence_is_located_and_shown_as_path_line_column(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A broken anchor is located like a pattern match: text output and CI annotations point
    at the line (for a JSON document: the line where the surface's string starts)."""
    contract = tmp_path / "c.yaml"
    contract.write_text(
        "textcontract: 1\nid: t\nrules:\n  - {id: anchored, type: ClaimsAnchored}\n",
        encoding="utf-8",
    )
    document = tmp_path / "doc.json"
    document.write_text(
        '{"surfaces": {"body": {\n'
        '  "text": "Dear Ada,\\nyour total: 59.95 EUR",\n'
        '  "claims": {"order.total": 59.9},\n'
        '  "anchors": {"order.total": [{"span": [22, 27], "text": "59.90"}]}}}}\n',
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)  # short paths: rich wraps long ones
    args = ["check", "doc.json", "--contract", "c.yaml"]
    text = CliRunner().invoke(app, args)
    assert text.exit_code == 1
    assert "doc.json:2 (surface body, 2:13)" in text.stdout
    report = json.loads(CliRunner().invoke(app, [*args, "--format", "json"]).stdout)
    [item] = report["checks"][0]["evidence"]
    assert item["location"] == {
        "surface": "body",
        "offsets": [22, 27],
        "start": [2, 13],
        "end": [2, 18],
    }
    github = CliRunner().invoke(app, [*args, "--format", "github"]).stdout
    assert "::error file=doc.json,line=2,endLine=2,title=anchored CLAIM_ANCHORED::" in github
