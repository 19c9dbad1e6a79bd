"""``textcontract lineage``: is a presented chain of contract revisions whole? (SPEC §17.7)

Each member declares ``lineage: {parent_digest, revision_count}``; its own digest is its
contract digest (lineage left out). The chain is checked for repeated digests, for gaps
(no root, several roots, a parent not presented, a revision that is not its parent's
successor, two revisions of one parent with one count), for a length that matches the
highest revision, and optionally for a cap on remediation rounds.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from textcontract.contract import ParsedContract, parse_contract_file
from textcontract.errors import InputError, Location, Problem

__all__ = [
    "LINEAGE_VERSION",
    "Finding",
    "LineageCode",
    "Member",
    "check_lineage",
    "lineage_members",
    "member_of",
]

LINEAGE_VERSION = 1


class LineageCode(StrEnum):
    """Finding codes, in the order findings are listed."""

    DUPLICATE_DIGEST = "lineage-duplicate-digest"
    NO_ROOT = "lineage-no-root"
    MULTIPLE_ROOTS = "lineage-multiple-roots"
    PARENT_ABSENT = "lineage-parent-absent"
    REVISION_NOT_SUCCESSOR = "lineage-revision-not-successor"
    REVISION_CONFLICT = "lineage-revision-conflict"
    LENGTH_INCONSISTENT = "lineage-length-inconsistent"
    REMEDIATION_CAP_EXCEEDED = "lineage-remediation-cap-exceeded"


_GAPS = frozenset(
    {
        LineageCode.NO_ROOT,
        LineageCode.MULTIPLE_ROOTS,
        LineageCode.PARENT_ABSENT,
        LineageCode.REVISION_NOT_SUCCESSOR,
        LineageCode.REVISION_CONFLICT,
    }
)


@dataclass(frozen=True)
class Member:
    """One presented revision: the path as given, its digest and its declared lineage."""

    path: str
    digest: str
    parent_digest: str | None
    revision_count: int

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "digest": self.digest,
            "parent_digest": self.parent_digest,
            "revision_count": self.revision_count,
        }


@dataclass(frozen=True)
class Finding:
    code: LineageCode
    subject: str
    """The member's path as given."""
    detail: str

    def to_json(self) -> dict[str, str]:
        return {"code": self.code.value, "subject": self.subject, "detail": self.detail}


def member_of(path: str, parsed: ParsedContract) -> Member | None:
    """A parsed contract as a chain member; ``None`` when it declares no lineage."""
    if parsed.lineage is None:
        return None
    return Member(path, parsed.digest, parsed.lineage.parent_digest, parsed.lineage.revision_count)


def lineage_members(paths: Sequence[str | os.PathLike[str]]) -> list[Member]:
    """Load every contract; one :class:`InputError` lists every unreadable one and every
    member without ``lineage:``."""
    problems: list[Problem] = []
    members = []
    for path in paths:
        shown = os.fspath(path)
        try:
            parsed = parse_contract_file(path, shown)
        except InputError as error:
            problems.extend(error.problems)
            continue
        member = member_of(shown, parsed)
        if member is None:
            problems.append(
                Problem(
                    "the contract declares no lineage: (every member of a chain needs one)",
                    Location(shown, key="lineage"),
                )
            )
            continue
        members.append(member)
    if problems:
        raise InputError(problems)
    return members


def _duplicates(members: Sequence[Member]) -> list[Finding]:
    first: dict[str, Member] = {}
    found = []
    for member in members:
        earlier = first.setdefault(member.digest, member)
        if earlier is not member:
            found.append(
                Finding(
                    LineageCode.DUPLICATE_DIGEST,
                    member.path,
                    f"same digest as {earlier.path} ({member.digest})",
                )
            )
    return found


def _roots(members: Sequence[Member]) -> list[Finding]:
    seen: set[str] = set()
    roots = []
    for member in members:  # a root presented twice is one root (and a duplicate digest)
        if member.revision_count == 0 and member.digest not in seen:
            seen.add(member.digest)
            roots.append(member)
    if not roots:
        lowest = members[0]
        return [
            Finding(
                LineageCode.NO_ROOT,
                lowest.path,
                f"no member has revision_count 0 (the lowest is {lowest.revision_count})",
            )
        ]
    if len(roots) == 1:
        return []
    return [
        Finding(
            LineageCode.MULTIPLE_ROOTS, root.path, f"{len(roots)} members have revision_count 0"
        )
        for root in roots
    ]


def _parents(members: Sequence[Member]) -> list[Finding]:
    by_digest = {member.digest: member for member in members}
    found = []
    for member in members:
        if member.parent_digest is None:
            continue
        parent = by_digest.get(member.parent_digest)
        if parent is None:
            found.append(
                Finding(
                    LineageCode.PARENT_ABSENT,
                    member.path,
                    f"its parent {member.parent_digest} is not among the members",
                )
            )
        elif member.revision_count != parent.revision_count + 1:
            found.append(
                Finding(
                    LineageCode.REVISION_NOT_SUCCESSOR,
                    member.path,
                    f"revision_count {member.revision_count}, but its parent {parent.path} "
                    f"has {parent.revision_count}",
                )
            )
    return found


def _conflicts(members: Sequence[Member]) -> list[Finding]:
    groups: dict[tuple[str, int], list[Member]] = {}
    for member in members:
        if member.parent_digest is not None:
            groups.setdefault((member.parent_digest, member.revision_count), []).append(member)
    found = []
    for (_, count), group in groups.items():
        if len({member.digest for member in group}) < 2:
            continue
        for member in group:
            others = ", ".join(o.path for o in group if o.digest != member.digest)
            found.append(
                Finding(
                    LineageCode.REVISION_CONFLICT,
                    member.path,
                    f"revises the same parent as {others}, also with revision_count {count}",
                )
            )
    return found


def _length(members: Sequence[Member], max_revisions: int | None) -> list[Finding]:
    head = members[-1]
    highest = head.revision_count
    found = []
    if len(members) != highest + 1:
        found.append(
            Finding(
                LineageCode.LENGTH_INCONSISTENT,
                head.path,
                f"{len(members)} members, but the highest revision_count {highest} "
                f"makes a chain of {highest + 1}",
            )
        )
    if max_revisions is not None and highest > max_revisions:
        found.append(
            Finding(
                LineageCode.REMEDIATION_CAP_EXCEEDED,
                head.path,
                f"revision_count {highest} is above --max-revisions {max_revisions}",
            )
        )
    return found


def check_lineage(members: Sequence[Member], max_revisions: int | None = None) -> dict[str, Any]:
    """The ``lineage`` report of a presented chain (members in any order, at least one)."""
    if not members:
        raise InputError.at("no contracts given (lineage needs at least one)")
    ordered = sorted(members, key=lambda member: (member.revision_count, member.digest))
    findings = (
        _duplicates(ordered)
        + _roots(ordered)
        + _parents(ordered)
        + _conflicts(ordered)
        + _length(ordered, max_revisions)
    )
    order = list(LineageCode)
    findings.sort(key=lambda finding: (order.index(finding.code), finding.subject))
    codes = {finding.code for finding in findings}
    checks = {
        "length_consistent": LineageCode.LENGTH_INCONSISTENT not in codes,
        "no_repeated_digest": LineageCode.DUPLICATE_DIGEST not in codes,
        "no_gap": not codes & _GAPS,
    }
    return {
        "lineage_version": LINEAGE_VERSION,
        "members": [member.to_json() for member in ordered],
        "checks": checks,
        "findings": [finding.to_json() for finding in findings],
        "passed": all(checks.values()) and not findings,
    }
