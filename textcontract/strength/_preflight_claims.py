"""A preflight verdict read back, as ``score --preflight-verdict`` takes it (SPEC §17.3).

``textcontract preflight`` writes the verdict; ``score`` reads the parts it checks the
records against (passed, contract and policy digests, mode, planned probes) and the
corpus and fixture digests it scores with. A malformed verdict is an input error.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textcontract.canonical import digest
from textcontract.fields import FieldReader
from textcontract.model import Severity
from textcontract.strength._identity import CONTRACT_SCORING, MODES
from textcontract.strength._recorded_engine import read_engine
from textcontract.strength._states import Exposure, ProbeClass

__all__ = [
    "CHECK_KINDS",
    "CHECK_OUTCOMES",
    "PREFLIGHT_VERSION",
    "PreflightClaims",
    "parse_preflight_verdict",
]

PREFLIGHT_VERSION = 1
CHECK_KINDS = ("baseline-deterministic", "fault-scoped")
CHECK_OUTCOMES = ("satisfied", "failed", "exempt")
_KEYS = (
    "preflight_version",
    "engine",
    "contract",
    "corpus_digest",
    "fixture_digest",
    "policy_digest",
    "mode",
    "passed",
    "checks",
    "plan",
)
_PROBE_KEYS = (
    "probe_id",
    "class",
    "severity",
    "canary",
    "clean_control",
    "exposure",
    "trials",
)


@dataclass(frozen=True)
class PreflightClaims:
    """What ``score`` reads of a preflight verdict; ``digest`` is over its canonical JSON."""

    source: str | None
    digest: str
    passed: bool
    contract_digest: str
    policy_digest: str
    mode: str
    corpus_digest: str
    fixture_digest: str
    probe_ids: frozenset[str]


def _check_entries(reader: FieldReader, value: Any) -> None:
    for index, item in enumerate(reader.sequence(value, ("checks",))):
        at = ("checks", index)
        entry = reader.mapping(item, at, required=("kind", "subject", "outcome", "note"))
        for name, allowed in (("kind", CHECK_KINDS), ("outcome", CHECK_OUTCOMES)):
            found = reader.string(entry[name], (*at, name))
            if found and found not in allowed:
                reader.problem((*at, name), f"{found!r} is not one of {', '.join(allowed)}")
        reader.string(entry["subject"], (*at, "subject"))
        reader.optional_string(entry["note"], (*at, "note"))


def _plan_probes(reader: FieldReader, value: Any) -> frozenset[str]:
    plan = reader.mapping(value, ("plan",), required=("probes", "excluded", "trials_total"))
    reader.integer(plan["trials_total"], ("plan", "trials_total"), minimum=0)
    reader.sequence(plan["excluded"], ("plan", "excluded"))
    found = set()
    for index, item in enumerate(reader.sequence(plan["probes"], ("plan", "probes"))):
        at = ("plan", "probes", index)
        entry = reader.mapping(item, at, required=_PROBE_KEYS)
        found.add(reader.string(entry["probe_id"], (*at, "probe_id")))
        reader.choice(entry["class"], (*at, "class"), ProbeClass)
        reader.choice(entry["severity"], (*at, "severity"), Severity)
        reader.boolean(entry["canary"], (*at, "canary"))
        reader.boolean(entry["clean_control"], (*at, "clean_control"))
        reader.choice(entry["exposure"], (*at, "exposure"), Exposure)
        reader.integer(entry["trials"], (*at, "trials"), minimum=1)
    return frozenset(found)


def parse_preflight_verdict(obj: Any, source: str | None) -> PreflightClaims:
    """Read a preflight verdict; a malformed one is an :class:`InputError` naming the key."""
    reader = FieldReader(source)
    fields = reader.mapping(obj, (), required=_KEYS)
    reader.expect_equal(fields["preflight_version"], ("preflight_version",), PREFLIGHT_VERSION)
    read_engine(reader, fields["engine"])
    contract = reader.mapping(
        fields["contract"], ("contract",), required=("id", "version", "digest")
    )
    mode = reader.string(fields["mode"], ("mode",), CONTRACT_SCORING)
    if mode not in MODES:
        reader.problem(("mode",), f"{mode!r} is not one of {', '.join(MODES)}")
    _check_entries(reader, fields["checks"])
    claims = PreflightClaims(
        source=source,
        digest=digest(obj) if isinstance(obj, dict) else "",
        passed=reader.boolean(fields["passed"], ("passed",)),
        contract_digest=reader.string(contract["digest"], ("contract", "digest")),
        policy_digest=reader.string(fields["policy_digest"], ("policy_digest",)),
        mode=mode,
        corpus_digest=reader.string(fields["corpus_digest"], ("corpus_digest",)),
        fixture_digest=reader.string(fields["fixture_digest"], ("fixture_digest",)),
        probe_ids=_plan_probes(reader, fields["plan"]),
    )
    reader.raise_if_problems()
    return claims
