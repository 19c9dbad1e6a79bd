"""The Markdown summary of a ``check`` run (the GitHub job summary of ``--format github``).

A line with the totals, a table with one row per document, then the findings of rejected
documents. Documents are added one at a time and only their rows and their first findings
are kept, so a run of many documents streams (GitHub caps a step summary at 1 MiB).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from textcontract.formats.check_findings import CheckedDocument, Finding, findings
from textcontract.formats.markdown_text import Raw, table, text

__all__ = ["FINDINGS_SHOWN", "CheckSummary"]

FINDINGS_SHOWN = 50
"""Findings listed in the summary; the rest are counted."""

_LEVEL_WORDS = {"error": "rejects", "warning": "advisory", "note": "undetermined"}


@dataclass
class CheckSummary:
    """Rows and the first findings of the documents added so far."""

    rows: list[tuple[object, ...]] = field(default_factory=list)
    shown: list[tuple[str, Finding]] = field(default_factory=list)
    more: int = 0
    accepted: int = 0

    def add(self, document: CheckedDocument) -> None:
        report = document.report
        counts = report["counts"]
        if report["accepted"]:
            self.accepted += 1
        verdict = Raw("**accepted**") if report["accepted"] else Raw("**rejected**")
        self.rows.append(
            (
                document.source,
                verdict,
                "yes" if report["complete"] else "no",
                *(counts[name] for name in ("satisfied", "violated", "undetermined", "error")),
            )
        )
        for finding in findings(document):
            if len(self.shown) < FINDINGS_SHOWN:
                self.shown.append((document.path, finding))
            else:
                self.more += 1

    def markdown(self) -> str:
        total = len(self.rows)
        lines = [
            "## textcontract check\n",
            f"{total} document{'s' if total != 1 else ''}: {self.accepted} accepted, "
            f"{total - self.accepted} rejected.\n",
            table(
                (
                    "document",
                    "verdict",
                    "complete",
                    "satisfied",
                    "violated",
                    "undetermined",
                    "error",
                ),
                self.rows,
                "lllrrrr",
            ),
        ]
        if self.shown:
            lines.append("### Findings\n")
            lines.append(self._findings())
        return "\n".join(lines)

    def _findings(self) -> str:
        rows = []
        for source, finding in self.shown:
            region = finding.region
            place = f"{source}:{region.start_line}"
            if region.start_column is not None:
                place += f":{region.start_column}"
            check = finding.check
            rows.append(
                (
                    place,
                    "unchanged" if finding.unchanged else _LEVEL_WORDS[finding.level],
                    check["status"],
                    f"{check['rule_id']} {check['code']}",
                    check["scope"],
                    check.get("message") or "",
                )
            )
        out = table(("where", "effect", "status", "rule", "scope", "message"), rows)
        if self.more:
            out += f"\n{text(f'… and {self.more} more findings (see the annotations).')}\n"
        return out
