"""Findings across runs: a finding's fingerprint, and a baseline of earlier findings (SPEC §12,
§21).

A *finding* is a check that is not satisfied, as report JSON holds it. Its fingerprint is the
digest of its rule id, code, scope and matched text — never a line number, so it does not move
when the text around it moves. A :class:`Baseline` holds the fingerprints an earlier run
found, per source, with how many times each occurred; :meth:`Baseline.judge` marks the findings
of a new report ``unchanged`` (the baseline holds them) or ``new``.

Counting: a baseline that holds a fingerprint *n* times for a source covers the first *n*
findings with that fingerprint in the new report, in report order; any further one is
``new``. So a finding that appears a second time is reported, and one that disappeared
leaves nothing behind.
"""

from __future__ import annotations

import hashlib
import os
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import PurePath
from typing import Any

from textcontract.canonical import canonical_json

__all__ = [
    "NEW",
    "UNCHANGED",
    "Baseline",
    "fails_with_baseline",
    "finding_fingerprint",
    "matched_text",
    "rejects",
    "relative_path",
]

NEW = "new"
UNCHANGED = "unchanged"


def matched_text(check: Mapping[str, Any]) -> str:
    """What the first evidence item matched: a pattern match, a link, or a fact key.

    A pattern match counts as its ``normalized`` text (SPEC §21), the ``match`` of reports
    written before 0.3: fingerprints stay those of earlier runs, and a change of case or of
    compatibility form alone (``Friday`` → ``FRIDAY``, ``ﬁ`` → ``fi``) keeps a finding's.
    """
    for item in check.get("evidence") or ():
        if not isinstance(item, Mapping):
            continue
        for name in ("normalized", "match", "link", "key", "host"):
            value = item.get(name)
            if isinstance(value, str):
                return value
    return ""


def finding_fingerprint(check: Mapping[str, Any]) -> str:
    """The same finding on another run has the same print: rule id, code, scope, match."""
    key = [check["rule_id"], check["code"], check["scope"], matched_text(check)]
    return hashlib.sha256(canonical_json(key)).hexdigest()


def relative_path(source: str, base: str) -> str:
    """``source`` as a ``/``-separated path relative to ``base`` (the current folder)."""
    path = os.path.relpath(source, base) if os.path.isabs(source) else source
    posix = PurePath(path).as_posix()
    while posix.startswith("./"):
        posix = posix[2:]
    return posix


def rejects(check: Mapping[str, Any], policy: Mapping[str, Any]) -> bool:
    """Whether a check (report JSON) makes its document rejected under the policy (SPEC §3)."""
    status = check.get("status")
    if status == "error":
        return True
    if check.get("enforcement") == "advisory":
        return False
    if status == "violated":
        return check.get("kind") == "invariant" or bool(policy.get("block_heuristics", True))
    if status == "undetermined":
        return bool(policy.get("block_undetermined", True))
    return False


class Baseline:
    """The findings of an earlier run: how many times each fingerprint occurred, per source.

    Sources are compared as :func:`relative_path` gives them, relative to ``base`` (the
    folder the run is made from), so ``./docs/a.md`` and ``docs/a.md`` are one source.
    """

    def __init__(self, base: str) -> None:
        self._base = base
        self._counts: dict[str, Counter[str]] = {}
        self.findings = 0

    def source_key(self, source: str) -> str:
        return relative_path(source, self._base)

    def add(self, source: str, fingerprint: str) -> None:
        """One finding of the earlier run."""
        self._counts.setdefault(self.source_key(source), Counter())[fingerprint] += 1
        self.findings += 1

    def judge(self, source: str | None, checks: Iterable[Mapping[str, Any]]) -> list[str | None]:
        """Per check: ``None`` when satisfied, else ``unchanged`` or ``new`` (see the module).

        Each finding of the baseline covers one finding of the new run: judging a source
        twice (a file given twice) does not cover more findings than the baseline holds.
        """
        left = self._counts.get(self.source_key(source), Counter()) if source else Counter()
        states: list[str | None] = []
        for check in checks:
            if check.get("status") == "satisfied":
                states.append(None)
                continue
            fingerprint = finding_fingerprint(check)
            if left[fingerprint] > 0:
                left[fingerprint] -= 1
                states.append(UNCHANGED)
            else:
                states.append(NEW)
        return states

    def mark(self, report: Mapping[str, Any]) -> dict[str, Any]:
        """The report (JSON) with each finding's ``baseline`` state, and after ``counts`` a
        ``baseline`` object counting ``new`` and ``unchanged`` findings."""
        checks = list(report.get("checks") or ())
        states = self.judge(report.get("source"), checks)
        marked_checks = [
            check if state is None else {**check, "baseline": state}
            for check, state in zip(checks, states, strict=True)
        ]
        tally = {NEW: states.count(NEW), UNCHANGED: states.count(UNCHANGED)}
        marked: dict[str, Any] = {}
        for key, value in report.items():
            marked[key] = marked_checks if key == "checks" else value
            if key == "counts":
                marked["baseline"] = tally
        return marked


def fails_with_baseline(report: Mapping[str, Any]) -> bool:
    """Whether a report marked by :meth:`Baseline.mark` fails a run: a ``new`` finding that
    rejects the document, or no checks at all (the contract produced nothing to compare)."""
    checks = report.get("checks") or ()
    if not checks:
        return not report.get("accepted", False)
    policy = report.get("policy") or {}
    return any(check.get("baseline") == NEW and rejects(check, policy) for check in checks)
