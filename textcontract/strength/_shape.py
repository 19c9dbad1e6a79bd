"""Reading untrusted JSON/YAML values into typed fields while collecting every problem.

Each reader method returns a value of the requested type even when the input is
wrong (a neutral placeholder), after recording a :class:`Problem`; the caller
builds its object and then calls :meth:`ShapeReader.raise_if_problems`, so every
problem of a file is reported at once and placeholders never escape.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Sequence
from dataclasses import replace
from enum import Enum
from typing import Any, TypeVar

from textcontract._yaml import Path, Positions
from textcontract.errors import InputError, Location, Problem, render_key_path
from textcontract.model import type_name

__all__ = ["MISSING", "ShapeReader"]

E = TypeVar("E", bound=Enum)


class _Missing:
    """Stands for a required key that is absent (already reported by ``mapping``)."""

    __slots__ = ()


MISSING: Any = _Missing()


class ShapeReader:
    """Validates values of one input file; ``base`` prefixes every key path it reports."""

    def __init__(
        self, file: str | None, positions: Positions | None = None, base: Path = ()
    ) -> None:
        self.file = file
        self.positions = positions
        self.base = base
        self.problems: list[Problem] = []

    def _location(self, path: Path, *, at_key: bool) -> Location:
        full = self.base + path
        if self.positions is None:
            return Location.of_path(self.file, full) if full else Location(self.file)
        name = render_key_path(full) if full else None
        found = self.positions.key(full, name) if at_key else self.positions.value(full, name)
        return replace(found, path=full)

    def problem(self, path: Path, message: str, *, hint: str | None = None) -> None:
        """Record a problem with the value at ``path``."""
        self.problems.append(Problem(message, self._location(path, at_key=False), hint))

    def raise_if_problems(self) -> None:
        if self.problems:
            raise InputError(self.problems)

    def mapping(
        self,
        value: Any,
        path: Path,
        *,
        required: Sequence[str] = (),
        optional: Sequence[str] = (),
        allow_unknown: bool = False,
    ) -> dict[str, Any]:
        """A mapping with the given keys; unknown keys get a "did you mean" hint."""
        if not isinstance(value, dict):
            if value is not MISSING:
                self.problem(path, f"expected a mapping, found {type_name(value)}")
            return dict.fromkeys(required, MISSING)
        known = [*required, *optional]
        if not allow_unknown:
            for key in value:
                if key not in known:
                    close = difflib.get_close_matches(key, known, n=1)
                    self.problems.append(
                        Problem(
                            f"unknown key {key!r}",
                            self._location((*path, key), at_key=True),
                            f"did you mean {close[0]!r}?" if close else None,
                        )
                    )
        result = dict(value)
        for key in required:
            if key not in value:
                self.problem(path, f"missing required key {key!r}")
                result[key] = MISSING
        return result

    def string(self, value: Any, path: Path, *, non_empty: bool = True) -> str:
        if value is MISSING:
            return ""
        if not isinstance(value, str):
            self.problem(path, f"expected a string, found {type_name(value)}")
            return ""
        if non_empty and not value:
            self.problem(path, "must not be empty")
        return str(value)

    def optional_string(self, value: Any, path: Path) -> str | None:
        if value is None or value is MISSING:
            return None
        return self.string(value, path)

    def integer(self, value: Any, path: Path, *, minimum: int | None = None) -> int:
        """An integer (``true``/``false`` and ``1.0`` are refused)."""
        if value is MISSING:
            return minimum if minimum is not None else 0
        if isinstance(value, bool) or not isinstance(value, int):
            self.problem(path, f"expected an integer, found {type_name(value)}")
            return minimum if minimum is not None else 0
        if minimum is not None and value < minimum:
            self.problem(path, f"must be at least {minimum}, found {value}")
            return minimum
        return value

    def fraction(self, value: Any, path: Path) -> float:
        """A number in [0, 1], integer or float (booleans refused), returned as a float."""
        if value is MISSING:
            return 0.0
        if isinstance(value, bool) or not isinstance(value, int | float):
            self.problem(path, f"expected a number in [0, 1], found {type_name(value)}")
            return 0.0
        if not math.isfinite(value) or not 0 <= value <= 1:
            self.problem(path, f"must be in [0, 1], found {value!r}")
            return 0.0
        return float(value)

    def optional_fraction(self, value: Any, path: Path) -> float | None:
        return None if value is None else self.fraction(value, path)

    def boolean(self, value: Any, path: Path) -> bool:
        if value is MISSING:
            return False
        if not isinstance(value, bool):
            self.problem(path, f"expected true or false, found {type_name(value)}")
            return False
        return value

    def choice(self, value: Any, path: Path, kind: type[E]) -> E:
        """One of an enum's values."""
        names = [str(member.value) for member in kind]
        if value is MISSING:
            return next(iter(kind))
        if isinstance(value, str):
            for member in kind:
                if member.value == value:
                    return member
            close = difflib.get_close_matches(value, names, n=1)
            self.problem(
                path,
                f"{value!r} is not one of {', '.join(names)}",
                hint=f"did you mean {close[0]!r}?" if close else None,
            )
        else:
            self.problem(path, f"expected one of {', '.join(names)}, found {type_name(value)}")
        return next(iter(kind))

    def sequence(self, value: Any, path: Path) -> list[Any]:
        if value is MISSING:
            return []
        if not isinstance(value, list):
            self.problem(path, f"expected a list, found {type_name(value)}")
            return []
        return value

    def strings(self, value: Any, path: Path) -> list[str]:
        return [self.string(item, (*path, i)) for i, item in enumerate(self.sequence(value, path))]

    def expect_equal(self, value: Any, path: Path, expected: int) -> None:
        """An exact integer such as a format version."""
        if value is MISSING:
            return
        if isinstance(value, bool) or value != expected or not isinstance(value, int):
            self.problem(path, f"expected {expected}, found {value!r}")
