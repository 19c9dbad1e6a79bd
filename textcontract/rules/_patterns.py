"""One prefilter for all the pattern rules of a contract that read one normalization profile.

At compile time :func:`share_patterns` collects every pattern of every pattern rule, groups
them by the profile their rule searches (``text`` or ``folded``), and gives each group one
:class:`PatternTable`: the distinct patterns in first-seen order and one
:class:`~textcontract.text.LiteralPrefilter` over them (its RE2 sets built once the
contract has searched :data:`PREFILTER_AFTER` pattern-characters in full). At check time
the :class:`~textcontract.rules.Subject` asks each table once per surface which of its
patterns can match that surface's text (:meth:`Subject.candidates`); every rule then
searches only its own candidates, in its own order, under its own time budget. A rule
that no contract has shared a table with (a rule built by hand, a test) gets a table of its
own patterns on first use (built at once), so it behaves the same, only alone.

Patterns are the same pattern when their source and flags are (two rules listing
``\\brefund\\b`` share its literal and its verdict). A pattern the prefilter rules out cannot
match, so results — matches, counts, spans, excerpts — are those of searching every pattern.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from textcontract.model import Check, Status
from textcontract.rules._params import CompiledPattern
from textcontract.text import LiteralPrefilter, Profile

if TYPE_CHECKING:
    from textcontract.rules._base import PatternRule, RuleType
    from textcontract.rules._subject import Subject, ViewKey

__all__ = [
    "Candidates",
    "IdleChecks",
    "PatternList",
    "PatternTable",
    "idle_checks",
    "share_patterns",
]

Candidates = frozenset[int] | None
"""Indexes into a table of the patterns that can match a text; ``None``: all of them."""


def _key(pattern: CompiledPattern) -> tuple[str, int]:
    return pattern.compiled.pattern, pattern.compiled.flags


PREFILTER_AFTER = 100_000
"""Pattern-characters a contract's prefilter lets be searched in full before it builds its RE2
sets. Building imports google-re2 and the reader of pattern syntax (17 ms) and compiles the
sets, which a cold ``check`` of one short document never gets back (its searches cost
microseconds): such a check stays below this (a document of up to 20,000 characters against
five patterns), while a run of more than a few dozen documents passes it early — and so
holds the sets whether it checks 100 documents or 10,000 (SPEC §11 compares their peak
memory). One long text with many patterns passes it at once."""

_MAX_SHAPES = 16
"""Surface-name lists of documents whose idle checks a table keeps (see :class:`IdleChecks`)."""


class PatternTable:
    """The distinct patterns of some rules, indexed, with one prefilter over them."""

    __slots__ = ("_idle", "_index", "_reads", "_rules_of", "prefilter", "profile", "view")

    def __init__(
        self,
        patterns: Iterable[CompiledPattern],
        profile: Profile = Profile.FOLDED,
        build_after: int = 0,
        view: ViewKey | None = None,
    ) -> None:
        self.profile = profile
        self.view = view  # the text its rules search: a surface's raw text or this view
        self._index: dict[tuple[str, int], int] = {}
        distinct: list[CompiledPattern] = []
        for pattern in patterns:
            key = _key(pattern)
            if key not in self._index:
                self._index[key] = len(distinct)
                distinct.append(pattern)
        self.prefilter = LiteralPrefilter([pattern.compiled for pattern in distinct], build_after)
        # Filled by share_patterns: the rules holding each pattern, the surfaces they read
        # (None: every surface of a document), and their idle checks per surface-name list.
        self._rules_of: dict[int, tuple[PatternRule, ...]] = {}
        self._reads: frozenset[str] | None = frozenset()
        self._idle: dict[tuple[str, ...], dict[RuleType, tuple[Check, ...]]] = {}

    def _hold(self, rules: Sequence[PatternRule]) -> None:
        holders: dict[int, list[PatternRule]] = {}
        reads: set[str] | None = set()
        for rule in rules:
            for pattern in rule.searched_patterns():
                found = holders.setdefault(self.index(pattern), [])
                if rule not in found:
                    found.append(rule)
            names = rule.options.strings("surfaces")
            reads = None if names is None or reads is None else reads | set(names)
        self._rules_of = {slot: tuple(found) for slot, found in holders.items()}
        self._reads = None if reads is None else frozenset(reads)

    def busy(self, subject: Subject) -> set[RuleType] | None:
        """The rules of this table with a pattern that can match some surface they may read
        (``None``: every rule); the others search nothing in this document."""
        busy: set[RuleType] = set()
        reads = self._reads
        for surface in subject.document.surfaces:
            if reads is not None and surface.name not in reads:
                continue
            chosen = subject.candidates(surface, self.profile, self, self.view)
            if chosen is None:
                return None
            for slot in chosen:
                busy.update(self._rules_of.get(slot, ()))
        return busy

    def idle(self, names: tuple[str, ...]) -> dict[RuleType, tuple[Check, ...]]:
        """The idle checks known for documents with these surface names (kept for a few)."""
        found = self._idle.get(names)
        if found is None:
            found = {}
            if len(self._idle) < _MAX_SHAPES:
                self._idle[names] = found
        return found

    def __getstate__(self) -> tuple[None, dict[str, object]]:
        # A contract sent to a worker process takes its patterns, not what it has seen.
        state = {name: getattr(self, name) for name in self.__slots__}
        state["_idle"] = {}
        return None, state

    def __len__(self) -> int:
        return len(self._index)

    def index(self, pattern: CompiledPattern) -> int:
        return self._index[_key(pattern)]

    def candidates(self, text: str) -> Candidates:
        """The patterns of this table that can match ``text`` (normalized as they expect)."""
        return self.prefilter.candidates(text)

    def patterns(self, patterns: Sequence[CompiledPattern]) -> PatternList:
        """``patterns`` (all in this table) ready to be narrowed to candidates quickly."""
        return PatternList(tuple(patterns), tuple(self.index(pattern) for pattern in patterns))


class PatternList:
    """One list of a rule's patterns, with each pattern's index in its table."""

    __slots__ = ("_positions", "_slots", "patterns")

    def __init__(self, patterns: tuple[CompiledPattern, ...], slots: tuple[int, ...]) -> None:
        self.patterns = patterns
        self._slots = slots
        positions: dict[int, list[int]] = {}
        for position, slot in enumerate(slots):
            positions.setdefault(slot, []).append(position)
        self._positions = {slot: tuple(found) for slot, found in positions.items()}

    def select(self, chosen: Candidates) -> Sequence[CompiledPattern]:
        """The patterns among ``chosen``, in list order (every pattern for ``None``)."""
        if chosen is None:
            return self.patterns
        if len(chosen) * 4 < len(self._slots):  # few candidates: look only them up
            positions = self._positions
            found = sorted(p for slot in chosen if slot in positions for p in positions[slot])
            return [self.patterns[position] for position in found]
        return [
            pattern
            for pattern, slot in zip(self.patterns, self._slots, strict=True)
            if slot in chosen
        ]

    def contains_any(self, chosen: Candidates) -> bool:
        """Whether any pattern of the list is among ``chosen``."""
        if chosen is None:
            return bool(self.patterns)
        if len(chosen) < len(self._slots):
            return any(slot in self._positions for slot in chosen)
        return any(slot in chosen for slot in self._slots)


def share_patterns(rules: Iterable[object]) -> None:
    """Give the pattern rules among ``rules`` one table per profile and view they search."""
    from textcontract.rules._base import PatternRule

    grouped: dict[tuple[Profile, ViewKey | None], list[PatternRule]] = {}
    for rule in rules:
        if isinstance(rule, PatternRule) and rule.searched_patterns():
            grouped.setdefault((rule.profile, rule.view), []).append(rule)
    for (profile, view), members in grouped.items():
        patterns = (p for rule in members for p in rule.searched_patterns())
        table = PatternTable(patterns, profile, build_after=PREFILTER_AFTER, view=view)
        table._hold(members)
        for rule in members:
            rule.use_table(table)


class IdleChecks:
    """What the rules of a contract whose patterns cannot match a document would say.

    A rule that reuses its idle checks (:meth:`PatternRule.reuses_idle_checks`: a
    ForbiddenPattern, whose verdict on a surface where none of its patterns can match is
    "satisfied, 0 matches", whatever the text) yields the same checks for every document
    with the same surface names on which it searches nothing. The engine runs such a rule
    on the first of those documents, as always, and keeps its checks in the rule's table;
    for the next ones it takes them from there. That spares a contract of a thousand
    one-word rules a thousand rule runs per document, leaving the one prefilter pass.
    """

    __slots__ = ("_busy", "_known", "_names", "_tables")

    def __init__(self, tables: Sequence[PatternTable], subject: Subject) -> None:
        self._names = subject.document.names
        self._tables: list[PatternTable] = []
        self._busy: set[RuleType] = set()
        self._known: list[dict[RuleType, tuple[Check, ...]]] = []
        for table in tables:
            busy = table.busy(subject)
            if busy is not None:  # else every rule of the table runs
                self._tables.append(table)
                self._busy |= busy
                self._known.append(table.idle(self._names))

    def get(self, rule: RuleType) -> tuple[Check, ...] | None:
        """The rule's checks if it searches nothing here and has run so before."""
        if rule in self._busy:
            return None
        for known in self._known:
            found = known.get(rule)
            if found is not None:
                return found
        return None

    def learn(self, rule: RuleType, checks: Sequence[Check]) -> None:
        """Keep the checks of a rule that ran while searching nothing, if it reuses them."""
        from textcontract.rules._base import PatternRule

        if not isinstance(rule, PatternRule) or rule in self._busy:
            return
        table = rule.shared_table
        if table in self._tables and rule.reuses_idle_checks() and _plain(checks):
            table.idle(self._names)[rule] = tuple(checks)


def _plain(checks: Sequence[Check]) -> bool:
    """Whether ``checks`` are those of a rule that searched nothing: each surface satisfied or
    missing. A ``RULE_ERROR`` (the rule raised, say, out of memory) is never reused."""
    from textcontract.rules._base import SURFACE_MISSING

    return all(
        check.status is Status.SATISFIED or check.code == SURFACE_MISSING.name for check in checks
    )


def idle_checks(tables: Sequence[PatternTable], subject: Subject) -> IdleChecks | None:
    """The idle checks of the rules of ``tables`` for ``subject`` (None without tables)."""
    return IdleChecks(tables, subject) if tables else None
