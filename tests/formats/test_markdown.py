"""Markdown for pull requests: cells that a real CommonMark + GFM-tables parser reads back as
the text that was written, and an audit review report in the order SPEC §12 gives."""

from __future__ import annotations

import subprocess
import sys
from html.parser import HTMLParser

from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from tests.formats.ci_builders import ROOT, audit_report, small_audit
from textcontract.formats.audit_markdown import ROWS_SHOWN, render_audit_markdown
from textcontract.formats.markdown_text import cell, table, text

PARSER = MarkdownIt("commonmark").enable("table")


class _Cells(HTMLParser):
    """The text of every ``<td>``, ``<br>`` read as a line break."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.cells: list[str] = []
        self.open = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:  # noqa: ARG002
        if tag == "td":
            self.open = True
            self.cells.append("")
        elif tag == "br" and self.open:
            self.cells[-1] += "\n"

    def handle_endtag(self, tag: str) -> None:
        if tag == "td":
            self.open = False

    def handle_data(self, data: str) -> None:
        if self.open:
            self.cells[-1] += data


def cells_of(markdown: str) -> list[str]:
    reader = _Cells()
    reader.feed(PARSER.render(markdown))
    return reader.cells


PIECES = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=["Cs", "Cc", "Z"]) | st.just(" "),
    max_size=6,
) | st.sampled_from(
    ["|", "\\", "`", "*", "_", "<b>", "&amp;", "[x](y)", "\n", "\r\n", "~~", "www.", "a@b.c"]
)
CELL_TEXT = st.lists(PIECES, max_size=6).map(lambda parts: "".join(parts).strip(" \r\n"))


@settings(max_examples=200, deadline=None)
@given(first=CELL_TEXT, second=CELL_TEXT)
def test_a_parser_reads_every_cell_back_as_written(first: str, second: str) -> None:
    markdown = table(("a", "b"), [(first, second)])
    assert markdown.count("\n") == 3  # header, rule, one row: a line break never splits it
    assert cells_of(markdown) == [
        value.replace("\r\n", "\n").replace("\r", "\n") for value in (first, second)
    ]


def test_pipes_and_breaks_are_escaped() -> None:
    assert cell("a|b\nc\r\nd") == "a\\|b<br>c<br>d"
    assert text("see https://bit.ly and www.example.com") == (
        "see https\\://bit.ly and www\\.example.com"
    )
    assert cells_of(table(("x",), [("<script>alert(1)</script>",)])) == [
        "<script>alert(1)</script>"
    ]


def test_the_review_report_puts_the_verdict_first_then_attention_then_figures() -> None:
    markdown = render_audit_markdown(audit_report())
    order = [
        markdown.index("**CONCERNS**"),
        markdown.index("`oracle-unreached`"),
        markdown.index("### Needs attention"),
        markdown.index("#### Undetected faults (5)"),
        markdown.index("#### Valid variations not preserved (1)"),
        markdown.index("### Figures"),
        markdown.index("### Strength vector"),
    ]
    assert order == sorted(order)
    assert "| detection | 18 / 23 | 0.783 | [0.581, 0.903] |" in markdown
    assert "| gameability | 7 | 6 | 4 | 0.667 |" in markdown


def test_gaps_and_thresholds_are_shown() -> None:
    report, _ = small_audit()
    markdown = render_audit_markdown(
        report, [{"figure": "detection", "minimum": 0.9, "value": 0.0, "met": False}]
    )
    assert "- detection ≥ 0.900: **not met** (measured 0.000)" in markdown
    assert "| no\\|pipes | high |" in markdown
    assert cells_of(markdown[markdown.index("#### Coverage gaps") :])[:2] == ["no|pipes", "high"]


def test_long_lists_are_capped_and_counted() -> None:
    report = audit_report()
    row = next(v for v in report["variants"] if v["outcome"] == "undetected")
    report["variants"] = [{**row, "variant": f"v{i}"} for i in range(ROWS_SHOWN + 7)]
    markdown = render_audit_markdown(report)
    assert f"#### Undetected faults ({ROWS_SHOWN + 7})" in markdown
    assert "… and 7 more." in markdown
    assert f"/v{ROWS_SHOWN - 1} |" in markdown
    assert f"/v{ROWS_SHOWN} |" not in markdown


def test_the_command_prints_the_review_report() -> None:
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "textcontract",
            "audit",
            "fixtures/mutations",
            "--format",
            "markdown",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    lines = completed.stdout.splitlines()
    assert lines[0] == "## textcontract audit: order-confirmation 3 — **CONCERNS**"
    assert "- detection ≥ 0.750: met (measured 0.783)" in lines
    assert completed.stdout == render_audit_markdown(
        audit_report(),
        [
            {
                "figure": "detection",
                "minimum": 0.75,
                "value": audit_report()["detection"]["score"],
                "met": True,
            },
            {
                "figure": "preservation",
                "minimum": 0.8,
                "value": audit_report()["preservation"]["rate"],
                "met": True,
            },
        ],
    )
