"""Identities of a scored run: scoring version, comparability key, attested inputs."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from textcontract.canonical import digest

__all__ = [
    "CONTRACT_FORMAT_VERSION",
    "CONTRACT_SCORING",
    "MODES",
    "PRODUCTION",
    "SCORING_INPUT_NAMES",
    "ScoringVersionInputs",
    "attested_inputs",
    "comparability_key",
]

CONTRACT_SCORING = "contract-scoring"
"""The default mode: the verdict's subject is the contract (SPEC §7)."""

PRODUCTION = "production"
"""The verdict's subject is the system that produced the documents (SPEC §17.2): the
evaluator's recommendation combined with the evidence-integrity rungs."""

MODES = (CONTRACT_SCORING, PRODUCTION)

CONTRACT_FORMAT_VERSION = 1
"""The contract format version (``textcontract: 1``) this engine reads."""

SCORING_INPUT_NAMES = (
    "contract_format_version",
    "corpus_digest",
    "fixture_digest",
    "evaluator_configuration_digest",
    "scoring_policy_digest",
    "mode",
)


@dataclass(frozen=True)
class ScoringVersionInputs:
    """The six inputs the scoring version is a digest of; absent ones are ``None``."""

    contract_format_version: int
    corpus_digest: str | None
    fixture_digest: str | None
    evaluator_configuration_digest: str | None
    scoring_policy_digest: str
    mode: str = CONTRACT_SCORING

    def to_json(self) -> dict[str, Any]:
        return {
            "contract_format_version": self.contract_format_version,
            "corpus_digest": self.corpus_digest,
            "fixture_digest": self.fixture_digest,
            "evaluator_configuration_digest": self.evaluator_configuration_digest,
            "scoring_policy_digest": self.scoring_policy_digest,
            "mode": self.mode,
        }

    @property
    def scoring_version(self) -> str:
        return digest(self.to_json())


def comparability_key(policy_digest: str, admitted_probe_ids: Iterable[str]) -> str:
    """Binds the policy to the exact set of admitted probes; nothing else."""
    return digest({"policy": policy_digest, "probes": sorted(admitted_probe_ids)})


def attested_inputs(names: Iterable[str]) -> tuple[str, ...]:
    """The sorted, unique names of inputs the caller supplied rather than the engine computed."""
    chosen = set(names)
    unknown = chosen.difference(SCORING_INPUT_NAMES)
    if unknown:
        raise ValueError(f"not scoring inputs: {', '.join(sorted(unknown))}")
    return tuple(sorted(chosen))
