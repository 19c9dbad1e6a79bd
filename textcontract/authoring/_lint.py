"""``textcontract lint``: rules that look fine to the loader but cannot work as written.

Codes:

* ``DEAD_PATTERN`` — a pattern holds a literal that the rule's normalization
  profile removes or rewrites, so the normalized text never contains it
  (see :mod:`textcontract.authoring._dead`).
* ``NEVER_HOLDS`` — the parameters make the rule impossible to satisfy:
  TokenRange ``min`` above ``max``; MinimumTokens ``minimum_unique`` above
  ``minimum``; LexicalRestatement, StateChanged or AllowedTransition comparing
  a surface or fact with itself in a way that cannot pass; a surface name that
  no document can provide.
* ``NEVER_VIOLATED`` — the parameters make the rule impossible to violate, so
  it guards nothing: a zero minimum, a threshold of 1, a fact compared with
  itself.

Warnings name the file, line and column of the rule (included packs keep their
own file name). Lint never evaluates a document.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from textcontract.authoring._dead import dead_literals
from textcontract.authoring._surfaces import declared_surfaces
from textcontract.contract import ParsedContract, RuleEntry
from textcontract.errors import Location, render_key_path
from textcontract.model import NAME_PATTERN, same_value
from textcontract.rules import CompiledPattern, Options
from textcontract.text import Profile

__all__ = [
    "DEAD_PATTERN",
    "LINT_CODES",
    "NEVER_HOLDS",
    "NEVER_VIOLATED",
    "LintWarning",
    "lint_contract",
    "lint_contracts",
    "lint_entry",
    "lint_json",
]

DEAD_PATTERN = "DEAD_PATTERN"
NEVER_HOLDS = "NEVER_HOLDS"
NEVER_VIOLATED = "NEVER_VIOLATED"
LINT_CODES = (DEAD_PATTERN, NEVER_HOLDS, NEVER_VIOLATED)


@dataclass(frozen=True)
class LintWarning:
    """One warning about one rule; ``field`` is the parameter path, when there is one."""

    code: str
    rule_id: str
    location: Location
    field: str | None
    message: str

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "rule": self.rule_id,
            "file": self.location.file,
            "line": self.location.line,
            "column": self.location.column,
            "field": self.field,
            "message": self.message,
        }


_Finding = tuple[str, str | None, str]
_PROFILE_NAMES = {
    Profile.FOLDED: "accent folding (profile folded)",
    Profile.TEXT: "normalization (profile text)",
}


def _patterns(
    value: object, path: tuple[str | int, ...]
) -> Iterator[tuple[tuple[str | int, ...], CompiledPattern]]:
    if isinstance(value, CompiledPattern):
        yield path, value
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from _patterns(item, (*path, str(key)))
    elif isinstance(value, tuple | list):
        for index, item in enumerate(value):
            yield from _patterns(item, (*path, index))


def _profile(options: Options) -> Profile:
    folded = options.has("accent_folding") and options.raw("accent_folding") is True
    return Profile.FOLDED if folded else Profile.TEXT


def _dead_patterns(entry: RuleEntry) -> Iterator[_Finding]:
    options = entry.rule.options
    profile = _profile(options)
    for name, value in options.values.items():
        for path, pattern in _patterns(value, (name,)):
            dead = dead_literals(pattern.source, profile)
            if not dead:
                continue
            field = render_key_path(path)
            details = "; ".join(item.describe() for item in dead)
            yield (
                DEAD_PATTERN,
                field,
                f"dead pattern: {field} {pattern.source!r}: {details} under "
                f"{_PROFILE_NAMES[profile]}, so normalized text never contains it "
                "(write the normalized form; case does not matter)",
            )


def _unprovidable_surfaces(entry: RuleEntry) -> Iterator[_Finding]:
    for param, name in declared_surfaces(entry.rule):
        if not NAME_PATTERN.match(name):
            yield (
                NEVER_HOLDS,
                param,
                f"no document can provide surface {name!r}: surface names match "
                "[a-z0-9][a-z0-9_.-]*",
            )


def _token_range(options: Options) -> Iterator[_Finding]:
    low, high = options.raw("min"), options.raw("max")
    if low is not None and high is not None and low > high:
        yield NEVER_HOLDS, "min", f"min ({low}) is above max ({high}): no token count is in range"
    elif not low and high is None:
        yield NEVER_VIOLATED, "min", "min 0 and no max: every token count is in range"


def _minimum_tokens(options: Options) -> Iterator[_Finding]:
    minimum, unique = options.raw("minimum"), options.raw("minimum_unique")
    if unique > minimum:
        yield (
            NEVER_HOLDS,
            "minimum_unique",
            f"minimum_unique ({unique}) is above minimum ({minimum}): distinct tokens never "
            f"outnumber tokens, so minimum {minimum} can never be the bound that holds; "
            f"raise minimum to {unique} or lower minimum_unique",
        )
    elif minimum == 0 and unique == 0:
        yield NEVER_VIOLATED, "minimum", "minimum and minimum_unique are 0: every surface passes"


def _lexical_diversity(options: Options) -> Iterator[_Finding]:
    if options.raw("min") == 0:
        yield NEVER_VIOLATED, "min", "min 0: every diversity ratio passes"


def _lexical_restatement(options: Options) -> Iterator[_Finding]:
    if options.raw("source") == options.raw("target"):
        yield (
            NEVER_HOLDS,
            "target",
            f"source and target are the same surface {options.raw('source')!r}: "
            "a surface always restates itself",
        )
    elif options.raw("overlap_threshold") >= 1:
        yield NEVER_VIOLATED, "overlap_threshold", "overlap_threshold 1: overlap never exceeds it"
    elif options.raw("minimum_novel_tokens") == 0:
        yield (
            NEVER_VIOLATED,
            "minimum_novel_tokens",
            "minimum_novel_tokens 0: the novel-token count is never below it",
        )


def _state_changed(options: Options) -> Iterator[_Finding]:
    if options.raw("before") == options.raw("after"):
        yield (
            NEVER_HOLDS,
            "after",
            f"before and after are the same snapshot {options.raw('before')!r}: nothing can change",
        )


def _compare_fields(options: Options) -> Iterator[_Finding]:
    if options.raw("left") == options.raw("right"):
        yield (
            NEVER_VIOLATED,
            "right",
            "left and right are the same fact: it always equals, and is never above, itself",
        )


def _allowed_transition(options: Options) -> Iterator[_Finding]:
    if options.raw("before") != options.raw("after"):
        return
    pairs = options.raw("allowed") or ()
    if not any(same_value(old, new) for old, new in pairs):
        yield (
            NEVER_HOLDS,
            "after",
            "before and after are the same fact, so the pair is always [v, v], "
            "and no allowed pair keeps its value",
        )


_PARAMETER_CHECKS: Mapping[str, Callable[[Options], Iterator[_Finding]]] = {
    "TokenRange": _token_range,
    "MinimumTokens": _minimum_tokens,
    "LexicalDiversity": _lexical_diversity,
    "LexicalRestatement": _lexical_restatement,
    "StateChanged": _state_changed,
    "CompareFields": _compare_fields,
    "AllowedTransition": _allowed_transition,
}


def lint_entry(entry: RuleEntry) -> list[LintWarning]:
    """Every warning about one configured rule, dead patterns first."""
    rule = entry.rule
    findings: list[_Finding] = [*_dead_patterns(entry), *_unprovidable_surfaces(entry)]
    check = _PARAMETER_CHECKS.get(rule.header.type)
    if check is not None:
        findings.extend(check(rule.options))
    return [
        LintWarning(code, rule.header.id, entry.location, field, message)
        for code, field, message in findings
    ]


def lint_contract(parsed: ParsedContract) -> tuple[LintWarning, ...]:
    """Every warning about ``parsed``'s rules (includes expanded), in rule order."""
    return tuple(warning for entry in parsed.entries for warning in lint_entry(entry))


def lint_contracts(parsed_contracts: Iterable[ParsedContract]) -> tuple[LintWarning, ...]:
    """Warnings of several contracts; a pack included by two is reported once."""
    seen: set[LintWarning] = set()
    found: list[LintWarning] = []
    for parsed in parsed_contracts:
        for warning in lint_contract(parsed):
            if warning not in seen:
                seen.add(warning)
                found.append(warning)
    return tuple(found)


def lint_json(warnings: Sequence[LintWarning]) -> dict[str, Any]:
    """The ``lint --format json`` document: counts per code (zeros too), then the warnings."""
    return {
        "lint_version": 1,
        "counts": {code: sum(1 for w in warnings if w.code == code) for code in LINT_CODES},
        "warnings": [warning.to_json() for warning in warnings],
    }
