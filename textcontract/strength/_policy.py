"""The scoring policy: catch threshold, minimum trial count, severity floor, class floors."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textcontract.canonical import digest
from textcontract.fields import MISSING, FieldReader, KeyPath
from textcontract.model import Severity
from textcontract.strength._states import ProbeClass

__all__ = ["ScoringPolicy", "read_scoring_policy"]

_FIELDS = ("catch_threshold", "minimum_trial_count", "severity_floor", "re_execution_cap", "floors")


@dataclass(frozen=True)
class ScoringPolicy:
    """How trials reduce and which severities route the verdict (SPEC §7).

    ``catch_threshold`` is held as a float so that a policy written with ``1``
    and one written with ``1.0`` are the same policy everywhere.
    """

    catch_threshold: float = 0.5
    minimum_trial_count: int = 1
    severity_floor: Severity = Severity.HIGH
    floors: tuple[tuple[ProbeClass, float], ...] = ()
    """Declared class floors, in class order; only ``aggregate-strength`` reads them."""
    re_execution_cap: int | None = None
    """At most this many invalidated attempts per admitted probe (SPEC §17.1); ``None``: no cap."""

    def __post_init__(self) -> None:
        if not 0.0 <= self.catch_threshold <= 1.0:
            raise ValueError(f"catch_threshold {self.catch_threshold!r} is outside [0, 1]")
        if self.minimum_trial_count < 1:
            raise ValueError("minimum_trial_count must be at least 1")
        if self.re_execution_cap is not None and self.re_execution_cap < 0:
            raise ValueError("re_execution_cap must be at least 0")
        object.__setattr__(self, "catch_threshold", float(self.catch_threshold))
        order = list(ProbeClass)
        object.__setattr__(
            self,
            "floors",
            tuple(sorted(((c, float(r)) for c, r in self.floors), key=lambda p: order.index(p[0]))),
        )

    def floor(self, probe_class: ProbeClass) -> float | None:
        """The declared floor of a class, or ``None``."""
        for declared, rate in self.floors:
            if declared is probe_class:
                return rate
        return None

    def digest_inputs(self) -> dict[str, Any]:
        """What the policy digest covers; floors stay out (a decision over the measurement).

        ``re_execution_cap`` is in only when set, so every policy without one keeps the
        digest it had before the cap existed.
        """
        inputs: dict[str, Any] = {
            "catch_threshold": float(self.catch_threshold),
            "minimum_trial_count": self.minimum_trial_count,
            "severity_floor": self.severity_floor.value,
        }
        if self.re_execution_cap is not None:
            inputs["re_execution_cap"] = self.re_execution_cap
        return inputs

    @property
    def digest(self) -> str:
        return digest(self.digest_inputs())

    def _fields_json(self) -> dict[str, Any]:
        return {
            "catch_threshold": float(self.catch_threshold),
            "minimum_trial_count": self.minimum_trial_count,
            "severity_floor": self.severity_floor.value,
            "re_execution_cap": self.re_execution_cap,
        }

    def artifact_json(self) -> dict[str, Any]:
        """The evidence artifact's ``policy`` block (version 2: the cap always shown)."""
        return {"digest": self.digest, **self._fields_json()}

    def floors_json(self) -> dict[str, float]:
        return {probe_class.value: rate for probe_class, rate in self.floors}

    def report_json(self) -> dict[str, Any]:
        """The audit report's ``policy`` block: every field, floors included, and the digest."""
        return {**self._fields_json(), "floors": self.floors_json(), "digest": self.digest}

    def breached_by(self, invalidated_attempts: int) -> bool:
        """Whether a probe with this many invalidated attempts exceeds the cap."""
        return self.re_execution_cap is not None and invalidated_attempts > self.re_execution_cap

    @classmethod
    def from_json(cls, obj: Any, source: str | None) -> ScoringPolicy:
        """Validate a policy mapping read from JSON; every problem in one :class:`InputError`."""
        reader = FieldReader(source)
        policy = read_scoring_policy(reader, obj)
        reader.raise_if_problems()
        return policy


def read_scoring_policy(reader: FieldReader, value: Any, path: KeyPath = ()) -> ScoringPolicy:
    """Read a policy mapping at ``path`` (a policy file, or audit.yaml's ``policy:`` block).

    Problems go to ``reader`` (which knows the file's positions, if any); the defaults
    stand in for invalid values, so the caller must check the reader before using it.
    """
    fields = reader.mapping(value, path, optional=_FIELDS)
    defaults = ScoringPolicy()
    threshold = reader.fraction(
        fields.get("catch_threshold", MISSING), (*path, "catch_threshold"), defaults.catch_threshold
    )
    minimum = reader.integer(
        fields.get("minimum_trial_count", MISSING),
        (*path, "minimum_trial_count"),
        defaults.minimum_trial_count,
        minimum=1,
    )
    floor = reader.choice(
        fields.get("severity_floor", MISSING),
        (*path, "severity_floor"),
        Severity,
        defaults.severity_floor,
    )
    cap = None
    if fields.get("re_execution_cap") is not None:
        cap = reader.integer(fields["re_execution_cap"], (*path, "re_execution_cap"), minimum=0)
    floors: list[tuple[ProbeClass, float]] = []
    if "floors" in fields:
        names = [c.value for c in ProbeClass]
        declared = reader.mapping(fields["floors"], (*path, "floors"), optional=names)
        for name, rate in declared.items():
            if name in names:
                floors.append((ProbeClass(name), reader.fraction(rate, (*path, "floors", name))))
    return ScoringPolicy(threshold, minimum, floor, tuple(floors), cap)
