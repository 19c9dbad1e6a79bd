"""The strength vector: one catch rate per probe class, never a single weighted number."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from textcontract.strength._probe import ProbeRole, ProbeTrials
from textcontract.strength._reduce import ReducedOutcome
from textcontract.strength._states import ProbeClass

__all__ = ["ClassStrength", "StrengthVector", "build_strength_vector", "is_comparable"]


def _plural(count: int, singular: str, plural: str | None = None) -> str:
    return f"{count} {singular if count == 1 else plural or singular + 's'}"


def denominator_sentence(
    probe_class: ProbeClass, caught: int, exercised: int, eligible: int, trials: int
) -> str:
    """An informative sentence naming the counts behind a rate (never parsed back)."""
    if eligible == 0:
        return f"no eligible {probe_class.value} probe"
    unexercised = eligible - exercised
    return (
        f"{caught} caught of {_plural(exercised, f'exercised {probe_class.value} probe')}"
        f" ({unexercised} eligible unexercised; {_plural(trials, 'completed trial')})"
    )


@dataclass(frozen=True)
class ClassStrength:
    """One component of the vector. ``rate`` is ``None`` when nothing was exercised."""

    probe_class: ProbeClass
    eligible: int
    caught: int
    exercised: int
    rate: float | None
    denominator: str

    @property
    def unexercised(self) -> int:
        return self.eligible - self.exercised

    def same_counts(self, other: ClassStrength) -> bool:
        """Equal in every recomputable field (the denominator sentence is informative only)."""
        return (self.probe_class, self.eligible, self.caught, self.exercised, self.rate) == (
            other.probe_class,
            other.eligible,
            other.caught,
            other.exercised,
            other.rate,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "eligible": self.eligible,
            "caught": self.caught,
            "exercised": self.exercised,
            "rate": self.rate,
            "denominator": self.denominator,
        }


@dataclass(frozen=True)
class StrengthVector:
    """Per-class rates plus whether the measurement is comparable and which oracles it missed."""

    classes: tuple[ClassStrength, ...]
    """One entry per probe class, in :class:`ProbeClass` order."""
    comparable: bool
    unreached_oracles: tuple[str, ...]

    def __getitem__(self, probe_class: ProbeClass) -> ClassStrength:
        for component in self.classes:
            if component.probe_class is probe_class:
                return component
        raise KeyError(probe_class)

    def same_counts(self, other: StrengthVector) -> bool:
        return (
            len(self.classes) == len(other.classes)
            and all(a.same_counts(b) for a, b in zip(self.classes, other.classes, strict=True))
            and self.comparable == other.comparable
            and self.unreached_oracles == other.unreached_oracles
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "classes": {c.probe_class.value: c.to_json() for c in self.classes},
            "comparable": self.comparable,
            "unreached_oracles": list(self.unreached_oracles),
        }


def is_comparable(admitted: Iterable[ProbeTrials], minimum_trial_count: int) -> bool:
    """Every admitted probe completed enough trials and none of its trials was unreached."""
    return all(
        trials.trials_completed >= minimum_trial_count and not trials.has_unreached_trial
        for trials in admitted
    )


def build_strength_vector(
    admitted: Sequence[ProbeTrials],
    reductions: Sequence[ReducedOutcome],
    minimum_trial_count: int,
) -> StrengthVector:
    """The vector over admitted probes; only eligible ones count in the classes.

    ``reductions[i]`` is the reduced outcome of ``admitted[i]``. Canaries and clean
    controls count toward ``comparable`` and ``unreached_oracles`` but never toward a rate.
    """
    if len(admitted) != len(reductions):
        raise ValueError("one reduced outcome per admitted probe is needed")
    components = []
    for probe_class in ProbeClass:
        members = [
            (trials, reduced)
            for trials, reduced in zip(admitted, reductions, strict=True)
            if trials.probe.role is ProbeRole.ELIGIBLE and trials.probe.probe_class is probe_class
        ]
        eligible = len(members)
        exercised = sum(1 for _, reduced in members if reduced.exercised)
        caught = sum(1 for _, reduced in members if reduced.caught)
        trials_completed = sum(trials.trials_completed for trials, _ in members)
        components.append(
            ClassStrength(
                probe_class,
                eligible,
                caught,
                exercised,
                None if exercised == 0 else caught / exercised,
                denominator_sentence(probe_class, caught, exercised, eligible, trials_completed),
            )
        )
    unreached = sorted(set().union(*(trials.unreached_oracles for trials in admitted)))
    return StrengthVector(
        tuple(components), is_comparable(admitted, minimum_trial_count), tuple(unreached)
    )
