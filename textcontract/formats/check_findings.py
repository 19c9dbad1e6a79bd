"""What the CI formats of ``check`` share: checked documents, rule descriptions, locations.

They render report JSON (SPEC §3), not engine objects, so a report read back from a file
renders as one fresh from the engine. Two 0.2 additions are read when present: an evidence
item's ``location`` (SPEC §10) and the report's ``source`` (SPEC §11). Without a location a
finding points at its surface's first line, and without ``source`` at the name the caller
gives.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from textcontract.model import BODY, Document, matched_text, relative_path

__all__ = [
    "CheckedDocument",
    "Finding",
    "Region",
    "RuleInfo",
    "blocks",
    "evidence_location",
    "findings",
    "location_text",
    "matched_text",
    "region_of",
    "relative_path",
]

_SURFACE_SCOPE = "surface:"


@dataclass(frozen=True)
class RuleInfo:
    """One rule of the contract, as SARIF's ``tool.driver.rules`` describes it."""

    id: str
    type: str
    kind: str
    severity: str
    enforcement: str
    description: str | None = None


@dataclass(frozen=True)
class CheckedDocument:
    """One report with what the caller knows about the file it came from.

    ``surface_lines`` gives, per surface, the file line where its text value begins (its
    JSON string or front-matter scalar); a surface it does not name begins on line 1.
    ``file_line_surfaces`` names the surfaces whose locations are already in file lines (a
    markdown body); when not given, that is ``body`` unless the source is a ``.json`` file.
    ``file`` is the file findings point at when it is not the source (a batch case's
    batch file); ``line``, where everything else of the document points when set (a batch
    case's line); ``markdown`` says whether the body's lines are lines of that file (by
    default: unless the file's name ends in ``.json``).
    """

    name: str
    report: Mapping[str, Any]
    surface_lines: Mapping[str, int] = field(default_factory=dict)
    file_line_surfaces: frozenset[str] | None = None
    file: str | None = None
    markdown: bool | None = None
    line: int | None = None

    @classmethod
    def of(
        cls, name: str, report: Mapping[str, Any], document: Document, **place: Any
    ) -> CheckedDocument:
        """A report with the places of its document's surfaces in their file."""
        return cls(
            name,
            report,
            {surface.name: surface.origin.line for surface in document.surfaces},
            frozenset(surface.name for surface in document.surfaces if surface.origin.file_lines),
            **place,
        )

    @property
    def source(self) -> str:
        """The report's ``source`` (SPEC §11) when it has one, else the caller's name."""
        source = self.report.get("source")
        return source if isinstance(source, str) and source else self.name

    @property
    def path(self) -> str:
        """The file findings point at: ``file`` when given, else the source."""
        return self.file if self.file is not None else self.source

    @property
    def body_lines_are_file_lines(self) -> bool:
        """A markdown/text file's body is located in file lines (SPEC §10); JSON's is not."""
        if self.markdown is not None:
            return self.markdown
        return not self.path.lower().endswith(".json")

    def in_file_lines(self, surface: str) -> bool:
        """Whether locations in ``surface`` are given in file lines (SPEC §10)."""
        if self.file_line_surfaces is not None:
            return surface in self.file_line_surfaces
        return surface == BODY and self.body_lines_are_file_lines


@dataclass(frozen=True)
class Region:
    """1-based lines and columns; ``end_column`` is exclusive, as in SPEC §10 and SARIF."""

    start_line: int
    start_column: int | None = None
    end_line: int | None = None
    end_column: int | None = None


@dataclass(frozen=True)
class Finding:
    """A check that is not satisfied, with its level under the report's policy and its place."""

    check: Mapping[str, Any]
    level: str
    """``error`` (rejects), ``warning`` (advisory violation) or ``note`` (undetermined)."""
    region: Region

    @property
    def rule_id(self) -> str:
        return str(self.check["rule_id"])

    @property
    def code(self) -> str:
        return str(self.check["code"])

    @property
    def status(self) -> str:
        return str(self.check["status"])

    @property
    def unchanged(self) -> bool:
        """Whether ``check --baseline`` found it in the baseline (SPEC §21)."""
        return self.check.get("baseline") == "unchanged"


def blocks(check: Mapping[str, Any], policy: Mapping[str, Any]) -> bool:
    """Whether a violated check rejects under the report's policy (SPEC §3)."""
    if check.get("enforcement") == "advisory":
        return False
    return check.get("kind") == "invariant" or bool(policy.get("block_heuristics", True))


def _level(check: Mapping[str, Any], policy: Mapping[str, Any]) -> str:
    status = check["status"]
    if status == "error":
        return "error"
    if status == "undetermined":
        return "note"
    return "error" if blocks(check, policy) else "warning"


def evidence_location(check: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The first evidence item's ``location`` (SPEC §10), if any item has one."""
    for item in check.get("evidence") or ():
        location = item.get("location") if isinstance(item, Mapping) else None
        if isinstance(location, Mapping):
            return location
    return None


def _surface(check: Mapping[str, Any], location: Mapping[str, Any] | None) -> str | None:
    if location is not None and isinstance(location.get("surface"), str):
        return str(location["surface"])
    scope = str(check.get("scope", ""))
    return scope[len(_SURFACE_SCOPE) :] if scope.startswith(_SURFACE_SCOPE) else None


def region_of(check: Mapping[str, Any], document: CheckedDocument) -> Region:
    """The evidence's location in file lines when it has one, else its surface's first line."""
    location = evidence_location(check)
    surface = _surface(check, location)
    if location is not None and surface is not None and document.in_file_lines(surface):
        start, end = location["start"], location["end"]
        return Region(int(start[0]), int(start[1]), int(end[0]), int(end[1]))
    default = document.line or 1
    line = document.surface_lines.get(surface, default) if surface is not None else default
    return Region(line)


def findings(document: CheckedDocument) -> Iterator[Finding]:
    """Every check of the report that is not satisfied, in report order."""
    policy = document.report.get("policy") or {}
    for check in document.report.get("checks") or ():
        if check["status"] != "satisfied":
            yield Finding(check, _level(check, policy), region_of(check, document))


def location_text(
    source: str, location: Mapping[str, Any], surface_line: int | None, in_file_lines: bool
) -> str:
    """A location as a person looks it up: ``path:line:column``.

    In file lines (a markdown body) that is the place itself. Any other surface's text is a
    value written in the file (a JSON string, a front-matter scalar) whose escapes and
    quoting move its characters, so the file line where the value begins comes first, then
    the place within the surface's text: ``doc.json:4 (surface subject, 1:7)``; without a
    known line, ``doc.json (surface subject, 1:7)``.
    """
    line, column = location["start"]
    if in_file_lines:
        return f"{source}:{line}:{column}"
    where = source if surface_line is None else f"{source}:{surface_line}"
    return f"{where} (surface {location['surface']}, {line}:{column})"
