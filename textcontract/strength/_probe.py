"""Probes, their trial outcomes, and coverage gaps: the input of every scoring step."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from textcontract.fields import MISSING, FieldReader, KeyPath
from textcontract.model import Severity
from textcontract.strength._states import Exposure, OutcomeState, ProbeClass

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
"""The keys of a probe file; ``exposure`` may follow (SPEC §17.6, default ``known``)."""
EXPOSURE = "exposure"


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
    exposure: Exposure = Exposure.KNOWN

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
            "exposure": self.exposure.value,
        }


@dataclass(frozen=True)
class TrialOutcome:
    """The state one trial of a probe resolved to; ``oracle`` is ``None`` when synthesised.

    ``waiver`` names the waiver that made the trial ``not-applicable`` (SPEC §17.4).
    """

    trial_index: int
    oracle: str | None
    state: OutcomeState
    waiver: str | None = None

    def __post_init__(self) -> None:
        if self.waiver is not None and self.state is not OutcomeState.NOT_APPLICABLE:
            raise ValueError("only a not-applicable trial can carry a waiver")

    def to_json(self) -> dict[str, Any]:
        return {
            "trial_index": self.trial_index,
            "oracle": self.oracle,
            "state": self.state.value,
            "waiver": self.waiver,
        }


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

    @property
    def waived(self) -> bool:
        """At least one trial was waived (SPEC §17.4)."""
        return any(outcome.waiver is not None for outcome in self.outcomes)

    @property
    def waivers(self) -> tuple[str, ...]:
        """The sorted ids of the waivers this probe's outcomes name."""
        return tuple(sorted({o.waiver for o in self.outcomes if o.waiver is not None}))


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


def read_probe(
    reader: FieldReader, value: Any, path: KeyPath, *, exposure: bool | None = False
) -> Probe:
    """Read a probe object; problems go to ``reader``.

    ``exposure``: ``True`` requires the key, ``None`` allows it (default ``known``),
    ``False`` refuses it (a version-1 file).
    """
    if exposure is True:
        fields = reader.mapping(value, path, required=(*PROBE_KEYS, EXPOSURE))
    elif exposure is None:
        fields = reader.mapping(value, path, required=PROBE_KEYS, optional=(EXPOSURE,))
    else:
        fields = reader.mapping(value, path, required=PROBE_KEYS)
    probe_id = reader.string(fields["probe_id"], (*path, "probe_id"))
    probe_class = reader.choice(fields["class"], (*path, "class"), ProbeClass)
    severity = reader.choice(fields["severity"], (*path, "severity"), Severity)
    canary = reader.boolean(fields["canary"], (*path, "canary"))
    clean_control = reader.boolean(fields["clean_control"], (*path, "clean_control"))
    if canary and clean_control:
        reader.problem(path, "a probe cannot be both a canary and a clean control")
        clean_control = False
    declared = reader.choice(
        fields.get(EXPOSURE, MISSING), (*path, EXPOSURE), Exposure, Exposure.KNOWN
    )
    return Probe(probe_id, probe_class, severity, canary, clean_control, declared)


def read_trial_outcome(
    reader: FieldReader, value: Any, path: KeyPath, *, waiver: bool = False
) -> TrialOutcome:
    """A trial outcome; with ``waiver`` (version 2) the ``waiver`` key is required."""
    keys = (
        ("trial_index", "oracle", "state", "waiver")
        if waiver
        else ("trial_index", "oracle", "state")
    )
    fields = reader.mapping(value, path, required=keys)
    state = reader.choice(fields["state"], (*path, "state"), OutcomeState)
    named = reader.optional_string(fields.get("waiver"), (*path, "waiver"))
    if named is not None and state is not OutcomeState.NOT_APPLICABLE:
        reader.problem((*path, "waiver"), "only a not-applicable trial can carry a waiver")
        named = None
    return TrialOutcome(
        reader.integer(fields["trial_index"], (*path, "trial_index"), minimum=0),
        reader.optional_string(fields["oracle"], (*path, "oracle")),
        state,
        named,
    )


def read_coverage_gap(reader: FieldReader, value: Any, path: KeyPath) -> CoverageGap:
    fields = reader.mapping(value, path, required=("rule", "severity"))
    return CoverageGap(
        reader.string(fields["rule"], (*path, "rule")),
        reader.choice(fields["severity"], (*path, "severity"), Severity),
    )


def parse_probe(obj: Any, source: str | None) -> Probe:
    """Validate a probe file's content (``score --probe``); ``exposure`` is optional."""
    reader = FieldReader(source)
    probe = read_probe(reader, obj, (), exposure=None)
    reader.raise_if_problems()
    return probe
