"""The scoring policy: catch threshold, minimum trial count, severity floor, class floors."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textcontract._files import read_input_text
from textcontract._json import loads_strict
from textcontract._yaml import Path, Positions, load_yaml
from textcontract.canonical import digest
from textcontract.model import Severity
from textcontract.strength._shape import ShapeReader
from textcontract.strength._states import ProbeClass

__all__ = ["ScoringPolicy", "load_scoring_policy"]

_FIELDS = ("catch_threshold", "minimum_trial_count", "severity_floor", "floors")


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

    def __post_init__(self) -> None:
        if not 0.0 <= self.catch_threshold <= 1.0:
            raise ValueError(f"catch_threshold {self.catch_threshold!r} is outside [0, 1]")
        if self.minimum_trial_count < 1:
            raise ValueError("minimum_trial_count must be at least 1")
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
        """What the policy digest covers; floors stay out (a decision over the measurement)."""
        return {
            "catch_threshold": float(self.catch_threshold),
            "minimum_trial_count": self.minimum_trial_count,
            "severity_floor": self.severity_floor.value,
        }

    @property
    def digest(self) -> str:
        return digest(self.digest_inputs())

    def artifact_json(self) -> dict[str, Any]:
        """The evidence artifact's ``policy`` block."""
        return {"digest": self.digest, **self.digest_inputs()}

    def floors_json(self) -> dict[str, float]:
        return {probe_class.value: rate for probe_class, rate in self.floors}

    def report_json(self) -> dict[str, Any]:
        """The audit report's ``policy`` block: every field, floors included, and the digest."""
        return {**self.digest_inputs(), "floors": self.floors_json(), "digest": self.digest}

    @classmethod
    def from_json(
        cls,
        obj: Any,
        source: str | None,
        positions: Positions | None = None,
        base_path: Path = (),
    ) -> ScoringPolicy:
        """Validate a policy mapping (a file's content, or the ``policy:`` block of audit.yaml).

        ``positions`` (from :func:`textcontract._yaml.load_yaml`) adds line/column to
        problems; ``base_path`` is where the mapping sits in that file, e.g. ``("policy",)``.
        Every problem is reported in one :class:`InputError`.
        """
        reader = ShapeReader(source, positions, base_path)
        fields = reader.mapping(obj, (), optional=_FIELDS)
        defaults = cls()
        threshold = defaults.catch_threshold
        if "catch_threshold" in fields:
            threshold = reader.fraction(fields["catch_threshold"], ("catch_threshold",))
        minimum = defaults.minimum_trial_count
        if "minimum_trial_count" in fields:
            minimum = reader.integer(
                fields["minimum_trial_count"], ("minimum_trial_count",), minimum=1
            )
        floor = defaults.severity_floor
        if "severity_floor" in fields:
            floor = reader.choice(fields["severity_floor"], ("severity_floor",), Severity)
        floors: list[tuple[ProbeClass, float]] = []
        if "floors" in fields:
            declared = reader.mapping(
                fields["floors"], ("floors",), optional=[c.value for c in ProbeClass]
            )
            for name, rate in declared.items():
                if name in {c.value for c in ProbeClass}:
                    floors.append((ProbeClass(name), reader.fraction(rate, ("floors", name))))
        reader.raise_if_problems()
        return cls(threshold, minimum, floor, tuple(floors))


def _is_json_name(name: str) -> bool:
    return name.lower().endswith(".json")


def load_scoring_policy(path: str, display: str | None = None) -> ScoringPolicy:
    """Read a policy file: JSON when the name ends in ``.json``, otherwise YAML."""
    name = display if display is not None else path
    text = read_input_text(path, name)
    if _is_json_name(path):
        return ScoringPolicy.from_json(loads_strict(text, name), name)
    value, positions = load_yaml(text, name)
    return ScoringPolicy.from_json(value, name, positions)
