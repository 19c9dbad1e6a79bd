"""``check --format text``: reports for people, at any width, in a terminal or a pipe.

Per document a header line — source, ACCEPTED or REJECTED, complete or incomplete, the
counts — then every check that is not satisfied: its status, rule id, code and scope; below
it, when its evidence is located (SPEC §10), ``path:line:column`` on a line of its own, then
the whole message and the evidence excerpt; a report marked against a baseline
(``check --baseline``) adds ``new`` or ``unchanged`` to each finding's line, and the summary
counts them. ``verbose`` shows satisfied checks too;
``quiet`` only the header lines. A summary line over all documents ends the output.

Every paragraph is wrapped to the width at spaces and never cut: a word longer than a line
stands on a line of its own. Into a pipe or a file the lines are plain text
(:func:`write_report_text`, wrapped by ``textwrap``); on a terminal the same lines, broken
at the same places, are printed by rich with colours (:func:`print_report_text`). Whitespace
in a message or excerpt is collapsed and control characters are shown escaped (``\\x1b``),
so a document cannot move the cursor or recolour the terminal of the person reading its
report.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from textcontract.formats.check_findings import CheckedDocument, evidence_location, location_text

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["Paragraph", "TextOptions", "TextTally", "print_report_text", "write_report_text"]

_STATUSES = ("satisfied", "violated", "undetermined", "error")
_STATUS_WIDTH = max(map(len, _STATUSES))
_STYLES = {
    "satisfied": "green",
    "violated": "red",
    "undetermined": "yellow",
    "error": "bold magenta",
}
_BASELINE_STYLES = {"new": "bold", "unchanged": "dim"}
_EXCERPT_FIELDS = ("excerpt", "match", "link")
_CHECK_INDENT = 2
_DETAIL_INDENT = 4
_MIN_WIDTH = 20
# C0 and C1 controls, DEL, and the bidirectional overrides and isolates.
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")

Segment = tuple[str, str | None]
"""A piece of a paragraph and its rich style (None: plain)."""


class TextOptions(NamedTuple):
    width: int = 80
    verbose: bool = False
    quiet: bool = False


class Paragraph(NamedTuple):
    """Text wrapped as one block: its first line indented by ``indent`` spaces, the others
    by ``hang`` more."""

    indent: int
    segments: tuple[Segment, ...]
    hang: int = 0

    @property
    def text(self) -> str:
        return "".join(text for text, _ in self.segments)


class TextTally:
    """What the summary line counts, document after document."""

    def __init__(self) -> None:
        self.documents = 0
        self.accepted = 0
        self.complete = 0
        self.counts: dict[str, int] = dict.fromkeys(_STATUSES, 0)
        self.baseline: dict[str, int] | None = None
        """``new`` and ``unchanged`` findings, when the reports were marked (SPEC §21)."""

    def add(self, report: Mapping[str, Any]) -> None:
        self.documents += 1
        self.accepted += bool(report["accepted"])
        self.complete += bool(report["complete"])
        for status, count in report["counts"].items():
            self.counts[status] = self.counts.get(status, 0) + count
        marked = report.get("baseline")
        if isinstance(marked, Mapping):
            tally = self.baseline if self.baseline is not None else {"new": 0, "unchanged": 0}
            for state in tally:
                tally[state] += int(marked.get(state, 0))
            self.baseline = tally

    def summary(self) -> Paragraph:
        documents = self.documents
        rejected = documents - self.accepted
        checks = sum(self.counts.values())
        incomplete = documents - self.complete
        text = (
            f"{documents} document{'' if documents == 1 else 's'}: {self.accepted} accepted, "
            f"{rejected} rejected"
            + (f", {incomplete} incomplete" if incomplete else "")
            + f"; {checks} check{'' if checks == 1 else 's'}"
        )
        if checks:
            text += f": {_counts(self.counts)}"
        if self.baseline is not None:
            text += f"; {self.baseline['new']} new, {self.baseline['unchanged']} unchanged"
        style = "bold green" if rejected == 0 else "bold red"
        return Paragraph(0, ((text, style),))


def _counts(counts: Mapping[str, int]) -> str:
    """``8 satisfied, 3 violated``: the statuses that occur, in status order."""
    return ", ".join(f"{counts[status]} {status}" for status in _STATUSES if counts.get(status))


def _escape(found: re.Match[str]) -> str:
    code = ord(found.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def clean(text: str) -> str:
    """``text`` on one line: whitespace runs as one space, control characters escaped."""
    flat = " ".join(text.split())
    return _UNSAFE.sub(_escape, flat) if _UNSAFE.search(flat) else flat


def _header(document: CheckedDocument) -> Paragraph:
    report = document.report
    accepted, complete = bool(report["accepted"]), bool(report["complete"])
    counts = (
        f" ({_counts(report['counts'])})"
        if report.get("checks")
        else " (no checks: the contract produced none for this document)"
    )
    return Paragraph(
        0,
        (
            (clean(document.source), "bold"),
            (": ", None),
            ("ACCEPTED" if accepted else "REJECTED", "bold green" if accepted else "bold red"),
            (", ", None),
            ("complete" if complete else "incomplete", "green" if complete else "yellow"),
            (counts, None),
        ),
    )


def place(check: Mapping[str, Any], document: CheckedDocument) -> str | None:
    """``path:line:column`` of the check's first located evidence item, or None.

    A markdown/text body is located in file lines; another surface names the file line
    where its text begins, when known, and the position inside the surface's text.
    """
    location = evidence_location(check)
    if location is None:
        return None
    surface = str(location.get("surface"))
    begins = document.surface_lines.get(surface, document.line)
    return location_text(document.path, location, begins, document.in_file_lines(surface))


def _excerpt(check: Mapping[str, Any]) -> str | None:
    evidence = [item for item in check.get("evidence") or () if isinstance(item, Mapping)]
    for item in evidence[:1]:
        for name in _EXCERPT_FIELDS:
            value = item.get(name)
            if isinstance(value, str):
                more = len(evidence) - 1
                extra = f" (+{more} more evidence item{'' if more == 1 else 's'})" if more else ""
                return clean(value) + extra
    return None


def _check(check: Mapping[str, Any], document: CheckedDocument) -> Iterator[Paragraph]:
    status = str(check["status"])
    segments: list[Segment] = [
        (status.ljust(_STATUS_WIDTH), _STYLES.get(status)),
        (" ", None),
        (clean(str(check["rule_id"])), "bold"),
    ]
    if check.get("enforcement") == "advisory":
        segments.append((" (advisory)", "dim"))
    segments += [("  ", None), (clean(str(check["code"])), None), ("  ", None)]
    segments.append((clean(str(check["scope"])), "dim"))
    state = check.get("baseline")
    if state in _BASELINE_STYLES:
        segments += [("  ", None), (state, _BASELINE_STYLES[state])]
    yield Paragraph(_CHECK_INDENT, tuple(segments), hang=_STATUS_WIDTH + 1)
    where = place(check, document)
    if where is not None:  # a line of its own, first: editors and terminals open it
        yield Paragraph(_DETAIL_INDENT, ((clean(where), "cyan"),))
    message = clean(str(check.get("message") or ""))
    if message:
        yield Paragraph(_DETAIL_INDENT, ((message, None),))
    excerpt = _excerpt(check)
    if excerpt is not None:
        yield Paragraph(_DETAIL_INDENT, (("evidence: ", "dim"), (excerpt, None)))


def document_paragraphs(document: CheckedDocument, options: TextOptions) -> Iterator[Paragraph]:
    """The header of one document, then its checks as ``options`` asks."""
    yield _header(document)
    if options.quiet:
        return
    for check in document.report.get("checks") or ():
        if options.verbose or check["status"] != "satisfied":
            yield from _check(check, document)


Line = tuple[str, int, int]
"""One wrapped line: its indentation, then the slice ``[start:end]`` of the paragraph's text."""


class _Wrapper:
    """Where paragraphs break: one that fits is one line; a longer one is wrapped by
    textwrap, at spaces only (a word longer than the width keeps a line of its own)."""

    def __init__(self, width: int) -> None:
        self.width = max(width, _MIN_WIDTH)
        self._wrappers: dict[tuple[int, int], textwrap.TextWrapper] = {}

    def _wrapper(self, first: str, rest: str) -> textwrap.TextWrapper:
        wrapper = self._wrappers.get((len(first), len(rest)))
        if wrapper is None:
            wrapper = textwrap.TextWrapper(
                self.width,
                initial_indent=first,
                subsequent_indent=rest,
                break_long_words=False,
                break_on_hyphens=False,
            )
            self._wrappers[len(first), len(rest)] = wrapper
        return wrapper

    def layout(self, paragraph: Paragraph) -> list[Line]:
        text, first = paragraph.text, " " * paragraph.indent
        if len(text) + len(first) <= self.width:
            return [(first, 0, len(text))]
        rest = first + " " * paragraph.hang
        found: list[Line] = []
        position = 0
        for number, line in enumerate(self._wrapper(first, rest).wrap(text)):
            pad = first if number == 0 else rest
            # textwrap only drops the spaces it breaks at: each line is a slice of the text
            start = text.index(line[len(pad) :], position)
            position = start + len(line) - len(pad)
            found.append((pad, start, position))
        return found

    def lines(self, paragraph: Paragraph) -> list[str]:
        text = paragraph.text
        return [pad + text[start:end] for pad, start, end in self.layout(paragraph)]


def write_report_text(
    documents: Iterable[CheckedDocument], write: Callable[[str], object], options: TextOptions
) -> TextTally:
    """Write plain wrapped lines, one document at a time; return the tally."""
    wrapper = _Wrapper(options.width)
    tally = TextTally()
    for document in documents:
        tally.add(document.report)
        lines: list[str] = []
        if tally.documents > 1 and not options.quiet:
            lines.append("")
        for paragraph in document_paragraphs(document, options):
            lines += wrapper.lines(paragraph)
        write("\n".join(lines) + "\n")
    summary = wrapper.lines(tally.summary())
    write(("" if options.quiet else "\n") + "\n".join(summary) + "\n")
    return tally


def print_report_text(
    documents: Iterable[CheckedDocument], console: Console, options: TextOptions
) -> TextTally:
    """Print the same paragraphs to a rich console (a terminal), styled; return the tally."""
    from rich.text import Text

    wrapper = _Wrapper(console.width)

    def show(paragraph: Paragraph) -> None:
        parts = [piece if style is None else (piece, style) for piece, style in paragraph.segments]
        styled = Text.assemble(*parts)
        for pad, start, end in wrapper.layout(paragraph):
            # broken where the plain text breaks; a longer word is left to the terminal
            console.print(Text(pad) + styled[start:end], soft_wrap=True)

    tally = TextTally()
    for document in documents:
        tally.add(document.report)
        if tally.documents > 1 and not options.quiet:
            console.print()
        for paragraph in document_paragraphs(document, options):
            show(paragraph)
    if not options.quiet:
        console.print()
    show(tally.summary())
    return tally
