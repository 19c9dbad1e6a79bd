"""``check --baseline FILE``: the findings of an earlier ``check`` run (SPEC §21).

FILE is what ``check`` wrote: ``--format json`` (one report, or an array of them),
``--format jsonl`` (one report per line) or ``--format sarif`` (its ``textcontract`` runs).
What a baseline keeps of it is each finding's source and fingerprint (SPEC §12): from a
report, each check that is not satisfied, under the report's ``source``; from SARIF, each
result's ``textcontract/v1`` partial fingerprint, under its ``source`` property (a batch
case's id) or else its artifact URI.

A file that cannot be read, is not JSON or JSON Lines, or holds something else than check
reports or a textcontract SARIF log is an input error: one line naming the file and why.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any
from urllib.parse import unquote

from textcontract._files import read_input_text
from textcontract._json import loads_strict
from textcontract.errors import InputError
from textcontract.model import Baseline, finding_fingerprint

__all__ = ["read_baseline"]

_SARIF_FINGERPRINT = "textcontract/v1"
_FORMATS = "a check report written by --format json, jsonl or sarif"


class _Foreign(Exception):
    """What the file holds is not a baseline; the message says why."""


def read_baseline(path: str, base: str | None = None) -> Baseline:
    """The findings ``path`` holds, sources taken relative to ``base`` (default: the current
    folder); every failure is an :class:`InputError` naming ``path``."""
    text = read_input_text(path, path)
    baseline = Baseline(os.getcwd() if base is None else base)
    try:
        _fill(baseline, text)
    except _Foreign as why:
        raise InputError.at(f"not a baseline ({_FORMATS}): {why}", path) from None
    return baseline


_NOT_JSON = object()


def _parsed(text: str) -> Any:
    try:
        return loads_strict(text)
    except InputError:
        return _NOT_JSON


def _fill(baseline: Baseline, text: str) -> None:
    """One JSON text (a report, an array of reports, a SARIF log), else JSON Lines, read a
    line at a time: only fingerprints are kept, never the reports."""
    whole = _parsed(text)
    if whole is not _NOT_JSON:
        if isinstance(whole, Mapping) and "runs" in whole:
            _fill_sarif(baseline, whole)
            return
        for index, value in enumerate(whole if isinstance(whole, list) else [whole]):
            _fill_report(baseline, value, index)
        return
    index = 0
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        value = _parsed(line)
        if value is _NOT_JSON:
            raise _Foreign(f"line {number} is not JSON")
        _fill_report(baseline, value, index)
        index += 1
    if index == 0:
        raise _Foreign("the file is empty")


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise _Foreign(f"{what} is not a string")
    return value


def _fill_report(baseline: Baseline, report: Any, index: int) -> None:
    where = f"report {index + 1}"
    if not isinstance(report, Mapping) or report.get("report_version") != 1:
        raise _Foreign(f"{where} is not a check report (no report_version 1)")
    checks = report.get("checks")
    if not isinstance(checks, list):
        raise _Foreign(f"{where} has no list of checks")
    source = report.get("source")
    if source is not None:
        _text(source, f"{where}'s source")
    for number, check in enumerate(checks, 1):
        what = f"{where}, check {number}"
        if not isinstance(check, Mapping):
            raise _Foreign(f"{what} is not an object")
        for key in ("rule_id", "code", "scope", "status"):
            _text(check.get(key), f"{what}'s {key}")
        if check["status"] != "satisfied" and source is not None:
            baseline.add(source, finding_fingerprint(check))


def _fill_sarif(baseline: Baseline, log: Mapping[str, Any]) -> None:
    runs = log.get("runs")
    if log.get("version") != "2.1.0" or not isinstance(runs, list):
        raise _Foreign("a SARIF log of another version")
    ours = [run for run in runs if isinstance(run, Mapping) and _tool(run) == "textcontract"]
    if not ours:
        raise _Foreign("the SARIF log has no run of textcontract")
    for number, run in enumerate(ours, 1):
        results = run.get("results")
        if not isinstance(results, list):
            raise _Foreign(f"run {number} has no list of results")
        for index, result in enumerate(results, 1):
            _add_result(baseline, result, f"run {number}, result {index}")


def _tool(run: Mapping[str, Any]) -> object:
    tool = run.get("tool")
    driver = tool.get("driver") if isinstance(tool, Mapping) else None
    return driver.get("name") if isinstance(driver, Mapping) else None


def _add_result(baseline: Baseline, result: Any, what: str) -> None:
    if not isinstance(result, Mapping):
        raise _Foreign(f"{what} is not an object")
    prints = result.get("partialFingerprints")
    if not isinstance(prints, Mapping):
        raise _Foreign(f"{what} has no partialFingerprints")
    fingerprint = _text(prints.get(_SARIF_FINGERPRINT), f"{what}'s {_SARIF_FINGERPRINT}")
    properties = result.get("properties")
    source = properties.get("source") if isinstance(properties, Mapping) else None
    if source is None:
        source = unquote(_text(_artifact_uri(result), f"{what}'s artifact URI"))
    baseline.add(_text(source, f"{what}'s source"), fingerprint)


def _artifact_uri(result: Mapping[str, Any]) -> object:
    try:
        return result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    except (KeyError, IndexError, TypeError):
        return None
