"""Typed rule parameters: one declaration feeds validation, ``rules`` and ``schema``.

A :class:`ParamType` converts a YAML value into what a rule uses (compiled
patterns, tuples, fact references) or reports what is wrong with it, with the
sub-path of the offending item so the loader can point at its line and column.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import regex

from textcontract.fields import did_you_mean, type_name, unknown_key
from textcontract.model import NAME_PATTERN, FactValue, is_fact_value
from textcontract.rules._pattern_compile import PatternRejected, compile_pattern
from textcontract.text import host_key
from textcontract.text.markup import CONTAINERS, KINDS, MarkupKind

__all__ = [
    "ABSENT",
    "ACCENT_FOLDING",
    "BOOLEAN",
    "DOMAIN_LIST",
    "FACT_REF",
    "INTEGER",
    "NUMBER",
    "PAIR_LIST",
    "PATTERN_LIST",
    "PREMISE_MAP",
    "READ",
    "READABLE_KINDS",
    "REQUIRED",
    "SCALAR",
    "SCALAR_LIST",
    "STATE",
    "STRING",
    "STRING_LIST",
    "SURFACE",
    "SURFACES",
    "TIMEOUT_MS",
    "VIEW_PARAMS",
    "WITHIN",
    "CompiledPattern",
    "FactRef",
    "Param",
    "ParamProblem",
    "ParamType",
    "choice",
    "gather",
    "unknown_param",
    "view_problems",
]


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Final = _Required()
"""Default of a parameter that must be given."""


class _Absent:
    def __repr__(self) -> str:
        return "ABSENT"


ABSENT: Final = _Absent()
"""Default of an optional parameter for which ``null`` is a meaningful value.

Such a parameter, when not given, is left out of the options entirely (and of
the contract digest), so ``equals: null`` and no ``equals`` stay different.
"""


class ParamProblem(Exception):
    """A parameter value is invalid; ``path`` locates the bad item inside it.

    One value can be wrong in several places (every invalid pattern of a list):
    :meth:`each` gives them all, this exception's own message and path first.
    """

    def __init__(
        self,
        message: str,
        path: Sequence[str | int] = (),
        hint: str | None = None,
        *,
        more: Sequence[ParamProblem] = (),
    ) -> None:
        super().__init__(message)
        self.message = message
        self.path = tuple(path)
        self.hint = hint
        self.more = tuple(more)

    def each(self) -> tuple[ParamProblem, ...]:
        """Every problem this one stands for, each with its own path."""
        return (ParamProblem(self.message, self.path, self.hint), *self.more)

    def inside(self, *prefix: str | int) -> ParamProblem:
        """The same problems, located under ``prefix``."""
        return gather([ParamProblem(p.message, (*prefix, *p.path), p.hint) for p in self.each()])


def unknown_param(name: str, known: Sequence[str]) -> ParamProblem:
    """An unknown key ``name`` among ``known`` ones, with a "did you mean" hint."""
    message, hint = unknown_key(name, known)
    return ParamProblem(message, (name,), hint)


def gather(problems: Sequence[ParamProblem]) -> ParamProblem:
    """One exception standing for every problem in ``problems`` (at least one)."""
    first, *rest = (single for problem in problems for single in problem.each())
    return ParamProblem(first.message, first.path, first.hint, more=rest)


@dataclass(frozen=True)
class CompiledPattern:
    """A pattern as written, and compiled (IGNORECASE) for normalized text."""

    source: str
    compiled: regex.Pattern[str]


@dataclass(frozen=True)
class FactRef:
    """A fact in a named snapshot: ``{state, key}``."""

    state: str
    key: str

    @property
    def scope(self) -> str:
        return f"state:{self.state}:{self.key}"


class ParamType:
    """How a parameter is written (``label``, ``json_schema``) and converted."""

    label: str = "value"

    def json_schema(self) -> dict[str, Any]:
        raise NotImplementedError

    def convert(self, value: Any) -> Any:
        raise NotImplementedError


def _expect(ok: bool, wanted: str, value: Any, path: Sequence[str | int] = ()) -> None:
    if not ok:
        raise ParamProblem(f"expected {wanted}, got {type_name(value)}", path)


class _String(ParamType):
    label = "string"

    def json_schema(self) -> dict[str, Any]:
        return {"type": "string", "minLength": 1}

    def convert(self, value: Any) -> str:
        _expect(isinstance(value, str), "a string", value)
        if not value:
            raise ParamProblem("must not be empty")
        return str(value)


class _Integer(ParamType):
    label = "integer"

    def json_schema(self) -> dict[str, Any]:
        return {"type": "integer"}

    def convert(self, value: Any) -> int:
        _expect(isinstance(value, int) and not isinstance(value, bool), "an integer", value)
        return int(value)


class _Number(ParamType):
    label = "number"

    def json_schema(self) -> dict[str, Any]:
        return {"type": "number"}

    def convert(self, value: Any) -> float:
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        _expect(ok, "a number", value)
        if not math.isfinite(value):
            raise ParamProblem("must be a finite number")
        return float(value)


class _Boolean(ParamType):
    label = "boolean"

    def json_schema(self) -> dict[str, Any]:
        return {"type": "boolean"}

    def convert(self, value: Any) -> bool:
        _expect(isinstance(value, bool), "true or false", value)
        return bool(value)


_SCALAR_SCHEMA: dict[str, Any] = {"type": ["string", "number", "boolean", "null"]}


class _Scalar(ParamType):
    label = "scalar"

    def json_schema(self) -> dict[str, Any]:
        return dict(_SCALAR_SCHEMA)

    def convert(self, value: Any) -> FactValue:
        if not is_fact_value(value):
            raise ParamProblem(
                f"expected a finite scalar (string, number, boolean, null), got {type_name(value)}"
            )
        return value


class _List(ParamType):
    """A non-empty list whose items all convert with ``item``."""

    def __init__(self, item: ParamType, label: str, *, unique: bool = False) -> None:
        self.item = item
        self.label = label
        self.unique = unique

    def json_schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": "array", "items": self.item.json_schema(), "minItems": 1}
        if self.unique:
            schema["uniqueItems"] = True
        return schema

    def convert(self, value: Any) -> tuple[Any, ...]:
        _expect(isinstance(value, list), "a list", value)
        if not value:
            raise ParamProblem("must not be empty")
        items = []
        problems = []
        for index, item in enumerate(value):
            try:
                items.append(self.item.convert(item))
            except ParamProblem as problem:
                problems.append(problem.inside(index))
        if problems:
            raise gather(problems)
        if self.unique:
            seen: set[Any] = set()
            for index, item in enumerate(value):
                marker = (type(item), item) if not isinstance(item, list | dict) else repr(item)
                if marker in seen:
                    raise ParamProblem(f"duplicate item {item!r}", (index,))
                seen.add(marker)
        return tuple(items)


class _Surface(ParamType):
    label = "surface name"

    def json_schema(self) -> dict[str, Any]:
        return {"type": "string", "pattern": "^[a-z0-9][a-z0-9_.-]*$"}

    def convert(self, value: Any) -> str:
        _expect(isinstance(value, str), "a surface name", value)
        if not NAME_PATTERN.match(value):
            raise ParamProblem(f"surface name {value!r} does not match [a-z0-9][a-z0-9_.-]*")
        return str(value)


class _Pattern(ParamType):
    label = "pattern"

    def json_schema(self) -> dict[str, Any]:
        return {"type": "string", "minLength": 1}

    def convert(self, value: Any) -> CompiledPattern:
        _expect(isinstance(value, str), "a regular expression (string)", value)
        if not value:
            raise ParamProblem("an empty pattern matches everywhere")
        try:
            compiled = compile_pattern(value, regex.IGNORECASE)
        except PatternRejected as exc:
            raise ParamProblem(f"invalid pattern {_shown(value)}: {exc}") from None
        return CompiledPattern(value, compiled)


_SHOWN_CHARS = 80


def _shown(pattern: str) -> str:
    """The pattern as an error message quotes it: whole, or its start when it is long."""
    if len(pattern) <= _SHOWN_CHARS:
        return repr(pattern)
    return f"{pattern[:_SHOWN_CHARS]!r}… ({len(pattern)} characters)"


class _FactRef(ParamType):
    label = "{state, key}"

    def json_schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {
                "state": {"type": "string", "minLength": 1},
                "key": {"type": "string", "minLength": 1},
            },
            "required": ["key"],
            "additionalProperties": False,
        }

    def convert(self, value: Any) -> FactRef:
        _expect(isinstance(value, Mapping), "an object {state, key}", value)
        problems = [
            unknown_param(name, ("state", "key")) for name in value if name not in ("state", "key")
        ]
        if "key" not in value:
            problems.append(ParamProblem("missing required key 'key'"))
        for name in ("state", "key"):
            if name in value:
                try:
                    STRING.convert(value[name])
                except ParamProblem as problem:
                    problems.append(problem.inside(name))
        if problems:
            raise gather(problems)
        return FactRef(value.get("state", "current"), value["key"])


class _Pair(ParamType):
    label = "[old, new]"

    def json_schema(self) -> dict[str, Any]:
        return {"type": "array", "items": dict(_SCALAR_SCHEMA), "minItems": 2, "maxItems": 2}

    def convert(self, value: Any) -> tuple[FactValue, FactValue]:
        _expect(isinstance(value, list) and len(value) == 2, "a pair [old, new]", value)
        old, new = value
        for index, item in enumerate(value):
            if not is_fact_value(item):
                raise ParamProblem(f"expected a finite scalar, got {type_name(item)}", (index,))
        return old, new


class _PremiseMap(ParamType):
    label = "premise id → patterns"

    def json_schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "additionalProperties": PATTERN_LIST.json_schema(),
            "minProperties": 1,
        }

    def convert(self, value: Any) -> dict[str, tuple[CompiledPattern, ...]]:
        _expect(isinstance(value, Mapping), "an object mapping premise ids to patterns", value)
        if not value:
            raise ParamProblem("must not be empty")
        premises: dict[str, tuple[CompiledPattern, ...]] = {}
        problems = []
        for premise, patterns in value.items():
            try:
                premises[premise] = PATTERN_LIST.convert(patterns)
            except ParamProblem as problem:
                problems.append(problem.inside(premise))
        if problems:
            raise gather(problems)
        return premises


_DOMAIN = regex.compile(r"[^\s/:@?#]+\Z")


class _Domain(ParamType):
    label = "domain"

    def json_schema(self) -> dict[str, Any]:
        return {"type": "string", "minLength": 1}

    def convert(self, value: Any) -> str:
        _expect(isinstance(value, str), "a domain name", value)
        if not _DOMAIN.match(value) or value.startswith(".") or value.endswith("."):
            raise ParamProblem(
                f"{value!r} is not a domain name (write example.com, no scheme or path)"
            )
        key = host_key(str(value))
        if key is None:
            raise ParamProblem(f"{value!r} is not a valid internationalized domain name")
        return key


class _Choice(ParamType):
    def __init__(self, values: Sequence[str]) -> None:
        self.values = tuple(values)
        self.label = " | ".join(self.values)

    def json_schema(self) -> dict[str, Any]:
        return {"enum": list(self.values)}

    def convert(self, value: Any) -> str:
        _expect(isinstance(value, str), f"one of {', '.join(self.values)}", value)
        if value not in self.values:
            raise ParamProblem(
                f"{value!r} is not one of {', '.join(self.values)}",
                hint=did_you_mean(value, self.values),
            )
        return str(value)


def choice(*values: str) -> ParamType:
    """A string restricted to ``values``."""
    return _Choice(values)


READABLE_KINDS = tuple(kind for kind in KINDS if kind != MarkupKind.MARKUP)
"""The kinds a view may read (SPEC §18); ``markup`` is the syntax itself, never read."""


class _Read(ParamType):
    """``raw``, or a list of the kinds a rule reads."""

    label = "raw | list of kinds"

    def __init__(self) -> None:
        self._kinds = _List(_Choice(READABLE_KINDS), "list of kinds", unique=True)

    def json_schema(self) -> dict[str, Any]:
        return {"oneOf": [{"const": "raw"}, self._kinds.json_schema()]}

    def convert(self, value: Any) -> str | tuple[str, ...]:
        if value == "raw":
            return "raw"
        if isinstance(value, str):
            hint = f"write [{value}]" if value in READABLE_KINDS else None
            raise ParamProblem(
                f"read is raw or a list of kinds ({', '.join(READABLE_KINDS)}), got {value!r}",
                hint=hint or did_you_mean(value, ("raw", *READABLE_KINDS)),
            )
        return tuple(self._kinds.convert(value))


STRING: Final[ParamType] = _String()
INTEGER: Final[ParamType] = _Integer()
NUMBER: Final[ParamType] = _Number()
BOOLEAN: Final[ParamType] = _Boolean()
SCALAR: Final[ParamType] = _Scalar()
STATE: Final[ParamType] = _String()
SURFACE: Final[ParamType] = _Surface()
FACT_REF: Final[ParamType] = _FactRef()
STRING_LIST: Final[ParamType] = _List(_String(), "list of strings", unique=True)
SCALAR_LIST: Final[ParamType] = _List(_Scalar(), "list of scalars")
SURFACE_LIST: Final[ParamType] = _List(_Surface(), "list of surface names", unique=True)
PATTERN_LIST: Final[ParamType] = _List(_Pattern(), "list of patterns")
PAIR_LIST: Final[ParamType] = _List(_Pair(), "list of [old, new] pairs")
PREMISE_MAP: Final[ParamType] = _PremiseMap()
DOMAIN_LIST: Final[ParamType] = _List(_Domain(), "list of domains", unique=True)
CONTAINER_LIST: Final[ParamType] = _List(_Choice(CONTAINERS), "list of containers", unique=True)


@dataclass(frozen=True)
class Param:
    """One declared parameter of a rule type.

    ``minimum``/``maximum`` bound numbers (inclusive). A parameter whose
    ``default`` is :data:`REQUIRED` must be given; ``None`` means optional with
    no value.
    """

    name: str
    type: ParamType
    description: str
    default: Any = REQUIRED
    minimum: float | None = None
    maximum: float | None = None

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    def convert(self, value: Any) -> Any:
        converted = self.type.convert(value)
        if self.minimum is not None and converted < self.minimum:
            raise ParamProblem(f"must be at least {_plain(self.minimum)}, got {value!r}")
        if self.maximum is not None and converted > self.maximum:
            raise ParamProblem(f"must be at most {_plain(self.maximum)}, got {value!r}")
        return converted

    def json_schema(self) -> dict[str, Any]:
        schema = self.type.json_schema()
        if self.minimum is not None:
            schema["minimum"] = _plain(self.minimum)
        if self.maximum is not None:
            schema["maximum"] = _plain(self.maximum)
        schema["description"] = self.description
        if not self.required and self.default is not None and self.default is not ABSENT:
            schema["default"] = self.default
        return schema


def _plain(number: float) -> int | float:
    return int(number) if float(number).is_integer() else number


SURFACES: Final = Param(
    "surfaces",
    SURFACE_LIST,
    "surfaces to read, in this order (default: every surface, in document order)",
    default=None,
)
ACCENT_FOLDING: Final = Param(
    "accent_folding", BOOLEAN, "match on text with combining marks removed", default=True
)
TIMEOUT_MS: Final = Param(
    "timeout_ms",
    INTEGER,
    "time budget in milliseconds shared by this rule's searches on one surface",
    default=250,
    minimum=1,
    maximum=60_000,
)
READ: Final = Param(
    "read",
    _Read(),
    "what of a markup surface the rule reads: raw (the text as written, the default) or a "
    "list of kinds: prose, code, url, comment",
    default=ABSENT,
)
WITHIN: Final = Param(
    "within",
    CONTAINER_LIST,
    "read prose only within these containers (their union; needs prose in read)",
    default=ABSENT,
)
VIEW_PARAMS: Final = (READ, WITHIN)
"""The parameters of every rule that reads surface text (SPEC §18)."""


def view_problems(values: Mapping[str, Any]) -> list[ParamProblem]:
    """``within`` is for prose: it needs ``prose`` among the kinds ``read`` names."""
    if "within" not in values:
        return []
    read = values.get("read", "raw")
    if read == "raw" or "prose" not in read:
        return [ParamProblem("within needs prose in read (read: [prose, …])", ("within",))]
    return []
