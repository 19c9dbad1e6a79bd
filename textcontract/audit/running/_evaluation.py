"""Evaluating one case's baseline and trials, sharing text work between them.

The trials of a case are mostly the baseline with a claim, a fact or a few words
changed, so most of their surfaces carry the very text the baseline has. A
:class:`TextMemo` lives for one case and remembers what rules derive from a text
alone — its normalized profiles and their offset maps, lines, word tokens, token set,
script share — so each distinct text is normalized and tokenized once per case instead of
once per trial. A rule whose type declares that it reads surfaces only runs once per
distinct set of surfaces it reads, its checks shared by the other trials
(:class:`~textcontract.audit.running._check_sharing.SharedChecks`); every other rule runs
for every trial.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from textcontract._lines import LineCounter
from textcontract.audit.reading import Expectation, Relation, Trial
from textcontract.audit.results import (
    TrialResult,
    control_trial,
    failed_trial,
    violation_trial,
)
from textcontract.audit.running._check_sharing import SharedChecks
from textcontract.audit.running._rule_cache import RuleResults
from textcontract.contract import ParsedContract
from textcontract.engine import run_rule
from textcontract.model import Check, Context, Document, Surface, is_accepted, is_complete
from textcontract.rules import RuleType, Subject, ViewKey
from textcontract.text import WORDS, Layout, OffsetMap, Profile, ScriptShare, Segmenter

MemoKey = tuple[str] | tuple[str, str, ViewKey]
"""A surface's raw text, or its text, format and a view of it."""

__all__ = [
    "Judgement",
    "TextMemo",
    "check_trial",
    "check_trial_cached",
    "evaluate_trials",
]


class TextMemo:
    """Per-text results shared by the check runs of one case (pure functions of the text)."""

    __slots__ = (
        "histories",
        "layouts",
        "line_counters",
        "normalized",
        "offset_maps",
        "shares",
        "token_sets",
        "tokens",
        "unsupported",
    )

    def __init__(self) -> None:
        self.normalized: dict[tuple[MemoKey, Profile], str] = {}
        self.offset_maps: dict[tuple[MemoKey, Profile], OffsetMap] = {}
        self.line_counters: dict[str, LineCounter] = {}
        self.tokens: dict[tuple[MemoKey, Segmenter], tuple[str, ...]] = {}
        self.token_sets: dict[tuple[MemoKey, Segmenter], frozenset[str]] = {}
        self.shares: dict[MemoKey, ScriptShare] = {}
        self.unsupported: dict[MemoKey, ScriptShare | None] = {}
        self.layouts: dict[tuple[str, str], Layout] = {}
        self.histories: dict[tuple[tuple[str, ...], Segmenter], dict[tuple[str, ...], int]] = {}


class _MemoSubject(Subject):
    """A :class:`Subject` that looks each text up in the case's memo before deriving it.

    A text is known by the surface's text and, for a view (SPEC §18), its format and the
    view: trials that share a surface's text share its parse, views and tokens.
    """

    __slots__ = ("_memo",)

    def __init__(self, document: Document, context: Context, memo: TextMemo) -> None:
        super().__init__(document, context)
        self._memo = memo

    def _key(self, surface: Surface, view: ViewKey | None) -> MemoKey:
        view = self.reads(surface, view)
        return (surface.text,) if view is None else (surface.text, surface.format, view)

    def layout(self, surface: Surface) -> Layout:
        key = (surface.text, surface.format)
        found = self._memo.layouts.get(key)
        if found is None:
            found = self._memo.layouts[key] = super().layout(surface)
        return found

    def normalized(self, surface: Surface, profile: Profile, view: ViewKey | None = None) -> str:
        key = (self._key(surface, view), profile)
        found = self._memo.normalized.get(key)
        if found is None:
            found = self._memo.normalized[key] = super().normalized(surface, profile, view)
        return found

    def offset_map(
        self, surface: Surface, profile: Profile, view: ViewKey | None = None
    ) -> OffsetMap:
        key = (self._key(surface, view), profile)
        found = self._memo.offset_maps.get(key)
        if found is None:
            found = self._memo.offset_maps[key] = super().offset_map(surface, profile, view)
        return found

    def line_counter(self, surface: Surface) -> LineCounter:
        found = self._memo.line_counters.get(surface.text)
        if found is None:
            found = self._memo.line_counters[surface.text] = super().line_counter(surface)
        return found

    def tokens(
        self, surface: Surface, segmenter: Segmenter = WORDS, view: ViewKey | None = None
    ) -> tuple[str, ...]:
        key = (self._key(surface, view), segmenter)
        found = self._memo.tokens.get(key)
        if found is None:
            found = self._memo.tokens[key] = super().tokens(surface, segmenter, view)
        return found

    def token_set(
        self, surface: Surface, segmenter: Segmenter = WORDS, view: ViewKey | None = None
    ) -> frozenset[str]:
        key = (self._key(surface, view), segmenter)
        found = self._memo.token_sets.get(key)
        if found is None:
            found = self._memo.token_sets[key] = super().token_set(surface, segmenter, view)
        return found

    def script_share(self, surface: Surface, view: ViewKey | None = None) -> ScriptShare:
        key = self._key(surface, view)
        found = self._memo.shares.get(key)
        if found is None:
            found = self._memo.shares[key] = super().script_share(surface, view)
        return found

    def unsupported_share(
        self, surface: Surface, view: ViewKey | None = None
    ) -> ScriptShare | None:
        memo = self._memo.unsupported
        key = self._key(surface, view)
        if key not in memo:
            memo[key] = super().unsupported_share(surface, view)
        return memo[key]

    def history_index(self, segmenter: Segmenter = WORDS) -> dict[tuple[str, ...], int]:
        key = (self.context.history, segmenter)
        found = self._memo.histories.get(key)
        if found is None:
            found = self._memo.histories[key] = super().history_index(segmenter)
        return found


class Judgement(NamedTuple):
    """The checks of one run and what the report would say of them (no digests taken)."""

    checks: tuple[Check, ...]
    accepted: bool
    complete: bool


def check_trial(
    parsed: ParsedContract,
    document: Document,
    context: Context,
    memo: TextMemo,
    shared: SharedChecks | None = None,
) -> Judgement:
    """What ``engine.evaluate`` decides, without the report's input digests the audit never reads.

    Every rule runs isolated by :func:`run_rule`, exactly as in a ``check`` — except that a
    rule ``shared`` holds checks for, on the surfaces it reads, takes those.
    """
    subject = _MemoSubject(document, context, memo)
    checks: list[Check] = []
    for index, rule in enumerate(parsed.rules):
        checks.extend(_rule_checks(rule, index, subject, shared))
    return _judged(parsed, tuple(checks))


def check_trial_cached(
    parsed: ParsedContract,
    document: Document,
    context: Context,
    memo: TextMemo,
    cached: RuleResults,
    shared: SharedChecks | None = None,
) -> Judgement:
    """:func:`check_trial` where a rule whose result on this trial is cached is not run.

    Its checks come from the cache; the subject derives text lazily, so no text work is
    done for it. The other rules run as in :func:`check_trial`, sharing one subject; each
    result, shared or not, is added to the cache under this trial's key.
    """
    subject = _MemoSubject(document, context, memo)
    trial = cached.trial(document, context)
    checks: list[Check] = []
    for index, rule in enumerate(parsed.rules):
        found = trial.lookup(index)
        if found is None:
            found = _rule_checks(rule, index, subject, shared)
            trial.add(index, found)
        checks.extend(found)
    return _judged(parsed, tuple(checks))


def _rule_checks(
    rule: RuleType, index: int, subject: Subject, shared: SharedChecks | None
) -> list[Check]:
    """The rule's checks: shared from a trial that read the same surfaces, else run."""
    key = None if shared is None else shared.key(index, subject.document)
    if shared is None or key is None:
        return run_rule(rule, subject)
    found = shared.find(key)
    if found is None:
        found = run_rule(rule, subject)
        shared.keep(key, found)
    return found


def _judged(parsed: ParsedContract, checks: tuple[Check, ...]) -> Judgement:
    return Judgement(checks, is_accepted(checks, parsed.policy), is_complete(checks))


def _check(
    parsed: ParsedContract,
    trial: Trial,
    memo: TextMemo,
    cached: RuleResults | None,
    shared: SharedChecks | None,
) -> Judgement:
    if cached is None:
        return check_trial(parsed, trial.document, trial.context, memo, shared)
    return check_trial_cached(parsed, trial.document, trial.context, memo, cached, shared)


def evaluate_trials(
    parsed: ParsedContract,
    relation: Relation,
    expect: tuple[Expectation, ...],
    trials: Sequence[Trial],
    memo: TextMemo,
    cached: RuleResults | None = None,
    shared: SharedChecks | None = None,
) -> tuple[TrialResult, ...]:
    """Every trial of a variant, each reduced at once to what the figures need.

    An exception raised while evaluating a trial outside any rule (rules are
    isolated by :func:`run_rule`) makes that trial ``infrastructure-error``; the
    others go on.
    """
    results = []
    for index, trial in enumerate(trials):
        try:
            judged = _check(parsed, trial, memo, cached, shared)
        except Exception:  # the engine isolates rules; anything else spoils only this trial
            results.append(failed_trial(index, relation, len(expect)))
            continue
        if relation is Relation.VIOLATION:
            results.append(violation_trial(index, judged, expect))
        else:
            results.append(control_trial(index, judged))
    return tuple(results)
