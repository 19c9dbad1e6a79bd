"""Reading the strength scorer's files, for the commands that take them.

:mod:`textcontract.strength` scores values it is given and never opens a file; this
module reads them — scoring policies (YAML, or JSON by name), probe files, sealed trial
records, waivers files, preflight verdicts, and the artifacts and audit reports
``aggregate-strength`` and ``compare`` take — with the strict readers every input goes
through, and hands the values over.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from textcontract._json import loads_strict, read_json_file
from textcontract._yaml import load_yaml
from textcontract.fields import FieldReader
from textcontract.inputs import read_text_file
from textcontract.strength import (
    PreflightClaims,
    Probe,
    ScoringPolicy,
    SealedRecord,
    Waiver,
    parse_preflight_verdict,
    parse_probe,
    parse_record,
    parse_waivers,
    read_scoring_policy,
)

__all__ = [
    "read_json_input",
    "read_policy_file",
    "read_preflight_file",
    "read_probe_file",
    "read_record_file",
    "read_waivers_file",
]

FilePath = str | os.PathLike[str]


def _name(path: FilePath, display: str | None) -> str:
    return display if display is not None else os.fspath(path)


def read_policy_file(path: FilePath, display: str | None = None) -> ScoringPolicy:
    """A scoring policy file: JSON when its name ends in ``.json``, otherwise YAML.

    Problems in a YAML policy name their line and column.
    """
    name = _name(path, display)
    text = read_text_file(Path(path), name)
    if os.fspath(path).lower().endswith(".json"):
        return ScoringPolicy.from_json(loads_strict(text, name), name)
    value, positions = load_yaml(text, name)
    reader = FieldReader(name, positions)
    policy = read_scoring_policy(reader, value)
    reader.raise_if_problems()
    return policy


def read_probe_file(path: FilePath, display: str | None = None) -> Probe:
    """A probe file (JSON): ``{probe_id, class, severity, canary, clean_control}``."""
    name = _name(path, display)
    return parse_probe(read_json_file(os.fspath(path), name), name)


def read_record_file(path: FilePath, display: str | None = None) -> SealedRecord:
    """One sealed trial record (JSON)."""
    name = _name(path, display)
    return parse_record(read_json_file(os.fspath(path), name), name)


def read_json_input(path: FilePath, display: str | None = None) -> tuple[str, Any]:
    """``(display name, value)`` of an artifact or audit report, as aggregate and compare take."""
    name = _name(path, display)
    return name, read_json_file(os.fspath(path), name)


def read_waivers_file(path: FilePath, display: str | None = None) -> tuple[Waiver, ...]:
    """A waivers file (``score --waivers``): a mapping with a ``waivers:`` list.

    YAML (an audit.yaml is accepted as it is, its other keys ignored), or JSON when the
    name ends in ``.json``; problems in YAML name their line and column.
    """
    name = _name(path, display)
    text = read_text_file(Path(path), name)
    if os.fspath(path).lower().endswith(".json"):
        return parse_waivers(loads_strict(text, name), name)
    value, positions = load_yaml(text, name)
    return parse_waivers(value, name, FieldReader(name, positions))


def read_preflight_file(path: FilePath, display: str | None = None) -> PreflightClaims:
    """A preflight verdict (JSON), as ``textcontract preflight`` writes it."""
    name = _name(path, display)
    return parse_preflight_verdict(read_json_file(os.fspath(path), name), name)
