"""The audit report: as a JSON-ready dict, or written out as JSON text piece by piece.

:func:`write_report_json` writes the very bytes ``json.dumps(report_json(...),
ensure_ascii=False, indent=2) + "\\n"`` would, without building the report: the
head and tail come from a report whose three long lists are empty, and each list
item is rendered on its own. Rows and probe entries that differ only in their ids
(most of them: variants share labels and results) are rendered once, as a
template the ids are put into.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Iterable, Iterator
from itertools import islice
from typing import Any

from textcontract._version import ENGINE_NAME, __version__
from textcontract.audit._findings import ExcludedRow, Findings, VariantRow
from textcontract.audit._records import Counted

__all__ = ["AUDIT_VERSION", "report_json", "write_report_json"]

AUDIT_VERSION = 1

_BLOCK = 256
_TEMPLATE_LIMIT = 4096
"""Templates kept per list; real corpora repeat a few, this bounds the rest."""


def _head(findings: Findings) -> dict[str, Any]:
    """The report with empty ``strength.probes``, ``variants`` and ``excluded``."""
    contract = findings.contract
    detection, preservation = findings.detection, findings.preservation
    return {
        "audit_version": AUDIT_VERSION,
        "engine": {"name": ENGINE_NAME, "version": __version__},
        "contract": {"id": contract.id, "version": contract.version, "digest": contract.digest},
        "corpus": {"digest": findings.corpus_digest, "fixture_digest": findings.fixture_digest},
        "policy": findings.policy.report_json(),
        "detection": {
            "detected": detection.count,
            "eligible": detection.eligible,
            "score": detection.value,
            "interval95": detection.interval_json(),
        },
        "preservation": {
            "preserved": preservation.count,
            "eligible": preservation.eligible,
            "rate": preservation.value,
            "interval95": preservation.interval_json(),
        },
        "canaries": {"caught": findings.canaries[0], "total": findings.canaries[1]},
        "strength": {
            **findings.vector.to_json(),
            "comparability_key": findings.comparability_key,
            "scoring_version": findings.inputs.scoring_version,
            "scoring_version_inputs": findings.inputs.to_json(),
            "probes": [],
        },
        "verdict": findings.verdict.to_json(),
        "coverage_gaps": [gap.to_json() for gap in findings.gaps],
        "families": findings.families,
        "variants": [],
        "excluded": [],
    }


def _probes(findings: Findings) -> Iterable[dict[str, Any]]:
    for probe_id, labels, counted in findings.admitted():
        yield findings.tally.summary(labels, counted).entry_json(probe_id)


def report_json(findings: Findings) -> dict[str, Any]:
    """The report as a JSON-ready dict, keys in the order SPEC §6 shows."""
    report = _head(findings)
    report["strength"]["probes"] = list(_probes(findings))
    report["variants"] = [row.to_json() for row in findings.rows()]
    report["excluded"] = [row.to_json() for row in findings.excluded()]
    return report


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2, allow_nan=False)


def _indented(value: Any, depth: int) -> str:
    """``value`` as an item of a list whose items start ``depth`` spaces in."""
    return _dumps(value).replace("\n", "\n" + " " * depth)


class _Templates:
    """Rendered items with holes for ids, by what the items have in common."""

    def __init__(self) -> None:
        self._found: dict[Hashable, tuple[str, str, str]] = {}

    def get(self, key: Hashable) -> tuple[str, str, str] | None:
        return self._found.get(key)

    def put(self, key: Hashable, template: tuple[str, str, str]) -> tuple[str, str, str]:
        if len(self._found) >= _TEMPLATE_LIMIT:
            self._found.clear()
        self._found[key] = template
        return template


def _split(text: str, hole: str, start: int = 0) -> tuple[str, str]:
    """``text`` cut around the first ``hole`` at or after ``start`` (which must be there)."""
    at = text.index(hole, start)
    return text[:at], text[at + len(hole) :]


def _holes(text: str) -> tuple[str, str, str]:
    """An item whose first two values are ``""`` cut around them."""
    before, after = _split(text, '""')
    middle, rest = _split(after, '""')
    return before, middle, rest


def _encoded(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


def _row_items(findings: Findings, depth: int) -> Iterable[str]:
    """Variant rows: ``case`` and ``variant`` are their first two keys."""
    templates = _Templates()
    for case in findings.cases:
        case_text = _encoded(case.case)
        for record in case.variants:
            labels, result = record.labels, record.result
            if not isinstance(result, Counted):
                continue
            found = templates.get((labels, result))
            if found is None:
                row = VariantRow.of("", "", labels, result).to_json()
                found = templates.put((labels, result), _holes(_indented(row, depth)))
            before, middle, rest = found
            yield before + case_text + middle + _encoded(record.variant) + rest


def _excluded_items(findings: Findings, depth: int) -> Iterable[str]:
    """Excluded rows: ``case`` and ``variant``, then the reason."""
    templates = _Templates()
    for row in findings.excluded():
        found = templates.get(row.reason)
        if found is None:
            blank = ExcludedRow("", "", "", row.reason).to_json()
            found = templates.put(row.reason, _holes(_indented(blank, depth)))
        before, middle, rest = found
        yield before + _encoded(row.case) + middle + _encoded(row.variant) + rest


def _probe_items(findings: Findings, depth: int) -> Iterable[str]:
    """Probe entries: ``probe_id`` first, and again first in ``reduced``, the last key."""
    templates = _Templates()
    inner = '"reduced": {\n' + " " * (depth + 4) + '"probe_id": '
    for probe_id, labels, counted in findings.admitted():
        found = templates.get((labels, counted))
        if found is None:
            entry = findings.tally.summary(labels, counted).entry_json("")
            before, after = _split(_indented(entry, depth), '""')
            middle, rest = _split(after, '""', after.rindex(inner) + len(inner))
            found = templates.put((labels, counted), (before, middle, rest))
        before, middle, rest = found
        encoded = _encoded(probe_id)
        yield before + encoded + middle + encoded + rest


def _write_list(write: Callable[[str], object], items: Iterable[str], depth: int) -> None:
    """A JSON list as ``json.dumps(indent=2)`` lays it out, items ``depth`` spaces in."""
    separator = ",\n" + " " * depth
    opened = False
    for block in _blocks(items):
        write(("[\n" + " " * depth if not opened else separator) + separator.join(block))
        opened = True
    write("\n" + " " * (depth - 2) + "]" if opened else "[]")


def _blocks(items: Iterable[str]) -> Iterator[list[str]]:
    """Items a few hundred at a time: one write per block instead of one per item."""
    iterator = iter(items)
    while block := list(islice(iterator, _BLOCK)):
        yield block


def write_report_json(findings: Findings, write: Callable[[str], object]) -> None:
    """Write the report as ``audit --format json`` prints it, final newline included."""
    text = _dumps(_head(findings)) + "\n"
    probes_at = '"probes": []\n  },\n  "verdict": '
    head, rest = _split(text, probes_at)
    tail = '  "variants": [],\n  "excluded": []\n}\n'
    if not rest.endswith(tail):
        raise AssertionError("the report no longer ends with variants and excluded")
    middle = rest[: -len(tail)]
    write(head + '"probes": ')
    _write_list(write, _probe_items(findings, 6), 6)
    write("\n  },\n  " + '"verdict": ' + middle + '  "variants": ')
    _write_list(write, _row_items(findings, 4), 4)
    write(',\n  "excluded": ')
    _write_list(write, _excluded_items(findings, 4), 4)
    write("\n}\n")
