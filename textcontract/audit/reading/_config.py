"""audit.yaml: the contract to audit, the scoring policy, the thresholds, the mode and waivers."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textcontract._files import path_problem
from textcontract._yaml import Positions, load_yaml
from textcontract.contract import CONTRACT_FILENAME, locate_contract
from textcontract.errors import InputError, Location, Problem
from textcontract.fields import MISSING, FieldReader
from textcontract.inputs import read_text_file
from textcontract.strength import (
    CONTRACT_SCORING,
    MODES,
    ScoringPolicy,
    Waiver,
    read_scoring_policy,
    read_waivers,
)

__all__ = ["AUDIT_FILE", "AuditConfig", "Thresholds", "join_display", "read_config", "read_mode"]

AUDIT_FILE = "audit.yaml"

_CONFIG_KEYS = ("contract", "policy", "thresholds", "mode", "waivers", "description")
_THRESHOLD_KEYS = ("detection", "preservation")


def join_display(folder: str, relative: str) -> str:
    """How a file inside the corpus is named in messages: under DIR as the user gave it."""
    return os.path.normpath(os.path.join(folder, relative))


@dataclass(frozen=True)
class Thresholds:
    """Minimum figures; ``None`` declares no threshold."""

    detection: float | None = None
    preservation: float | None = None

    def overridden(self, detection: float | None, preservation: float | None) -> Thresholds:
        """Command-line values win over audit.yaml's."""
        return Thresholds(
            self.detection if detection is None else detection,
            self.preservation if preservation is None else preservation,
        )


@dataclass(frozen=True)
class AuditConfig:
    """What audit.yaml declares (``contract`` as written, relative to audit.yaml)."""

    file: str
    contract: str | None
    policy: ScoringPolicy
    thresholds: Thresholds
    mode: str = CONTRACT_SCORING
    waivers: tuple[Waiver, ...] = ()
    """Declared waivers (SPEC §17.4); an empty list declares none."""


def _thresholds(reader: FieldReader, value: Any) -> Thresholds:
    fields = reader.mapping(value, ("thresholds",), optional=_THRESHOLD_KEYS)
    detection, preservation = (
        reader.fraction(fields.get(name, MISSING), ("thresholds", name), None)
        for name in _THRESHOLD_KEYS
    )
    return Thresholds(detection, preservation)


def read_mode(reader: FieldReader, value: Any, path: tuple[str, ...] = ("mode",)) -> str:
    """``contract-scoring`` (the default) or ``production``."""
    mode = reader.string(value, path, CONTRACT_SCORING)
    if mode not in MODES:
        reader.problem(path, f"{mode!r} is not one of {', '.join(MODES)}")
        return CONTRACT_SCORING
    return mode


def _contract_location(
    root: Path,
    display: str,
    override: Path | None,
    reference: str | None,
    shown: str,
    problems: list[Problem],
) -> tuple[Path | None, str]:
    """``--contract``, else audit.yaml's ``contract:``, else the nearest textcontract.yaml."""
    if override is None and reference is not None:
        if path_problem(reference) is not None:
            return None, ""  # read_config reported it where audit.yaml says it
        return root / reference, join_display(display, reference)
    found = locate_contract(override)
    if found is None:
        problems.append(
            Problem(
                f"no contract: {AUDIT_FILE} has no 'contract:', no --contract was given, "
                f"and there is no {CONTRACT_FILENAME} in the current folder or its parents",
                Location(shown),
            )
        )
        return None, ""
    return found


def read_config(
    root: Path, display: str, override: Path | None, problems: list[Problem]
) -> tuple[AuditConfig, Path | None, str]:
    """audit.yaml of the corpus in ``root``, and where its contract is (path, display name).

    Problems are appended to ``problems``; usable defaults are returned regardless.
    """
    path = root / AUDIT_FILE
    shown = join_display(display, AUDIT_FILE)
    policy = ScoringPolicy()
    thresholds = Thresholds()
    reference: str | None = None
    mode = CONTRACT_SCORING
    waivers: tuple[Waiver, ...] = ()
    if not path.is_file():
        problems.append(Problem(f"{AUDIT_FILE} is required in the corpus folder", Location(shown)))
    else:
        try:
            data, positions = load_yaml(read_text_file(path, shown), shown)
        except InputError as error:
            problems.extend(error.problems)
            data, positions = {}, Positions(shown)
            if override is None:  # its contract is unknown, not missing: say nothing more
                return AuditConfig(shown, None, policy, thresholds), None, ""
        reader = FieldReader(shown, positions)
        fields = reader.mapping({} if data is None else data, (), optional=_CONFIG_KEYS)
        reference = reader.string(fields.get("contract", MISSING), ("contract",), None, blank=False)
        unusable = path_problem(reference) if reference is not None else None
        if unusable is not None:
            reader.problem(("contract",), unusable)
        if "policy" in fields:
            policy = read_scoring_policy(reader, fields["policy"], ("policy",))
        if "thresholds" in fields:
            thresholds = _thresholds(reader, fields["thresholds"])
        mode = read_mode(reader, fields.get("mode", MISSING))
        if "waivers" in fields:
            waivers = read_waivers(reader, fields["waivers"], ("waivers",))
        reader.string(fields.get("description", MISSING), ("description",), blank=False)
        problems.extend(reader.problems)
    config = AuditConfig(shown, reference, policy, thresholds, mode, waivers)
    contract_path, contract_display = _contract_location(
        root, display, override, reference, shown, problems
    )
    return config, contract_path, contract_display
