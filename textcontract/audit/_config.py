"""audit.yaml: the contract to audit, the scoring policy and the thresholds."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textcontract._files import path_problem
from textcontract._yaml import Positions, load_yaml
from textcontract.audit._fields import FieldReader
from textcontract.contract import CONTRACT_FILENAME, find_contract
from textcontract.errors import InputError, Location, Problem
from textcontract.inputs import read_text_file
from textcontract.strength import ScoringPolicy

__all__ = ["AUDIT_FILE", "AuditConfig", "Thresholds", "join_display", "read_config"]

AUDIT_FILE = "audit.yaml"

_CONFIG_KEYS = ("contract", "policy", "thresholds", "description")
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


def _thresholds(reader: FieldReader, value: Any) -> Thresholds:
    fields = reader.mapping(value, ("thresholds",), _THRESHOLD_KEYS) or {}
    found: dict[str, float | None] = {}
    for name in _THRESHOLD_KEYS:
        if name in fields:
            found[name] = reader.fraction(fields[name], ("thresholds", name))
    return Thresholds(found.get("detection"), found.get("preservation"))


def _contract_location(
    root: Path,
    display: str,
    override: Path | None,
    reference: str | None,
    shown: str,
    problems: list[Problem],
) -> tuple[Path | None, str]:
    """``--contract``, else audit.yaml's ``contract:``, else the nearest textcontract.yaml."""
    if override is not None:
        return override, str(override)
    if reference is not None:
        if path_problem(reference) is not None:
            return None, ""  # read_config reported it where audit.yaml says it
        return root / reference, join_display(display, reference)
    found = find_contract(Path.cwd())
    if found is None:
        problems.append(
            Problem(
                f"no contract: {AUDIT_FILE} has no 'contract:', no --contract was given, "
                f"and there is no {CONTRACT_FILENAME} in the current folder or its parents",
                Location(shown),
            )
        )
        return None, ""
    cwd = Path.cwd().resolve()
    return found, str(found.relative_to(cwd)) if found.is_relative_to(cwd) else str(found)


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
        fields = reader.mapping({} if data is None else data, (), _CONFIG_KEYS) or {}
        if "contract" in fields:
            reference = reader.string(fields["contract"], ("contract",))
            unusable = path_problem(reference) if reference is not None else None
            if unusable is not None:
                reader.problem(("contract",), unusable)
        if "policy" in fields:
            try:
                policy = ScoringPolicy.from_json(fields["policy"], shown, positions, ("policy",))
            except InputError as error:
                reader.problems.extend(error.problems)
        if "thresholds" in fields:
            thresholds = _thresholds(reader, fields["thresholds"])
        if "description" in fields:
            reader.string(fields["description"], ("description",))
        problems.extend(reader.problems)
    config = AuditConfig(shown, reference, policy, thresholds)
    contract_path, contract_display = _contract_location(
        root, display, override, reference, shown, problems
    )
    return config, contract_path, contract_display
