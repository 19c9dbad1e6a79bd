"""Case records as JSON: what the result cache keeps and what a shard's part file carries.

The cache keeps records before any waiver (``"waivers": []``); a part file carries them as
its shard's report counted them, waivers applied (each waived trial's waiver id).

A case record is everything the figures, the strength block and the report's lists are
built from (:mod:`textcontract.audit.results._variant_records`), so a record written here
and read back sums up to the same bytes. Reading is strict: every field is checked, and
anything out of place raises :class:`RecordError` naming its key path.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import StrEnum
from typing import Any, TypeVar

from textcontract.audit.reading import Expectation, Relation
from textcontract.audit.results._figures import ExcludedReason, Outcome, VariantVerdict
from textcontract.audit.results._matching import ExpectedStatus
from textcontract.audit.results._variant_records import CaseRecord, Counted, Labels, VariantRecord
from textcontract.errors import render_key_path
from textcontract.model import Severity
from textcontract.strength import Exposure, OutcomeState, ProbeClass

__all__ = [
    "RecordError",
    "case_record_from_json",
    "case_record_json",
    "variant_record_from_json",
    "variant_record_json",
]

E = TypeVar("E", bound=StrEnum)
Path = tuple[str | int, ...]


class RecordError(ValueError):
    """A record that is not what :func:`case_record_json` writes; ``path`` says where."""

    def __init__(self, path: Path, message: str) -> None:
        super().__init__(f"{render_key_path(path) or '$'}: {message}")
        self.path = path


def _variant_json(record: VariantRecord) -> dict[str, Any]:
    labels, result = record.labels, record.result
    entry: dict[str, Any] = {
        "variant": record.variant,
        "relation": labels.relation.value,
        "class": labels.probe_class.value,
        "family": labels.family,
        "severity": labels.severity.value,
        "canary": labels.canary,
        "expect": [[e.rule, e.code, e.scope] for e in labels.expect],
        "exposure": labels.exposure.value,
    }
    if isinstance(result, ExcludedReason):
        entry["excluded"] = result.value
        return entry
    verdict = result.verdict
    entry["outcome"] = verdict.outcome.value
    entry["reason"] = verdict.reason
    entry["statuses"] = [status.value for status in verdict.statuses]
    entry["states"] = [state.value for state in result.states]
    entry["waivers"] = list(result.waivers)
    return entry


def case_record_json(record: CaseRecord) -> dict[str, Any]:
    """``{"case", "variants": [...]}``, variants in file order."""
    return {"case": record.case, "variants": [_variant_json(v) for v in record.variants]}


def _field(value: Any, path: Path, kind: type | tuple[type, ...], what: str) -> Any:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError(path, f"expected {what}")
    return value


def _keys(value: Any, path: Path, keys: Sequence[str]) -> dict[str, Any]:
    found: dict[str, Any] = _field(value, path, dict, "an object")
    if list(found) != list(keys):
        raise RecordError(path, f"expected the keys {', '.join(keys)}")
    return found


def _choice(value: Any, path: Path, kind: type[E]) -> E:
    try:
        return kind(_field(value, path, str, "a string"))
    except ValueError:
        raise RecordError(path, f"{value!r} is not one of {', '.join(kind)}") from None


def _items(value: Any, path: Path, read: Callable[[Any, Path], Any]) -> tuple[Any, ...]:
    items = _field(value, path, list, "a list")
    return tuple(read(item, (*path, index)) for index, item in enumerate(items))


def _expectation(value: Any, path: Path) -> Expectation:
    parts = _field(value, path, list, "a [rule, code, scope] list")
    if len(parts) != 3:
        raise RecordError(path, "expected a [rule, code, scope] list")
    rule, code, scope = (_field(p, (*path, i), str, "a string") for i, p in enumerate(parts))
    return Expectation(rule, code, scope)


_LABEL_KEYS = (
    "variant",
    "relation",
    "class",
    "family",
    "severity",
    "canary",
    "expect",
    "exposure",
)
_COUNTED_KEYS = (*_LABEL_KEYS, "outcome", "reason", "statuses", "states", "waivers")


def _labels(entry: dict[str, Any], path: Path) -> Labels:
    return Labels(
        _choice(entry["relation"], (*path, "relation"), Relation),
        _choice(entry["class"], (*path, "class"), ProbeClass),
        _field(entry["family"], (*path, "family"), str, "a string"),
        _choice(entry["severity"], (*path, "severity"), Severity),
        _field(entry["canary"], (*path, "canary"), bool, "true or false"),
        _items(entry["expect"], (*path, "expect"), _expectation),
        _choice(entry["exposure"], (*path, "exposure"), Exposure),
    )


def _counted(entry: dict[str, Any], path: Path, expected: int) -> Counted:
    reason = entry["reason"]
    if reason is not None:
        _field(reason, (*path, "reason"), str, "a string or null")
    statuses = _items(
        entry["statuses"], (*path, "statuses"), lambda v, p: _choice(v, p, ExpectedStatus)
    )
    if len(statuses) != expected:
        raise RecordError((*path, "statuses"), "expected one status per expectation")
    states = _items(entry["states"], (*path, "states"), lambda v, p: _choice(v, p, OutcomeState))
    if not states:
        raise RecordError((*path, "states"), "expected at least one trial state")
    outcome = _choice(entry["outcome"], (*path, "outcome"), Outcome)
    waivers = _waivers(entry["waivers"], (*path, "waivers"), states)
    return Counted(VariantVerdict(outcome, reason, statuses), states, waivers)


def _waivers(value: Any, path: Path, states: tuple[OutcomeState, ...]) -> tuple[str | None, ...]:
    """``[]`` when no trial was waived, else one waiver id (or null) per trial, each on a
    not-applicable trial."""
    waivers = _items(value, path, lambda v, p: v if v is None else _field(v, p, str, "a string"))
    if not waivers:
        return ()
    if len(waivers) != len(states) or all(waiver is None for waiver in waivers):
        raise RecordError(path, "expected [] or one waiver id or null per trial, not all null")
    for index, (waiver, state) in enumerate(zip(waivers, states, strict=True)):
        if waiver is not None and state is not OutcomeState.NOT_APPLICABLE:
            raise RecordError((*path, index), "only a not-applicable trial names a waiver")
    return waivers


def _variant(value: Any, path: Path) -> VariantRecord:
    excluded = isinstance(value, dict) and "excluded" in value
    entry = _keys(value, path, (*_LABEL_KEYS, "excluded") if excluded else _COUNTED_KEYS)
    variant = _field(entry["variant"], (*path, "variant"), str, "a string")
    labels = _labels(entry, path)
    if excluded:
        return VariantRecord(
            variant, labels, _choice(entry["excluded"], (*path, "excluded"), ExcludedReason)
        )
    return VariantRecord(variant, labels, _counted(entry, path, len(labels.expect)))


def case_record_from_json(value: Any, path: Path = ()) -> CaseRecord:
    """The record :func:`case_record_json` wrote; :class:`RecordError` for anything else."""
    entry = _keys(value, path, ("case", "variants"))
    case = _field(entry["case"], (*path, "case"), str, "a string")
    return CaseRecord(case, _items(entry["variants"], (*path, "variants"), _variant))


def variant_record_json(record: VariantRecord) -> dict[str, Any]:
    """One variant of :func:`case_record_json`."""
    return _variant_json(record)


def variant_record_from_json(value: Any, path: Path = ()) -> VariantRecord:
    """One variant :func:`variant_record_json` wrote; :class:`RecordError` for anything else."""
    return _variant(value, path)
