"""Cached summaries (SPEC §13): a whole case's records, and the corpus digests.

Rule results (:mod:`textcontract.audit.running._rule_cache`) spare the rules' work; these
spare the rest of an unchanged run, which would otherwise still rebuild every trial to
look its results up:

- ``cases``: the records of one case — every variant's labels, outcome and trial states,
  each variant as its own JSON text (decoded once per process however many cases hold
  it), before any waiver (waivers are applied to them afterwards, on the run's date) — keyed by
  the contract digest (every rule and the check policy), the case's fingerprint (its
  canonical form, every trial resolved: SPEC §6's corpus-digest item) and the catch
  threshold; with them, the number of rule evaluations of its trials they stand for. A
  variant's ``exposure`` is in no fingerprint, so records read back are used only when
  their labels and exclusions are the first pass's plan's.
- ``corpus``: the corpus and fixture digests, keyed by every case's fingerprint in
  case-id order — both are functions of exactly those cases.

A case whose evaluation met an error (a rule error, an infrastructure error) leaves no
summary, so the error is met again, as without a cache.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from textcontract.audit.results import (
    CaseRecord,
    RecordError,
    VariantRecord,
    variant_record_from_json,
    variant_record_json,
)
from textcontract.audit.running._cache import CacheFolder, is_digest

__all__ = [
    "CachedCase",
    "CorpusDigests",
    "RecordMemo",
    "read_case",
    "read_corpus",
    "write_case",
    "write_corpus",
]

_CASES = "cases"
_CORPUS = "corpus"


@dataclass(frozen=True)
class CachedCase:
    """A case's records as an earlier run left them."""

    record: CaseRecord
    baseline_digest: str
    evaluations: int
    """The rule evaluations the records stand for (counted as cache hits)."""


def _case_key(
    contract: str, case: str, fingerprint: bytes, catch_threshold: float
) -> dict[str, Any]:
    return {
        "contract": contract,
        "case": case,
        "fingerprint": fingerprint.hex(),
        "catch_threshold": repr(float(catch_threshold)),
    }


RecordMemo = dict[str, VariantRecord]
"""Variant records already decoded in this process, by their JSON text (the variants of
many cases have the very same labels and outcome)."""
_MEMO_SIZE = 20_000
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False)


def _variant(text: Any, memo: RecordMemo) -> VariantRecord:
    found = memo.get(text) if isinstance(text, str) else None
    if found is None:
        if not isinstance(text, str):
            raise RecordError((), "expected a variant record as JSON text")
        try:
            value = json.loads(text)
        except (ValueError, RecursionError):
            raise RecordError((), "expected a variant record as JSON text") from None
        found = variant_record_from_json(value)
        if len(memo) >= _MEMO_SIZE:
            memo.clear()
        memo[text] = found
    return found


def _record(value: Any, case: str, memo: RecordMemo) -> CaseRecord | None:
    if not isinstance(value, dict) or list(value) != ["case", "variants"]:
        return None
    variants = value["variants"]
    if value["case"] != case or not isinstance(variants, list):
        return None
    try:
        return CaseRecord(case, [_variant(text, memo) for text in variants])
    except RecordError:
        return None


def read_case(
    folder: CacheFolder,
    contract: str,
    case: str,
    fingerprint: bytes,
    catch_threshold: float,
    memo: RecordMemo | None = None,
) -> CachedCase | None:
    key = folder.key(_CASES, _case_key(contract, case, fingerprint, catch_threshold))
    body = folder.read(_CASES, key)
    if not isinstance(body, dict) or list(body) != ["baseline", "evaluations", "record"]:
        return None
    baseline, evaluations = body["baseline"], body["evaluations"]
    if not is_digest(baseline) or type(evaluations) is not int or evaluations < 0:
        return None
    record = _record(body["record"], case, {} if memo is None else memo)
    return None if record is None else CachedCase(record, baseline, evaluations)


def write_case(
    folder: CacheFolder,
    contract: str,
    fingerprint: bytes,
    catch_threshold: float,
    cached: CachedCase,
) -> None:
    record = cached.record
    key = folder.key(_CASES, _case_key(contract, record.case, fingerprint, catch_threshold))
    variants = [_ENCODER.encode(variant_record_json(v)) for v in record.variants]
    body = {
        "baseline": cached.baseline_digest,
        "evaluations": cached.evaluations,
        "record": {"case": record.case, "variants": variants},
    }
    folder.write(_CASES, key, body)


@dataclass(frozen=True)
class CorpusDigests:
    corpus: str
    fixture: str


def _corpus_key(folder: CacheFolder, fingerprints: Sequence[bytes]) -> str:
    joined = hashlib.sha256(b"".join(fingerprints)).hexdigest()
    return folder.key(_CORPUS, {"cases": len(fingerprints), "fingerprints": joined})


def read_corpus(folder: CacheFolder, fingerprints: Sequence[bytes]) -> CorpusDigests | None:
    """The digests of the corpus whose cases (in case-id order) have these fingerprints."""
    body = folder.read(_CORPUS, _corpus_key(folder, fingerprints))
    if (
        not isinstance(body, dict)
        or list(body) != ["corpus", "fixture"]
        or not all(is_digest(value) for value in body.values())
    ):
        return None
    return CorpusDigests(body["corpus"], body["fixture"])


def write_corpus(
    folder: CacheFolder, fingerprints: Sequence[bytes], digests: CorpusDigests
) -> None:
    body = {"corpus": digests.corpus, "fixture": digests.fixture}
    folder.write(_CORPUS, _corpus_key(folder, fingerprints), body)
