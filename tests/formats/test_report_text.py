"""``check --format text``: every message whole, wrapped to any width, places, -v and -q."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console

from textcontract.formats.check_findings import CheckedDocument
from textcontract.formats.report_text import (
    TextOptions,
    clean,
    place,
    print_report_text,
    write_report_text,
)

LONG = (
    "1 forbidden match on surface 'body', first 'money back' (pattern '\\bmoney back\\b'), "
    "state:current:order.status and https://track.example.net/a/very/long/path/that/is/one/word"
)


def _check(status: str = "violated", **extra: Any) -> dict[str, Any]:
    check: dict[str, Any] = {
        "rule_id": "no-refund-promise",
        "rule_version": 1,
        "type": "ForbiddenPattern",
        "kind": "heuristic",
        "status": status,
        "code": "NO_REFUND_PROMISE",
        "scope": "state:current:order.status",
        "severity": "high",
        "enforcement": "blocking",
        "evidence": [],
        "metrics": {},
        "message": LONG,
    }
    check.update(extra)
    return check


def _report(*checks: dict[str, Any], source: str | None = "docs/a.md") -> dict[str, Any]:
    counts = dict.fromkeys(("satisfied", "violated", "undetermined", "error"), 0)
    for check in checks:
        counts[check["status"]] += 1
    accepted = bool(checks) and all(check["status"] == "satisfied" for check in checks)
    return {
        "source": source,
        "policy": {"block_heuristics": True, "block_undetermined": True},
        "accepted": accepted,
        "complete": bool(checks) and not counts["undetermined"] and not counts["error"],
        "counts": counts,
        "checks": list(checks),
    }


def _text(*documents: CheckedDocument, **options: Any) -> str:
    out = io.StringIO()
    write_report_text(documents, out.write, TextOptions(**options))
    return out.getvalue()


@pytest.mark.parametrize("width", [1, 20, 40, 80, 200])
def test_every_word_of_every_message_is_there_whole_at_any_width(width: int) -> None:
    excerpt = {"excerpt": "… you will get your money back, no questions asked …", "match": "x"}
    document = CheckedDocument("a.md", _report(_check(evidence=[excerpt, {"match": "y"}])))
    text = _text(document, width=width)
    words = text.split()
    for word in (LONG + " " + excerpt["excerpt"]).split():
        assert word in words  # never cut, never folded across lines
    assert "(+1 more evidence item)" in " ".join(words)
    limit = max(width, 20)
    for line in text.splitlines():
        assert len(line) <= limit or " " not in line.strip()  # only a lone long word overflows


def test_the_header_names_the_source_verdict_and_counts() -> None:
    report = _report(_check(), _check("satisfied"), _check("undetermined"))
    first = _text(CheckedDocument("name", report)).splitlines()[0]
    assert first == "docs/a.md: REJECTED, incomplete (1 satisfied, 1 violated, 1 undetermined)"
    empty = _text(CheckedDocument("x.md", _report(source=None))).splitlines()[0]
    assert empty == "x.md: REJECTED, incomplete (no checks: the contract produced none for this"


def test_satisfied_checks_only_with_verbose_and_only_headers_with_quiet() -> None:
    report = _report(_check("satisfied", rule_id="ok-rule"), _check(rule_id="bad-rule"))
    document = CheckedDocument("a.md", report)
    plain = _text(document, width=200)
    assert "bad-rule" in plain
    assert "ok-rule" not in plain
    verbose = _text(document, width=200, verbose=True)
    assert verbose.index("ok-rule") < verbose.index("bad-rule")
    quiet = _text(document, width=200, quiet=True)
    assert quiet.splitlines() == [
        "docs/a.md: REJECTED, complete (1 satisfied, 1 violated)",
        "1 document: 0 accepted, 1 rejected; 2 checks: 1 satisfied, 1 violated",
    ]


def test_the_summary_counts_every_document() -> None:
    accepted = _report(_check("satisfied"), source="a.md")
    broken = _report(_check("error"), _check("violated"), source="b.md")
    text = _text(CheckedDocument("a", accepted), CheckedDocument("b", broken), width=200)
    assert text.endswith(
        "\n\n2 documents: 1 accepted, 1 rejected, 1 incomplete; 3 checks: 1 satisfied, "
        "1 violated, 1 error\n"
    )


def test_an_advisory_rule_says_so() -> None:
    text = _text(CheckedDocument("a", _report(_check(enforcement="advisory"))), width=200)
    assert "violated     no-refund-promise (advisory)  NO_REFUND_PROMISE" in text


def _located(surface: str, start: list[int]) -> dict[str, Any]:
    location = {"surface": surface, "offsets": [3, 8], "start": start, "end": [start[0], 9]}
    return _check(evidence=[{"match": "money", "location": location}])


def test_places_in_file_lines_for_a_markdown_body_and_inside_other_surfaces() -> None:
    body = _report(_located("body", [14, 51]))
    assert place(body["checks"][0], CheckedDocument("x", body)) == "docs/a.md:14:51"
    subject = _report(_located("subject", [1, 5]))
    document = CheckedDocument("x", subject, {"subject": 3})
    assert place(subject["checks"][0], document) == "docs/a.md:3 (surface subject, 1:5)"
    as_json = _report(_located("body", [2, 7]), source="r.json")
    assert place(as_json["checks"][0], CheckedDocument("x", as_json)) == (
        "r.json (surface body, 2:7)"
    )
    batch = _report(_located("body", [1, 12]), source="reply-7")
    case = CheckedDocument("x", batch, {"body": 9}, file="replies.jsonl", markdown=False)
    assert place(batch["checks"][0], case) == "replies.jsonl:9 (surface body, 1:12)"
    assert place(_check(), CheckedDocument("x", body)) is None


def test_a_place_is_a_line_of_its_own_below_the_check() -> None:
    text = _text(CheckedDocument("x", _report(_located("body", [14, 51]))), width=80)
    lines = text.splitlines()
    at = lines.index("    docs/a.md:14:51")
    assert lines[at - 1].startswith("  violated     no-refund-promise")


@given(st.text(max_size=60))
def test_cleaned_text_holds_no_control_character_and_one_line(text: str) -> None:
    cleaned = clean(text)
    assert re.search("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]", cleaned) is None
    assert cleaned == cleaned.strip()
    assert "  " not in cleaned


def test_a_document_cannot_drive_the_terminal() -> None:
    check = _check(message="bad \x1b[31mred\x1b[0m \u202eevil", evidence=[{"excerpt": "\x07bell"}])
    text = _text(CheckedDocument("x", _report(check)), width=200)
    for unsafe in ("\x1b", "\x07", "\u202e"):
        assert unsafe not in text
    assert "bad \\x1b[31mred\\x1b[0m \\u202eevil" in text
    assert "evidence: \\x07bell" in text


def test_a_terminal_gets_the_same_words_styled_and_wrapped_by_rich() -> None:
    excerpt = {"excerpt": "… you will get your money back …"}
    document = CheckedDocument("a.md", _report(_check(evidence=[excerpt])))
    out = io.StringIO()
    console = Console(file=out, width=40, force_terminal=True, color_system="standard")
    print_report_text([document], console, TextOptions(width=40))
    rendered = out.getvalue()
    assert "\x1b[" in rendered  # styled
    plain = re.sub(r"\x1b\[[0-9;]*m", "", rendered)
    for word in ["state:current:order.status", "NO_REFUND_PROMISE", "REJECTED,", "money"]:
        assert word in plain.split()
    for line in plain.splitlines():
        assert line == line.rstrip()
        assert len(line) <= 40 or " " not in line.strip()  # a lone long word is left whole
    summary = "1 document: 0 accepted, 1 rejected; 1 check: 1 violated"
    assert " ".join(plain.split()).endswith(summary)
