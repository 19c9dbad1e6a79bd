"""The rule-type contract: declarations plus an ``evaluate`` that yields checks.

A rule type is a class with a stable ``name``, a ``kind``, typed ``params``,
the ``codes`` it can emit, and a docstring with a violated and a satisfied
example. The contract loader validates a rule's YAML against ``params``, then
instantiates the class with a :class:`RuleHeader` and the converted
:class:`Options`; the engine calls :meth:`RuleType.evaluate` once per run.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import regex

from textcontract.model import (
    Check,
    Document,
    Enforcement,
    FactValue,
    Kind,
    RuleVersion,
    Severity,
    Status,
    Surface,
    shown_pattern,
)
from textcontract.rules._params import (
    ACCENT_FOLDING,
    READ,
    SURFACES,
    TIMEOUT_MS,
    WITHIN,
    CompiledPattern,
    FactRef,
    Param,
    ParamProblem,
)
from textcontract.rules._patterns import Candidates, PatternList, PatternTable
from textcontract.rules._segmenting import SEGMENTING_PARAMS, segmenter_of, segmenting_problems
from textcontract.rules._subject import Subject, ViewKey, view_key
from textcontract.text import (
    WORDS,
    Budget,
    PatternHit,
    PatternTimeout,
    Profile,
    Segmenter,
    excerpt,
    find_matches,
)

__all__ = [
    "MAX_EXCERPTS",
    "PATTERN_TIMEOUT",
    "RULE_ERROR",
    "SURFACE_MISSING",
    "UNSUPPORTED_SCRIPT",
    "Code",
    "Options",
    "PatternRule",
    "PatternTimeout",
    "RuleHeader",
    "RuleType",
    "SegmentingRule",
    "SurfaceRule",
    "TokenRule",
    "pattern_name",
]


@dataclass(frozen=True)
class Code:
    """A finding code a rule type can emit, the statuses it comes with, and its meaning."""

    name: str
    statuses: frozenset[Status]
    description: str

    @classmethod
    def of(cls, name: str, description: str, *statuses: Status) -> Code:
        return cls(name, frozenset(statuses), description)


SURFACE_MISSING = Code.of(
    "SURFACE_MISSING", "a surface the rule names is not in the document", Status.ERROR
)
PATTERN_TIMEOUT = Code.of(
    "PATTERN_TIMEOUT",
    "the rule's searches on a surface ran out of their time budget",
    Status.ERROR,
)
UNSUPPORTED_SCRIPT = Code.of(
    "UNSUPPORTED_SCRIPT",
    "more than 5% of the surface's letters are of a script written without spaces",
    Status.UNDETERMINED,
)
RULE_ERROR = Code.of(
    "RULE_ERROR",
    "the rule raised, returned nothing, or returned a check it may not emit",
    Status.ERROR,
)


@dataclass(frozen=True)
class RuleHeader:
    """The common fields of one configured rule: who it is and how it enforces."""

    id: str
    version: RuleVersion
    type: str
    kind: Kind
    severity: Severity = Severity.MEDIUM
    enforcement: Enforcement = Enforcement.BLOCKING
    code: str | None = None
    description: str | None = None


@dataclass(frozen=True)
class Options:
    """Converted parameter values (defaults filled in), with typed accessors."""

    values: Mapping[str, Any] = field(default_factory=dict)

    def has(self, name: str) -> bool:
        """Whether the parameter has a value (``null`` counts for ABSENT-default params)."""
        return name in self.values

    def raw(self, name: str) -> Any:
        return self.values.get(name)

    def text(self, name: str) -> str:
        value = self.values[name]
        assert isinstance(value, str)
        return value

    def integer(self, name: str) -> int:
        value = self.values[name]
        assert isinstance(value, int)
        return value

    def number(self, name: str) -> float:
        value = self.values[name]
        assert isinstance(value, float)
        return value

    def optional_number(self, name: str) -> float | None:
        value = self.values.get(name)
        return None if value is None else float(value)

    def optional_integer(self, name: str) -> int | None:
        value = self.values.get(name)
        return None if value is None else int(value)

    def boolean(self, name: str) -> bool:
        value = self.values[name]
        assert isinstance(value, bool)
        return value

    def strings(self, name: str) -> tuple[str, ...] | None:
        value = self.values.get(name)
        return None if value is None else tuple(value)

    def patterns(self, name: str) -> tuple[CompiledPattern, ...]:
        return tuple(self.values[name])

    def fact_ref(self, name: str) -> FactRef:
        value = self.values[name]
        assert isinstance(value, FactRef)
        return value

    def scalar(self, name: str) -> FactValue:
        value: FactValue = self.values[name]
        return value


class RuleType(ABC):
    """Base class of every rule type, built-in or plugin.

    Subclasses declare ``name``, ``kind``, ``summary``, ``params``, ``codes``
    and ``main_code`` (the code a contract's ``code:`` field renames), and
    implement :meth:`evaluate`. Cross-parameter constraints go in
    :meth:`validate_options`, which reports problems instead of raising.
    """

    name: ClassVar[str]
    kind: ClassVar[Kind]
    summary: ClassVar[str]
    params: ClassVar[tuple[Param, ...]] = ()
    codes: ClassVar[tuple[Code, ...]] = ()
    main_code: ClassVar[str]
    segmenter: Segmenter = WORDS
    """What the rule cuts tokens with: word tokens unless its ``segmenter`` says otherwise.
    A rule whose segmenter depends on ICU's data makes reports record ``engine.icu``."""
    reads_surfaces_only: ClassVar[bool] = False
    """The type's declaration that a rule's checks are a pure function of its parameters and
    of the surfaces :meth:`surfaces_read` names — each one's name, text, state, anchors and
    origin, never its claims — and of nothing else: no context, no clock, no state kept
    between runs. A caller checking many documents may then reuse a rule's checks on one
    document for another whose read surfaces are equal. Never inherited: a subclass that
    does not set it in its own body is ``False`` (it may read more than its base)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "reads_surfaces_only" not in cls.__dict__:
            cls.reads_surfaces_only = False

    def __init__(self, header: RuleHeader, options: Options) -> None:
        self.header = header
        self.options = options
        self.view: ViewKey | None = view_key(options.raw("read"), options.raw("within"))
        """What the rule reads of a markup surface (SPEC §18); None: the raw text."""

    def surfaces_read(self, document: Document) -> tuple[str, ...] | None:
        """The names of the surfaces this rule's checks on ``document`` are a pure function
        of (with its parameters), or ``None`` when they may depend on anything else.

        ``None`` unless the type declares :attr:`reads_surfaces_only`; then every surface
        of the document, in order. A type reading fewer surfaces, or one whose parameters
        can make it read the context, says so by overriding this.
        """
        return document.names if type(self).reads_surfaces_only else None

    @classmethod
    def validate_options(cls, options: Mapping[str, Any]) -> list[ParamProblem]:
        """Constraints between parameters; ``options`` holds converted values (None: absent)."""
        del options
        return []

    @abstractmethod
    def evaluate(self, subject: Subject) -> Iterator[Check]:
        """Yield this rule's checks for one (document, context)."""

    @classmethod
    def param(cls, name: str) -> Param | None:
        for param in cls.params:
            if param.name == name:
                return param
        return None

    def check(
        self,
        status: Status,
        code: str,
        scope: str,
        message: str,
        *,
        evidence: Sequence[Mapping[str, Any]] = (),
        metrics: Mapping[str, int | float] | None = None,
    ) -> Check:
        """A check attributed to this rule; ``main_code`` becomes the contract's ``code:``."""
        header = self.header
        if code == self.main_code and header.code is not None:
            code = header.code
        return Check(
            rule_id=header.id,
            rule_version=header.version,
            type=header.type,
            kind=header.kind,
            status=status,
            code=code,
            scope=scope,
            severity=header.severity,
            enforcement=header.enforcement,
            evidence=tuple(evidence),
            metrics=dict(metrics or {}),
            message=message,
        )


class SurfaceRule(RuleType):
    """A rule that emits checks per surface, in its ``surfaces`` order or document order."""

    params: ClassVar[tuple[Param, ...]] = (SURFACES,)

    def surfaces(self, subject: Subject) -> Iterator[tuple[str, Surface | None]]:
        names = self.options.strings("surfaces")
        if names is None:
            for surface in subject.document.surfaces:
                yield surface.name, surface
        else:
            for name in names:
                yield name, subject.document.surface(name)

    def surfaces_read(self, document: Document) -> tuple[str, ...] | None:
        """The ``surfaces`` parameter's names, else every surface (when declared)."""
        if not type(self).reads_surfaces_only:
            return None
        names = self.options.strings("surfaces")
        return document.names if names is None else names

    def missing_surface(self, name: str) -> Check:
        return self.check(
            Status.ERROR,
            SURFACE_MISSING.name,
            f"surface:{name}",
            f"the document has no surface {name!r}",
        )

    def evaluate(self, subject: Subject) -> Iterator[Check]:
        for name, surface in self.surfaces(subject):
            if surface is None:
                yield self.missing_surface(name)
            else:
                yield from self.evaluate_surface(subject, surface)

    @abstractmethod
    def evaluate_surface(self, subject: Subject, surface: Surface) -> Iterator[Check]:
        """Checks for one present surface."""


class SegmentingRule(RuleType):
    """A rule that reads tokens, cut by its segmenter (``segmenter``, ``locale``: SPEC §19);
    its ``params`` include :data:`SEGMENTING_PARAMS`."""

    def __init__(self, header: RuleHeader, options: Options) -> None:
        super().__init__(header, options)
        self.segmenter = segmenter_of(options.values)

    @classmethod
    def validate_options(cls, options: Mapping[str, Any]) -> list[ParamProblem]:
        return segmenting_problems(options)


class TokenRule(SegmentingRule, SurfaceRule):
    """A surface rule over tokens, cut by its segmenter.

    Under the default word tokens, unspaced scripts make it undetermined (SPEC §4); the
    ``icu`` segmenter counts every script, so that refusal does not apply (SPEC §19).
    """

    params: ClassVar[tuple[Param, ...]] = (SURFACES, *SEGMENTING_PARAMS, READ, WITHIN)

    def unsupported_script(self, subject: Subject, surface: Surface) -> Check | None:
        if self.segmenter.every_script:
            return None
        share = subject.unsupported_share(surface, self.view)
        if share is None:
            return None
        names = ", ".join(name for name, _ in share.scripts)
        return self.check(
            Status.UNDETERMINED,
            UNSUPPORTED_SCRIPT.name,
            f"surface:{surface.name}",
            f"{share.share:.0%} of the letters are {names}, written without spaces; "
            "word tokens cannot be counted",
            evidence=[share.to_evidence()],
        )

    def evaluate_surface(self, subject: Subject, surface: Surface) -> Iterator[Check]:
        refusal = self.unsupported_script(subject, surface)
        if refusal is not None:
            yield refusal
        else:
            yield from self.evaluate_tokens(
                subject, surface, subject.tokens(surface, self.segmenter, self.view)
            )

    def token_set(self, subject: Subject, surface: Surface) -> frozenset[str]:
        """The surface's (view's) distinct tokens under this rule's segmenter."""
        return subject.token_set(surface, self.segmenter, self.view)

    @abstractmethod
    def evaluate_tokens(
        self, subject: Subject, surface: Surface, tokens: tuple[str, ...]
    ) -> Iterator[Check]:
        """Checks for one surface whose script is supported."""


MAX_EXCERPTS = 5


class PatternRule(SurfaceRule):
    """A surface rule that searches patterns under a time budget.

    Its patterns (:meth:`searched_patterns`) share one prefilter with the other pattern
    rules of its contract that read the same profile (:mod:`textcontract.rules._patterns`);
    :meth:`candidates` tells which of them can match a surface, :meth:`pattern_list` narrows
    one of its lists to those.
    """

    params: ClassVar[tuple[Param, ...]] = (SURFACES, ACCENT_FOLDING, TIMEOUT_MS, READ, WITHIN)

    def __init__(self, header: RuleHeader, options: Options) -> None:
        super().__init__(header, options)
        self._table: PatternTable | None = None
        self._lists: dict[int, PatternList] = {}

    @property
    def profile(self) -> Profile:
        return Profile.FOLDED if self.options.boolean("accent_folding") else Profile.TEXT

    def searched_patterns(self) -> tuple[CompiledPattern, ...]:
        """Every pattern the rule may search, for the shared prefilter (none by default)."""
        return ()

    def reuses_idle_checks(self) -> bool:
        """Whether, on a document where none of its patterns can match, the rule's checks
        depend on the document's surface names only (so the engine may reuse them)."""
        return False

    def use_table(self, table: PatternTable) -> None:
        """Search with ``table``'s prefilter, which holds every pattern of this rule."""
        self._table = table
        self._lists = {}

    @property
    def shared_table(self) -> PatternTable | None:
        """The table a contract gave this rule (None until one does)."""
        return self._table

    def _pattern_table(self) -> PatternTable:
        table = self._table
        if table is None:  # not compiled into a contract: a table of its own patterns
            table = self._table = PatternTable(
                self.searched_patterns(), self.profile, view=self.view
            )
        return table

    def candidates(self, subject: Subject, surface: Surface) -> Candidates:
        """Which patterns of the rule's table can match the surface (``None``: all)."""
        return subject.candidates(surface, self.profile, self._pattern_table(), self.view)

    def pattern_list(self, patterns: tuple[CompiledPattern, ...]) -> PatternList:
        """One of the rule's pattern lists (an attribute it keeps), ready for :meth:`select`."""
        found = self._lists.get(id(patterns))
        if found is None or found.patterns is not patterns:
            found = self._lists[id(patterns)] = self._pattern_table().patterns(patterns)
        return found

    def budget(self) -> Budget:
        return Budget(self.options.integer("timeout_ms"))

    def timeout(self, surface: Surface) -> Check:
        return self.check(
            Status.ERROR,
            PATTERN_TIMEOUT.name,
            f"surface:{surface.name}",
            f"pattern search exceeded {self.options.integer('timeout_ms')} ms; "
            "this result depends on the machine",
        )

    def located(
        self, subject: Subject, surface: Surface, hits: Sequence[PatternHit]
    ) -> list[dict[str, Any]]:
        """Evidence items of matches, quoting the original text (SPEC §10, §21).

        ``match`` and ``excerpt`` are the surface's original text at the match's location
        and around it; ``span`` and ``normalized`` are the match in the searched text.
        """
        spans = [(hit.start, hit.end) for hit in hits]
        places = subject.locate(surface, self.profile, spans, self.view)
        original = surface.text
        return [
            {
                "pattern": hit.pattern,
                "span": [hit.start, hit.end],
                "match": original[place.start : place.end],
                "normalized": hit.match,
                "excerpt": excerpt(original, place.start, place.end),
                "location": place.to_json(),
            }
            for hit, place in zip(hits, places, strict=True)
        ]

    @staticmethod
    def search(
        patterns: Sequence[CompiledPattern], text: str, budget: Budget, limit: int = MAX_EXCERPTS
    ) -> tuple[list[PatternHit], int]:
        """Up to ``limit`` excerpts and the total match count (raises PatternTimeout)."""
        found: list[PatternHit] = []
        total = 0
        for pattern in patterns:
            for match in find_matches(pattern.compiled, text, budget):
                total += 1
                if len(found) < limit:
                    found.append(_hit(pattern, match))
        return found, total

    @staticmethod
    def first_match(pattern: CompiledPattern, text: str, budget: Budget) -> PatternHit | None:
        for match in find_matches(pattern.compiled, text, budget):
            return _hit(pattern, match)
        return None


def pattern_name(source: str, patterns: Sequence[CompiledPattern], quote: str = "'") -> str:
    """One of a rule's patterns as a message names it: quoted whole when short, else by its
    number in ``patterns`` (from 1) and its first characters (``#2 '\\bas an? (?:ai|…'``)."""
    shown = shown_pattern(source)
    if shown == source:
        return f"{quote}{source}{quote}"
    number = next(index for index, pattern in enumerate(patterns, 1) if pattern.source == source)
    return f"#{number} {quote}{shown}{quote}"


def _hit(pattern: CompiledPattern, match: regex.Match[str]) -> PatternHit:
    return PatternHit(pattern.source, match.start(), match.end(), match.group())
