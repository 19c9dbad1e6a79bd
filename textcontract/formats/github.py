"""``--format github``: workflow commands that put annotations on the right lines.

One command per finding, ``::error file=F,line=L,endLine=L2,col=C,endColumn=C2,title=T::M``.
Values are escaped exactly as ``@actions/core`` escapes them and the runner unescapes them
(``packages/core/src/command.ts``): in the message ``%`` → ``%25``, CR → ``%0D``, LF →
``%0A``; in property values also ``:`` → ``%3A`` and ``,`` → ``%2C``. The runner accepts
columns only on a one-line annotation, and takes ``endColumn`` as the last column of the
span, so columns are given only when a finding starts and ends on one line, and SPEC §10's
exclusive end becomes ``end - 1``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from textcontract.formats.check_findings import CheckedDocument, Finding, findings, relative_path

__all__ = [
    "COMMANDS",
    "escape_data",
    "escape_property",
    "workflow_command",
    "write_audit_annotations",
    "write_check_annotations",
]

COMMANDS = {"error": "error", "warning": "warning", "note": "notice"}
"""A finding's level (as SARIF names it) → the workflow command that shows it."""

_SEVERITIES = ("low", "medium", "high", "critical")
_DOTNET_WHITESPACE = (
    "\t\n\v\f\r \x85\xa0\u1680"
    + "".join(map(chr, range(0x2000, 0x200B)))
    + ("\u2028\u2029\u202f\u205f\u3000")
)
"""What .NET's ``string.Trim`` removes: the runner trims the property list with it."""
_NOT_A_FILE = "<stdin>"


def escape_data(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(value: str) -> str:
    return escape_data(value).replace(":", "%3A").replace(",", "%2C")


def workflow_command(command: str, properties: Sequence[tuple[str, object]], message: str) -> str:
    """One command line; properties with an empty value are left out, as the toolkit does.

    The runner trims white space around the property list, which would cut it from the
    first and last values, so every value is written trimmed.
    """
    given = [
        (name, str(value).strip(_DOTNET_WHITESPACE))
        for name, value in properties
        if value is not None
    ]
    rendered = ",".join(f"{name}={escape_property(value)}" for name, value in given if value)
    head = f"::{command} {rendered}" if rendered else f"::{command}"
    return f"{head}::{escape_data(message)}\n"


def _position(finding: Finding) -> list[tuple[str, object]]:
    region = finding.region
    out: list[tuple[str, object]] = [("line", region.start_line)]
    end_line = region.end_line if region.end_line is not None else region.start_line
    if end_line != region.start_line:
        return [*out, ("endLine", end_line)]
    out.append(("endLine", end_line))
    if region.start_column is not None:
        out.append(("col", region.start_column))
        if region.end_column is not None:
            out.append(("endColumn", max(region.start_column, region.end_column - 1)))
    return out


def _check_message(check: Mapping[str, Any]) -> str:
    lines = [str(check.get("message") or check["code"]), f"scope: {check['scope']}"]
    for item in check.get("evidence") or ():
        excerpt = item.get("excerpt") if isinstance(item, Mapping) else None
        if isinstance(excerpt, str):
            lines.append(f"excerpt: {excerpt}")
            break
    return "\n".join(lines)


def write_check_annotations(
    documents: Iterable[CheckedDocument], base: str, write: Callable[[str], object]
) -> None:
    """One command per check that is not satisfied, document after document."""
    for document in documents:
        file = None if document.path == _NOT_A_FILE else relative_path(document.path, base)
        for finding in findings(document):
            properties: list[tuple[str, object]] = []
            if file is not None:
                properties = [("file", file), *_position(finding)]
            title = f"{finding.rule_id} {finding.code}"
            # a finding the baseline holds is known and passes the run: a notice (SPEC §21)
            command = COMMANDS["note"] if finding.unchanged else COMMANDS[finding.level]
            properties.append(("title", f"{title} (unchanged)" if finding.unchanged else title))
            write(workflow_command(command, properties, _check_message(finding.check)))


Place = tuple[str, int | None]
"""A file (as the audit names it) and a line in it."""


def _at_or_above(severity: str, floor: str) -> bool:
    return _SEVERITIES.index(severity) >= _SEVERITIES.index(floor)


_FAILING_REASONS = frozenset({"accepted", "unrelated-rejection", "error"})
"""Reasons of an undetected fault that FAIL the verdict at/above the floor: the fault was
voted on and missed, or its trial was invalidated. ``undetermined`` and ``not-applicable``
leave the probe unexercised, which is a CONCERN (SPEC §7)."""


def _variant_command(row: Mapping[str, Any], floor: str) -> str:
    if row["outcome"] == "not-preserved":
        return "warning"
    if row.get("canary"):
        return "error"
    failing = row["reason"] in _FAILING_REASONS and _at_or_above(row["severity"], floor)
    return "error" if failing else "warning"


def _variant_message(row: Mapping[str, Any]) -> str:
    what = "fault not detected" if row["outcome"] == "undetected" else "variation not preserved"
    lines = [
        f"{what}: {row['reason']} ({row['relation']}, class {row['class']}, "
        f"family {row['family']}, severity {row['severity']})"
    ]
    lines.extend(
        f"expected {item['rule']}:{item['code']}:{item['scope']} -> {item['status']}"
        for item in row.get("expected") or ()
    )
    return "\n".join(lines)


def _located(place: Place | None) -> list[tuple[str, object]]:
    if place is None:
        return []
    file, line = place
    return [("file", file), ("line", line)] if line is not None else [("file", file)]


def write_audit_annotations(
    report: Mapping[str, Any],
    variant_places: Mapping[tuple[str, str], Place],
    rule_places: Mapping[str, Place],
    write: Callable[[str], object],
) -> None:
    """Undetected faults and non-preserved variations where they are written, then gaps.

    A fault is an ``error`` when the verdict FAILs on it — a missed canary, or a fault at or
    above the severity floor that was missed or whose trial was invalidated — else a
    ``warning``; a non-preserved variation is a ``warning``; a coverage gap is a ``warning``
    at or above the floor and a ``notice`` below it, at the rule's line in the contract.
    """
    floor = report["policy"]["severity_floor"]
    for row in report["variants"]:
        if row["outcome"] not in ("undetected", "not-preserved"):
            continue
        properties = _located(variant_places.get((row["case"], row["variant"])))
        properties.append(("title", f"{row['case']}/{row['variant']} {row['outcome']}"))
        write(workflow_command(_variant_command(row, floor), properties, _variant_message(row)))
    for gap in report["coverage_gaps"]:
        command = "warning" if _at_or_above(gap["severity"], floor) else "notice"
        properties = _located(rule_places.get(gap["rule"]))
        properties.append(("title", f"coverage gap: {gap['rule']}"))
        message = (
            f"no eligible probe targets rule {gap['rule']} (severity {gap['severity']}, "
            f"floor {floor})"
        )
        write(workflow_command(command, properties, message))
