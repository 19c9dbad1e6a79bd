"""Where the formats say a located check is (SPEC §10): regions, and ``path:line:column``."""

from __future__ import annotations

from typing import Any

import pytest

from textcontract.formats.check_findings import (
    CheckedDocument,
    Region,
    evidence_location,
    location_text,
    region_of,
)
from textcontract.inputs import parse_markdown
from textcontract.model import Document, Surface, TextOrigin


def _check(surface: str, start: list[int], end: list[int]) -> dict[str, Any]:
    location = {"surface": surface, "offsets": [0, 4], "start": start, "end": end}
    return {
        "rule_id": "r",
        "code": "C",
        "status": "violated",
        "scope": f"surface:{surface}",
        "evidence": [{"premise": "p"}, {"match": "text", "location": location}],
    }


MAIL = parse_markdown('---\nsurfaces:\n  subject: "Hi there"\n---\n\nHello\n', "mail.md")


def test_a_document_brings_its_surfaces_places() -> None:
    checked = CheckedDocument.of("mail.md", {}, MAIL)
    assert checked.surface_lines == {"body": 5, "subject": 3}
    assert checked.file_line_surfaces == frozenset({"body"})
    assert checked.in_file_lines("body")
    assert not checked.in_file_lines("subject")


@pytest.mark.parametrize(
    ("surface", "expected"),
    [
        pytest.param("body", Region(6, 2, 6, 6), id="body-in-file-lines"),
        pytest.param("subject", Region(3), id="other-surface-at-its-value-line"),
        pytest.param("footer", Region(1), id="unknown-surface-at-line-1"),
    ],
)
def test_regions(surface: str, expected: Region) -> None:
    checked = CheckedDocument.of("mail.md", {}, MAIL)
    assert region_of(_check(surface, [6, 2], [6, 6]), checked) == expected


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        pytest.param("mail.md", Region(2, 1, 2, 5), id="markdown-body"),
        pytest.param("reply.json", Region(1), id="json-body"),
        pytest.param("REPLY.JSON", Region(1), id="json-any-case"),
    ],
)
def test_without_the_document_a_body_is_in_file_lines_unless_json(
    name: str, expected: Region
) -> None:
    # A report read back from a file: the caller knows its name, not its surfaces' origins.
    assert region_of(_check("body", [2, 1], [2, 5]), CheckedDocument(name, {})) == expected


def test_a_surface_the_caller_names_is_in_file_lines() -> None:
    checked = CheckedDocument("page.md", {}, {"intro": 4}, frozenset({"intro"}))
    assert region_of(_check("intro", [7, 3], [8, 1]), checked) == Region(7, 3, 8, 1)
    assert region_of(_check("body", [7, 3], [8, 1]), checked) == Region(1)


def test_the_first_located_evidence_item_is_the_checks_place() -> None:
    located = _check("body", [2, 1], [2, 5])
    assert evidence_location(located) == located["evidence"][1]["location"]
    assert evidence_location({"evidence": [{"match": "x"}, "not an item"]}) is None


@pytest.mark.parametrize(
    ("surface_line", "in_file_lines", "expected"),
    [
        pytest.param(12, True, "mail.md:12:5", id="file-lines"),
        pytest.param(4, False, "mail.md:4 (surface subject, 12:5)", id="value-written-in-the-file"),
        pytest.param(None, False, "mail.md (surface subject, 12:5)", id="line-unknown"),
    ],
)
def test_location_text(surface_line: int | None, in_file_lines: bool, expected: str) -> None:
    location = {"surface": "subject", "offsets": [40, 44], "start": [12, 5], "end": [12, 9]}
    assert location_text("mail.md", location, surface_line, in_file_lines) == expected


def test_a_library_document_has_no_file_lines() -> None:
    document = Document((Surface("body", "x"), Surface("note", "y", origin=TextOrigin(3))))
    checked = CheckedDocument.of("<library>", {}, document)
    assert checked.surface_lines == {"body": 1, "note": 3}
    assert checked.file_line_surfaces == frozenset()
