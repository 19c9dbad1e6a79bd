"""Reading the fields of audit.yaml and of case files, collecting every problem.

Each accessor returns a usable placeholder after recording a problem, so one
pass over a file finds everything wrong with it; the caller raises once.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Sequence
from enum import Enum
from typing import Any, TypeVar

from textcontract._yaml import Path, Positions
from textcontract.errors import InputError, Location, Problem, render_key_path
from textcontract.model import type_name

__all__ = ["ID_PATTERN", "FieldReader", "relocate"]

E = TypeVar("E", bound=Enum)

ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*\Z")
"""Case and variant ids (SPEC §6)."""


def _suggestion(name: str, candidates: Sequence[str]) -> str | None:
    close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return f"did you mean {close[0]!r}?" if close else None


class FieldReader:
    """Validates the values of one YAML file whose positions are known."""

    def __init__(self, file: str, positions: Positions) -> None:
        self.file = file
        self.positions = positions
        self.problems: list[Problem] = []

    def at(self, path: Path) -> Location:
        """Where the value at ``path`` starts, named by its key path."""
        found = self.positions.value(path, render_key_path(path) if path else None)
        return Location(found.file, found.line, found.column, found.key, path=path)

    def at_key(self, path: Path) -> Location:
        """Where the mapping key of ``path`` starts."""
        found = self.positions.key(path, render_key_path(path) if path else None)
        return Location(found.file, found.line, found.column, found.key, path=path)

    def problem(self, path: Path, message: str, hint: str | None = None) -> None:
        self.problems.append(Problem(message, self.at(path), hint))

    def raise_if_problems(self) -> None:
        if self.problems:
            raise InputError(self.problems)

    def mapping(
        self, value: Any, path: Path, allowed: Sequence[str], required: Sequence[str] = ()
    ) -> dict[str, Any] | None:
        """A mapping whose keys are all ``allowed``; ``None`` (reported) if it is not one."""
        if not isinstance(value, dict):
            self.problem(path, f"expected a mapping, got {type_name(value)}")
            return None
        for key in value:
            if key not in allowed:
                self.problems.append(
                    Problem(
                        f"unknown key {key!r}",
                        self.at_key((*path, key)),
                        _suggestion(key, allowed),
                    )
                )
        for key in required:
            if key not in value:
                self.problem(path, f"missing required key {key!r}")
        return value

    def string(self, value: Any, path: Path) -> str | None:
        """A non-blank string, or ``None`` after reporting."""
        if not isinstance(value, str):
            self.problem(path, f"expected a string, got {type_name(value)}")
            return None
        if not value.strip():
            self.problem(path, "must not be blank")
            return None
        return value

    def identifier(self, value: Any, path: Path, what: str) -> str | None:
        """A case or variant id matching ``[A-Za-z0-9][A-Za-z0-9_.-]*``."""
        if not isinstance(value, str):
            self.problem(path, f"{what} id must be a string, got {type_name(value)}")
            return None
        if not ID_PATTERN.match(value):
            self.problem(path, f"{what} id {value!r} does not match [A-Za-z0-9][A-Za-z0-9_.-]*")
            return None
        return value

    def boolean(self, value: Any, path: Path) -> bool:
        if not isinstance(value, bool):
            self.problem(path, f"expected true or false, got {type_name(value)}")
            return False
        return value

    def fraction(self, value: Any, path: Path) -> float | None:
        """A number in [0, 1] (integers allowed, booleans not), as a float."""
        if isinstance(value, bool) or not isinstance(value, int | float):
            self.problem(path, f"expected a number in [0, 1], got {type_name(value)}")
            return None
        if not math.isfinite(value) or not 0 <= value <= 1:
            self.problem(path, f"must be in [0, 1], got {value!r}")
            return None
        return float(value)

    def choice(self, value: Any, path: Path, kind: type[E]) -> E | None:
        names = [str(member.value) for member in kind]
        if isinstance(value, str):
            for member in kind:
                if member.value == value:
                    return member
            self.problem(
                path, f"{value!r} is not one of {', '.join(names)}", _suggestion(value, names)
            )
        else:
            self.problem(path, f"expected one of {', '.join(names)}, got {type_name(value)}")
        return None

    def sequence(self, value: Any, path: Path) -> list[Any] | None:
        if not isinstance(value, list):
            self.problem(path, f"expected a list, got {type_name(value)}")
            return None
        return value


def relocate(error: InputError, positions: Positions, prefix: Path) -> list[Problem]:
    """Problems of a value embedded at ``prefix`` of a YAML file, with line/column added.

    Model constructors (``Document.from_json``…) name key paths inside the value they
    were given; here those paths become paths of the whole file, with positions.
    """
    moved = []
    for problem in error.problems:
        inner = problem.location.path
        full: Path = prefix + tuple(inner) if inner is not None else prefix
        found = positions.value(full, render_key_path(full) if full else None)
        where = Location(found.file, found.line, found.column, found.key, path=full)
        moved.append(Problem(problem.message, where, problem.hint))
    return moved
