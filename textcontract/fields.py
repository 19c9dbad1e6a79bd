"""One reader for the fields of every input file, and one "did you mean".

Contracts, audit.yaml, case files, scoring policies, probe files, sealed trial
records and evidence artifacts are all read through :class:`FieldReader`, so a
problem reads the same wherever it is found::

    c.yaml:5:11: rule 'one', field type: 'RequiredFakt' is not one of ... (did you mean ...?)
    policy.json: catch_threshold: must be in [0, 1], got 1.5

Every accessor records a :class:`~textcontract.errors.Problem` (file, line and
column when the file's positions are known, and the key path) and returns a
usable stand-in instead of raising, so one pass over a file finds everything
wrong with it; the caller raises once with :meth:`FieldReader.raise_if_problems`.

The wording, in one place:

- a missing key: ``missing required key 'id'``
- an unknown key: ``unknown key 'rulez'`` (hint ``did you mean 'rules'?``, else the
  known keys)
- a wrong type: ``expected a string, got an integer``
- a choice: ``'urgent' is not one of low, medium, high, critical`` (with a
  "did you mean" hint when one is close)
- a range: ``must be in [0, 1], got 1.5``, ``must be at least 1, got 0``
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from enum import Enum
from typing import TYPE_CHECKING, Any, Final, TypeVar, overload

from textcontract.errors import InputError, Location, Problem, render_key_path

if TYPE_CHECKING:
    from textcontract._yaml import Positions

__all__ = [
    "MISSING",
    "FieldReader",
    "KeyPath",
    "closest",
    "did_you_mean",
    "type_name",
    "unknown_key",
]

KeyPath = tuple[str | int, ...]
"""Where a value sits inside a file: mapping keys and list indexes, outermost first."""

E = TypeVar("E", bound=Enum)
D = TypeVar("D")


def type_name(value: object) -> str:
    """JSON-flavoured type name for messages (``an integer``, ``a list``, ``null``)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number" if math.isfinite(value) else "a non-finite number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, list | tuple):
        return "a list"
    return type(value).__name__


def closest(name: str, candidates: Sequence[str]) -> str | None:
    """The candidate ``name`` was probably meant to be: same letters in another case, or close."""
    by_case = {candidate.lower(): candidate for candidate in candidates}
    if name.lower() in by_case:
        return by_case[name.lower()]
    import difflib  # (only a misspelling needs it: a cold start does without)

    close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return close[0] if close else None


def did_you_mean(name: str, candidates: Sequence[str]) -> str | None:
    """``did you mean 'x'?`` for the closest candidate, or ``None`` when none is close."""
    found = closest(name, candidates)
    return f"did you mean {found!r}?" if found is not None else None


def unknown_key(name: str, known: Sequence[str]) -> tuple[str, str]:
    """The message and hint for a key that is not one of ``known``."""
    hint = did_you_mean(name, known) or f"known keys: {', '.join(known) or 'none'}"
    return f"unknown key {name!r}", hint


class _Missing:
    """Stands for a required key that is absent (reported once, by ``mapping``)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Final[Any] = _Missing()
"""The value :meth:`FieldReader.mapping` gives a missing required key; readers skip it."""


class _Placeholder:
    __slots__ = ()


_PLACEHOLDER: Final[Any] = _Placeholder()


class FieldReader:
    """Reads the values of one input file and collects what is wrong with them.

    ``file`` names the file in messages; ``positions`` (from
    :func:`textcontract._yaml.load_yaml`) add line and column, and without them a
    problem names its key path only (JSON inputs). ``base`` is where the values this
    reader is given sit in the file; ``label``, when set, names that place in messages
    instead of its key path (``rule 'one'``, then ``rule 'one', field type`` inside it).
    Readers made by :meth:`within` share their parent's problem list.
    """

    def __init__(
        self,
        file: str | None,
        positions: Positions | None = None,
        *,
        base: KeyPath = (),
        label: str | None = None,
        problems: list[Problem] | None = None,
        names: bool = True,
    ) -> None:
        self.file = file
        self.positions = positions
        self.base = base
        self.label = label
        self._labelled = base
        """Where ``label`` names: paths below it are said as ``label, field a.b``."""
        self.problems: list[Problem] = [] if problems is None else problems
        self.names = names
        """Without positions and with ``names`` false, :meth:`at` and :meth:`at_key` give
        locations with their key path only, not yet rendered as a name (for values read
        again that were validated before); a problem is always named."""

    # -- places and problems ----------------------------------------------------------

    def within(self, path: KeyPath, label: str | None = None) -> FieldReader:
        """A reader for the values at ``path``, sharing this reader's problems.

        Without a ``label`` of its own it names places as this reader does.
        """
        inner = FieldReader(
            self.file,
            self.positions,
            base=self.base + path,
            label=label,
            problems=self.problems,
            names=self.names,
        )
        if label is None:
            inner.label, inner._labelled = self.label, self._labelled
        return inner

    def _name(self, path: KeyPath) -> str | None:
        full = self.base + path
        if self.label is None:
            return render_key_path(full) if full else None
        below = full[len(self._labelled) :]
        return f"{self.label}, field {render_key_path(below)}" if below else self.label

    def at(self, path: KeyPath = ()) -> Location:
        """Where the value at ``path`` starts, named by its key path (or label)."""
        if self.positions is None and not self.names:
            return Location(self.file, path=self.base + path)
        return self._location(path, at_key=False)

    def at_key(self, path: KeyPath) -> Location:
        """Where the mapping key of ``path`` starts (for unknown or misplaced keys)."""
        if self.positions is None and not self.names:
            return Location(self.file, path=self.base + path)
        return self._location(path, at_key=True)

    def _location(self, path: KeyPath, *, at_key: bool) -> Location:
        full = self.base + path
        name = self._name(path)
        if self.positions is None:
            return Location(self.file, key=name, path=full)
        found = self.positions.key(full, name) if at_key else self.positions.value(full, name)
        return Location(found.file, found.line, found.column, found.key, path=full)

    def problem(
        self, path: KeyPath, message: str, hint: str | None = None, *, at_key: bool = False
    ) -> None:
        """Record a problem with the value (or, with ``at_key``, the key) at ``path``."""
        self.problems.append(Problem(message, self._location(path, at_key=at_key), hint))

    def mark(self) -> int:
        """A point to ask :meth:`failed_since` about."""
        return len(self.problems)

    def failed_since(self, mark: int) -> bool:
        """Whether a problem was recorded after :meth:`mark` returned ``mark``."""
        return len(self.problems) > mark

    def raise_if_problems(self, error: type[InputError] = InputError) -> None:
        if self.problems:
            raise error(self.problems)

    def absorb(self, error: InputError, path: KeyPath = ()) -> None:
        """Take the problems of a value read elsewhere (``Document.from_json``…) at ``path``.

        Their key paths are inside that value; here they become places in this file,
        with line and column when known.
        """
        for problem in error.problems:
            inner = problem.location.path
            where = path + tuple(inner) if inner is not None else path
            self.problems.append(
                Problem(problem.message, self._location(where, at_key=False), problem.hint)
            )

    # -- containers -------------------------------------------------------------------

    def mapping(
        self,
        value: Any,
        path: KeyPath = (),
        *,
        required: Sequence[str] = (),
        optional: Sequence[str] = (),
        allow_unknown: bool = False,
    ) -> dict[str, Any]:
        """A mapping with these keys; a missing required key maps to :data:`MISSING`.

        A value that is not a mapping is reported (unless it is :data:`MISSING`) and
        read as an empty one, so reading on reports nothing more about it.
        """
        if not isinstance(value, dict):
            if value is not MISSING:
                self.problem(path, f"expected a mapping, got {type_name(value)}")
            return dict.fromkeys(required, MISSING)
        if not allow_unknown:
            known = list(dict.fromkeys([*required, *optional]))
            for key in value:
                if key not in known:
                    message, hint = unknown_key(key, known)
                    self.problem((*path, key), message, hint, at_key=True)
        result = dict(value)
        for key in required:
            if key not in value:
                self.problem(path, f"missing required key {key!r}")
                result[key] = MISSING
        return result

    def sequence(self, value: Any, path: KeyPath = ()) -> list[Any]:
        """A list; anything else is reported and read as an empty list."""
        if value is MISSING:
            return []
        if not isinstance(value, list):
            self.problem(path, f"expected a list, got {type_name(value)}")
            return []
        return value

    def strings(self, value: Any, path: KeyPath = ()) -> list[str]:
        """A list of non-empty strings."""
        return [
            self.string(item, (*path, index))
            for index, item in enumerate(self.sequence(value, path))
        ]

    # -- scalars ------------------------------------------------------------------------
    # Each returns ``fallback`` for a missing or invalid value; without one, a neutral
    # stand-in of the right type ("", 0, the enum's first member).

    @overload
    def string(self, value: Any, path: KeyPath, *, empty: bool = ..., blank: bool = ...) -> str: ...
    @overload
    def string(
        self, value: Any, path: KeyPath, fallback: D, *, empty: bool = ..., blank: bool = ...
    ) -> str | D: ...
    def string(
        self,
        value: Any,
        path: KeyPath,
        fallback: Any = _PLACEHOLDER,
        *,
        empty: bool = False,
        blank: bool = True,
    ) -> Any:
        """A string; empty only with ``empty``, and whitespace only unless ``blank`` is false."""
        stand_in = "" if fallback is _PLACEHOLDER else fallback
        if value is MISSING:
            return stand_in
        if not isinstance(value, str):
            self.problem(path, f"expected a string, got {type_name(value)}")
            return stand_in
        if not value and not empty:
            self.problem(path, "must not be empty")
            return stand_in
        if value and not value.strip() and not blank:
            self.problem(path, "must not be blank")
            return stand_in
        return value

    def optional_string(self, value: Any, path: KeyPath) -> str | None:
        """A string or ``null`` (``None``)."""
        if value is None or value is MISSING:
            return None
        return self.string(value, path, None)

    @overload
    def integer(
        self, value: Any, path: KeyPath, *, minimum: int | None = ..., maximum: int | None = ...
    ) -> int: ...
    @overload
    def integer(
        self,
        value: Any,
        path: KeyPath,
        fallback: D,
        *,
        minimum: int | None = ...,
        maximum: int | None = ...,
    ) -> int | D: ...
    def integer(
        self,
        value: Any,
        path: KeyPath,
        fallback: Any = _PLACEHOLDER,
        *,
        minimum: int | None = None,
        maximum: int | None = None,
    ) -> Any:
        """An integer within the bounds (``true``/``false`` and ``1.0`` are refused)."""
        stand_in = (minimum or 0) if fallback is _PLACEHOLDER else fallback
        if value is MISSING:
            return stand_in
        if isinstance(value, bool) or not isinstance(value, int):
            self.problem(path, f"expected an integer, got {type_name(value)}")
            return stand_in
        if minimum is not None and value < minimum:
            self.problem(path, f"must be at least {minimum}, got {value}")
            return stand_in
        if maximum is not None and value > maximum:
            self.problem(path, f"must be at most {maximum}, got {value}")
            return stand_in
        return value

    @overload
    def fraction(self, value: Any, path: KeyPath) -> float: ...
    @overload
    def fraction(self, value: Any, path: KeyPath, fallback: D) -> float | D: ...
    def fraction(self, value: Any, path: KeyPath, fallback: Any = _PLACEHOLDER) -> Any:
        """A number in [0, 1], integer or float (booleans refused), as a float."""
        stand_in = 0.0 if fallback is _PLACEHOLDER else fallback
        if value is MISSING:
            return stand_in
        if isinstance(value, bool) or not isinstance(value, int | float):
            self.problem(path, f"expected a number in [0, 1], got {type_name(value)}")
            return stand_in
        if not math.isfinite(value) or not 0 <= value <= 1:
            self.problem(path, f"must be in [0, 1], got {value!r}")
            return stand_in
        return float(value)

    def optional_fraction(self, value: Any, path: KeyPath) -> float | None:
        """A number in [0, 1] or ``null`` (``None``)."""
        if value is None or value is MISSING:
            return None
        return self.fraction(value, path, None)

    def boolean(self, value: Any, path: KeyPath, fallback: bool = False) -> bool:
        """``true`` or ``false`` (YAML's ``yes``/``no`` are strings, and refused)."""
        if value is MISSING:
            return fallback
        if not isinstance(value, bool):
            self.problem(path, f"expected true or false, got {type_name(value)}")
            return fallback
        return value

    @overload
    def choice(self, value: Any, path: KeyPath, kind: type[E]) -> E: ...
    @overload
    def choice(self, value: Any, path: KeyPath, kind: type[E], fallback: D) -> E | D: ...
    def choice(self, value: Any, path: KeyPath, kind: type[E], fallback: Any = _PLACEHOLDER) -> Any:
        """One of an enum's values, given as its string."""
        stand_in = next(iter(kind)) if fallback is _PLACEHOLDER else fallback
        if value is MISSING:
            return stand_in
        if isinstance(value, str):
            for member in kind:
                if member.value == value:
                    return member
        names = [str(member.value) for member in kind]
        if isinstance(value, str):
            self.problem(
                path, f"{value!r} is not one of {', '.join(names)}", did_you_mean(value, names)
            )
        else:
            self.problem(path, f"expected one of {', '.join(names)}, got {type_name(value)}")
        return stand_in

    def identifier(
        self, value: Any, path: KeyPath, what: str, pattern: re.Pattern[str]
    ) -> str | None:
        """An id matching ``pattern`` (written ``\\Z``-anchored); ``what`` names it (``rule``)."""
        if value is MISSING:
            return None
        if not isinstance(value, str):
            self.problem(path, f"{what} id must be a string, got {type_name(value)}")
            return None
        if not pattern.match(value):
            shown = pattern.pattern.removesuffix(r"\Z")
            self.problem(path, f"{what} id {value!r} does not match {shown}")
            return None
        return value

    def expect_equal(
        self, value: Any, path: KeyPath, expected: int, hint: str | None = None
    ) -> None:
        """An exact integer, such as a format version."""
        if value is MISSING:
            return
        if isinstance(value, bool) or not isinstance(value, int) or value != expected:
            self.problem(path, f"expected {expected}, got {value!r}", hint)
