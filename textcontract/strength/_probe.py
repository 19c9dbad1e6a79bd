"""Probes, their trial outcomes, and coverage gaps: the input of every scoring step."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from textcontract.fields import FieldReader, KeyPath
from textcontract.model import Severity
from textcontract.strength._states import OutcomeState, ProbeClass

__all__ = [
    "CoverageGap",
    "Probe",
    "ProbeRole",
    "ProbeTrials",
    "TrialOutcome",
    "control_preserved",
    "parse_probe",
    "read_coverage_gap",
    "read_probe",
    "read_trial_outcome",
]

PROBE_KEYS = ("probe_id", "class", "severity", "canary", "clean_control")


class ProbeRole(StrEnum):
    """What an admitted probe is for; only eligible probes enter the strength vector."""

    ELIGIBLE = "eligible"
    CANARY = "canary"
    CLEAN_CONTROL = "clean-control"


@dataclass(frozen=True)
class Probe:
    """One admitted probe as a probe file declares it: ``{probe_id, class, severity, ...}``."""

    probe_id: str
    probe_class: ProbeClass
    severity: Severity
    canary: bool = False
    clean_control: bool = False

    def __post_init__(self) -> None:
        if self.canary and self.clean_control:
            raise ValueError(f"probe {self.probe_id!r} cannot be both a canary and a control")

    @property
    def role(self) -> ProbeRole:
        if self.canary:
            return ProbeRole.CANARY
        if self.clean_control:
            return ProbeRole.CLEAN_CONTROL
        return ProbeRole.ELIGIBLE

    def to_json(self) -> dict[str, Any]:
        return {
            "probe_id": self.probe_id,
            "class": self.probe_class.value,
            "severity": self.severity.value,
            "canary": self.canary,
            "clean_control": self.clean_control,
        }


@dataclass(frozen=True)
class TrialOutcome:
    """The state one trial of a probe resolved to; ``oracle`` is ``None`` when synthesised."""

    trial_index: int
    oracle: str | None
    state: OutcomeState

    def to_json(self) -> dict[str, Any]:
        return {"trial_index": self.trial_index, "oracle": self.oracle, "state": self.state.value}


@dataclass(frozen=True)
class ProbeTrials:
    """An admitted probe with every completed trial's outcome, sorted by trial index.

    Every outcome is one completed trial, whatever its state. Trial indexes are unique.
    """

    probe: Probe
    outcomes: tuple[TrialOutcome, ...]

    def __post_init__(self) -> None:
        ordered = tuple(sorted(self.outcomes, key=lambda outcome: outcome.trial_index))
        indexes = [outcome.trial_index for outcome in ordered]
        if len(set(indexes)) != len(indexes):
            raise ValueError(f"probe {self.probe.probe_id!r} repeats a trial index")
        object.__setattr__(self, "outcomes", ordered)

    @property
    def trials_completed(self) -> int:
        return len(self.outcomes)

    @property
    def unreached_oracles(self) -> frozenset[str]:
        """Oracle ids of unreached trials; a synthesised trial has no id to name."""
        return frozenset(
            outcome.oracle
            for outcome in self.outcomes
            if outcome.state is OutcomeState.UNREACHED and outcome.oracle is not None
        )

    @property
    def has_unreached_trial(self) -> bool:
        return any(outcome.state is OutcomeState.UNREACHED for outcome in self.outcomes)


def control_preserved(outcomes: Iterable[TrialOutcome]) -> bool:
    """A clean control is preserved iff strictly more than half of its trials passed clean.

    The audit maps a control trial that was accepted and complete to
    ``passed-clean-control``, so this one rule serves both the audit and ``score``.
    """
    states = [outcome.state for outcome in outcomes]
    passed = sum(1 for state in states if state is OutcomeState.PASSED_CLEAN_CONTROL)
    return 2 * passed > len(states)


@dataclass(frozen=True)
class CoverageGap:
    """A contract rule that no eligible probe targets (found by the caller, e.g. the audit)."""

    rule: str
    severity: Severity

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "severity": self.severity.value}


def read_probe(reader: FieldReader, value: Any, path: KeyPath) -> Probe:
    """Read a probe object; problems go to ``reader``."""
    fields = reader.mapping(value, path, required=PROBE_KEYS)
    probe_id = reader.string(fields["probe_id"], (*path, "probe_id"))
    probe_class = reader.choice(fields["class"], (*path, "class"), ProbeClass)
    severity = reader.choice(fields["severity"], (*path, "severity"), Severity)
    canary = reader.boolean(fields["canary"], (*path, "canary"))
    clean_control = reader.boolean(fields["clean_control"], (*path, "clean_control"))
    if canary and clean_control:
        reader.problem(path, "a probe cannot be both a canary and a clean control")
        clean_control = False
    return Probe(probe_id, probe_class, severity, canary, clean_control)


def read_trial_outcome(reader: FieldReader, value: Any, path: KeyPath) -> TrialOutcome:
    fields = reader.mapping(value, path, required=("trial_index", "oracle", "state"))
    return TrialOutcome(
        reader.integer(fields["trial_index"], (*path, "trial_index"), minimum=0),
        reader.optional_string(fields["oracle"], (*path, "oracle")),
        reader.choice(fields["state"], (*path, "state"), OutcomeState),
    )


def read_coverage_gap(reader: FieldReader, value: Any, path: KeyPath) -> CoverageGap:
    fields = reader.mapping(value, path, required=("rule", "severity"))
    return CoverageGap(
        reader.string(fields["rule"], (*path, "rule")),
        reader.choice(fields["severity"], (*path, "severity"), Severity),
    )


def parse_probe(obj: Any, source: str | None) -> Probe:
    """Validate a probe file's content (``score --probe``)."""
    reader = FieldReader(source)
    probe = read_probe(reader, obj, ())
    reader.raise_if_problems()
    return probe
