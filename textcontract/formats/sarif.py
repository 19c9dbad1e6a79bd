"""``check --format sarif``: one SARIF 2.1.0 log, one run per contract (SPEC §12).

The log is built as plain JSON and written by the one JSON writer; each run's ``results``
is a generator, so documents are rendered as they are checked. Every result is a check
that is not satisfied, with one physical location: the artifact is the document's path
relative to the current folder (a relative URI, ``/``-separated, percent-encoded) and the
region is the evidence's place in the file (SPEC §10), else its surface's first line.

A finding whose document is not its artifact (a batch case, whose findings point at the
batch file) names its source in ``properties.source``, so that a later ``check --baseline``
tells the cases of one batch apart. With ``--baseline`` each result has SARIF's
``baselineState``, ``new`` or ``unchanged`` (SPEC §21).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from textcontract._version import DOCUMENTATION_URL
from textcontract.formats.check_findings import (
    CheckedDocument,
    Finding,
    Region,
    RuleInfo,
    findings,
    relative_path,
)
from textcontract.model import finding_fingerprint

__all__ = [
    "FINGERPRINT",
    "INFORMATION_URI",
    "SARIF_SCHEMA",
    "SarifResults",
    "SarifRun",
    "artifact_uri",
    "fingerprint",
    "sarif_log",
]

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = DOCUMENTATION_URL
"""``tool.driver.informationUri``: the project's documentation (see ``_version``)."""
FINGERPRINT = "textcontract/v1"


@dataclass(frozen=True)
class SarifRun:
    """The documents checked against one contract (``contract`` as reports show it), or the
    results rendered from them earlier (:class:`SarifResults`), in their order."""

    contract: Mapping[str, Any]
    rules: Sequence[RuleInfo]
    documents: Iterable[CheckedDocument] = ()
    results: Iterable[dict[str, Any]] | None = None


def artifact_uri(source: str, base: str) -> str:
    """``source`` relative to ``base`` (the current folder), as a relative URI reference."""
    return quote(relative_path(source, base), safe="/")


def fingerprint(check: Mapping[str, Any]) -> str:
    """The same finding on another run has the same print: rule id, code, scope, match."""
    return finding_fingerprint(check)


def _region(region: Region) -> dict[str, int]:
    out = {"startLine": region.start_line}
    if region.start_column is not None:
        out["startColumn"] = region.start_column
    if region.end_line is not None:
        out["endLine"] = region.end_line
    if region.end_column is not None:
        out["endColumn"] = region.end_column
    return out


def _message(check: Mapping[str, Any]) -> str:
    message = str(check.get("message") or "")
    return message or f"{check['code']} at {check['scope']}"


def _result(
    finding: Finding, uri: str, index: Mapping[str, int], source: str | None
) -> dict[str, Any]:
    check = finding.check
    result: dict[str, Any] = {"ruleId": finding.rule_id}
    if finding.rule_id in index:
        result["ruleIndex"] = index[finding.rule_id]
    result["level"] = finding.level
    result["message"] = {"text": _message(check)}
    result["locations"] = [
        {
            "physicalLocation": {
                "artifactLocation": {"uri": uri},
                "region": _region(finding.region),
            }
        }
    ]
    result["partialFingerprints"] = {FINGERPRINT: fingerprint(check)}
    state = check.get("baseline")
    if isinstance(state, str):
        result["baselineState"] = state  # SPEC §21: "new" or "unchanged", as SARIF names them
    result["properties"] = {
        "status": check["status"],
        "code": check["code"],
        "scope": check["scope"],
    }
    if source is not None:
        result["properties"]["source"] = source
    return result


class SarifResults:
    """The results of one document after another, as a run of the log holds them."""

    def __init__(self, rules: Sequence[RuleInfo], base: str) -> None:
        self._index = {rule.id: position for position, rule in enumerate(rules)}
        self._base = base

    def of(self, document: CheckedDocument) -> Iterator[dict[str, Any]]:
        uri = artifact_uri(document.path, self._base)
        # a batch case's findings point at the batch file: its id is kept for baselines
        source = document.source if document.path != document.source else None
        for finding in findings(document):
            yield _result(finding, uri, self._index, source)


def _results(run: SarifRun, base: str) -> Iterator[dict[str, Any]]:
    if run.results is not None:
        yield from run.results
        return
    results = SarifResults(run.rules, base)
    for document in run.documents:
        yield from results.of(document)


def _descriptor(rule: RuleInfo) -> dict[str, Any]:
    level = "warning" if rule.enforcement == "advisory" else "error"
    return {
        "id": rule.id,
        "shortDescription": {"text": rule.description or rule.type},
        "defaultConfiguration": {"level": level},
        "properties": {
            "type": rule.type,
            "kind": rule.kind,
            "severity": rule.severity,
            "enforcement": rule.enforcement,
        },
    }


def _run(run: SarifRun, tool_version: str, base: str) -> dict[str, Any]:
    return {
        "tool": {
            "driver": {
                "name": "textcontract",
                "version": tool_version,
                "informationUri": INFORMATION_URI,
                "rules": [_descriptor(rule) for rule in run.rules],
            }
        },
        "automationDetails": {"id": f"textcontract/{run.contract['id']}/"},
        "columnKind": "unicodeCodePoints",
        "results": _results(run, base),
    }


def sarif_log(runs: Sequence[SarifRun], tool_version: str, base: str) -> dict[str, Any]:
    """The log as JSON, its ``results`` as generators (write it with ``write_pretty``).

    ``base`` is the folder artifact paths are made relative to (the current folder).
    """
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [_run(run, tool_version, base) for run in runs],
    }
