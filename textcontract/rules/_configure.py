"""Turn a rule's raw parameters into :class:`Options`, using only its declarations."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from textcontract.rules._base import Options, RuleType
from textcontract.rules._params import (
    ABSENT,
    VIEW_PARAMS,
    ParamProblem,
    unknown_param,
    view_problems,
)

_VIEW_NAMES = tuple(param.name for param in VIEW_PARAMS)

__all__ = ["Configured", "configure_options"]


@dataclass(frozen=True)
class Configured:
    """Converted options, the JSON form with defaults filled in (for the digest), problems."""

    options: Options
    resolved: dict[str, Any]
    problems: tuple[ParamProblem, ...]


def configure_options(
    rule_type: type[RuleType], raw: Mapping[str, Any], other_fields: Sequence[str] = ()
) -> Configured:
    """Validate ``raw`` (parameters only, common fields removed) against the declarations.

    Unknown names get a "did you mean" hint drawn from the parameters and
    ``other_fields`` (the common rule fields); every problem is collected, every
    invalid item of a list too. Each problem's ``path`` starts with the parameter name;
    a missing required parameter has an empty path (it concerns the rule).
    """
    declared = {param.name: param for param in rule_type.params}
    known = [*declared, *other_fields]
    problems = [_undeclared(rule_type, name, known) for name in raw if name not in declared]
    values: dict[str, Any] = {}
    resolved: dict[str, Any] = {}
    for name, param in declared.items():
        if name in raw:
            try:
                values[name] = param.convert(raw[name])
                resolved[name] = raw[name]
            except ParamProblem as problem:
                problems.extend(problem.inside(name).each())
        elif param.required:
            problems.append(ParamProblem(f"missing required key {name!r}"))
        elif param.default is not ABSENT:
            values[name] = param.default
            resolved[name] = param.default
    if not problems:
        problems.extend(view_problems(values))
        problems.extend(rule_type.validate_options(values))
    return Configured(Options(values), resolved, tuple(problems))


def _undeclared(rule_type: type[RuleType], name: str, known: Sequence[str]) -> ParamProblem:
    if name in _VIEW_NAMES:
        return ParamProblem(
            f"{name!r} is for rules that read surface text; {rule_type.name} reads none",
            (name,),
        )
    return unknown_param(name, known)
