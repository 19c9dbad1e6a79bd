"""The cache's entries one by one: what is read back, what is refused, what is never kept."""

from __future__ import annotations

import errno
import importlib.metadata
import os
from pathlib import Path
from typing import Any

import pytest

from tests.audit.audit_builders import (
    AUDIT,
    CONTRACT,
    REFUND,
    REWORD,
    Exploding,
    case_text,
    preserve,
    registry_with_exploding,
    violation,
    write_corpus,
)
from textcontract.audit import audit_directory
from textcontract.audit.results import CaseRecord
from textcontract.audit.running import _rule_cache
from textcontract.audit.running._cache import CacheFolder, prepare_cache_folder
from textcontract.audit.running._case_memo import file_sha256
from textcontract.audit.running._result_cache import (
    CachedCase,
    RecordMemo,
    read_case,
    read_corpus,
    write_case,
)
from textcontract.audit.running._rule_cache import CaseRuleResults, _check, rule_keys
from textcontract.contract import parse_contract_text
from textcontract.errors import InputError
from textcontract.model import Context, Document, Status

BASELINE = "sha256:" + "b" * 64


def test_an_entry_reads_back_and_an_odd_file_is_a_miss(tmp_path: Path) -> None:
    folder = CacheFolder(tmp_path)
    key = folder.key("cases", {"a": 1})
    assert key == CacheFolder(tmp_path / "elsewhere").key("cases", {"a": 1})  # not by place
    folder.write("cases", key, {"value": [1, 2.5, None, "é"]})
    assert folder.read("cases", key) == {"value": [1, 2.5, None, "é"]}
    path = Path(folder.path("cases", key))
    assert path.relative_to(tmp_path).parts[:2] == ("cases", key[:2])
    assert path.name == key[2:] + ".json"
    for damaged in (b"", b"no header line", b"not json\n{}", b'{"format": 1}\n{}'):
        path.write_bytes(damaged)
        assert folder.read("cases", key) is None
    assert not [p for p in path.parent.iterdir() if p.name.endswith(".tmp")]


def test_a_text_no_utf8_can_hold_is_not_written(tmp_path: Path) -> None:
    folder = CacheFolder(tmp_path)
    key = folder.key("cases", {})
    folder.write_encoded("cases", key, '{"x":"\ud800"}')
    assert folder.read("cases", key) is None


def test_a_write_where_something_else_is_in_the_way_leaves_it_and_misses(
    tmp_path: Path,
) -> None:
    """A file where a kind's folder goes, a folder where an entry goes, a dangling link
    where a shard folder goes: the entry is not written (it stays a miss), nothing is
    removed, and the audit goes on; a folder that cannot be used at all is exit 2."""
    folder = CacheFolder(tmp_path)
    key = folder.key("cases", {})
    (tmp_path / "cases").write_text("a file, not a folder", encoding="utf-8")
    folder.write("cases", key, {})
    assert folder.read("cases", key) is None
    entry = Path(folder.path("rules", key))
    entry.mkdir(parents=True)
    folder.write("rules", key, {})
    assert folder.read("rules", key) is None
    assert entry.is_dir()
    (tmp_path / "baselines").mkdir()
    (tmp_path / "baselines" / key[:2]).symlink_to(tmp_path / "gone")
    folder.write("baselines", key, {})
    assert folder.read("baselines", key) is None
    assert sorted(path.name for path in entry.parent.iterdir()) == [entry.name]  # no .tmp
    with pytest.raises(InputError, match="cannot use the cache folder"):
        prepare_cache_folder(tmp_path / "cases" / "below", "below")


def test_a_write_that_fails_is_exit_2_naming_the_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = CacheFolder(tmp_path)
    key = folder.key("cases", {})

    def full(source: str, target: str) -> None:
        del source, target
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "replace", full)
    with pytest.raises(InputError, match="cannot write a cache entry: No space left") as raised:
        folder.write("cases", key, {})
    assert folder.path("cases", key) in str(raised.value)
    assert list(Path(folder.path("cases", key)).parent.iterdir()) == []


def test_an_entry_that_changes_size_or_fails_while_read_is_a_miss(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = CacheFolder(tmp_path)
    key = folder.key("cases", {})
    folder.write("cases", key, {"a": 1})
    read = os.read
    monkeypatch.setattr(os, "read", lambda handle, size: read(handle, size) + b"grown")
    assert folder.read("cases", key) is None

    def failing(handle: int, size: int) -> bytes:
        del handle, size
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(os, "read", failing)
    assert folder.read("cases", key) is None


def test_file_sha256(tmp_path: Path) -> None:
    file = tmp_path / "f"
    file.write_bytes(b"abc")
    first = file_sha256(file)
    file.write_bytes(b"changed")
    assert file_sha256(file) not in (first, None)
    assert file_sha256(tmp_path / "missing") is None


def test_a_case_summary_of_another_shape_is_a_miss(tmp_path: Path) -> None:
    folder = CacheFolder(tmp_path)
    record = CaseRecord("c1", ())
    write_case(folder, "sha256:c", b"\0" * 32, 0.5, CachedCase(record, BASELINE, 3))
    found = read_case(folder, "sha256:c", "c1", b"\0" * 32, 0.5)
    assert found is not None
    assert (found.record.case, found.baseline_digest, found.evaluations) == ("c1", BASELINE, 3)
    assert read_case(folder, "sha256:c", "c1", b"\0" * 32, 0.6) is None  # another threshold
    key = folder.key(
        "cases",
        {"contract": "sha256:c", "case": "c1", "fingerprint": "00" * 32, "catch_threshold": "0.5"},
    )
    bodies: list[Any] = [
        [],
        {"baseline": 1, "evaluations": 3, "record": {}},
        {"baseline": "sha256:b", "evaluations": 1, "record": {"case": "c1", "variants": []}},
        {"baseline": BASELINE, "evaluations": -1, "record": {}},
        {"baseline": BASELINE, "evaluations": 1, "record": {"case": 1}},
        {"baseline": BASELINE, "evaluations": 1, "record": {"case": "c2", "variants": []}},
    ]
    for body in bodies:
        folder.write("cases", key, body)
        assert read_case(folder, "sha256:c", "c1", b"\0" * 32, 0.5) is None
    assert read_corpus(folder, [b"\0" * 32]) is None


def test_case_summaries_share_decoded_variants_and_refuse_a_bad_one(tmp_path: Path) -> None:
    folder = CacheFolder(tmp_path / "cache")
    corpus = write_corpus(
        tmp_path / "corpus",
        {
            "c1.yaml": case_text(violation("v", REFUND) + preserve("p", REWORD), "c1"),
            "c2.yaml": case_text(violation("v", REFUND) + preserve("p", REWORD), "c2"),
        },
    )
    cached = audit_directory(corpus, cache=tmp_path / "cache")
    records = {record.case: record for record in cached.findings.cases}
    memo: RecordMemo = {}
    found = []
    for case, record in records.items():
        summary = CachedCase(record, BASELINE, 3)
        write_case(folder, "sha256:c", b"\1" * 32, 0.5, summary)
        read = read_case(folder, "sha256:c", case, b"\1" * 32, 0.5, memo)
        assert read is not None
        assert list(read.record.variants) == list(record.variants)
        found.append(list(read.record.variants))
    assert len(memo) == 2  # two distinct variants, each decoded once for both cases
    assert all(one.labels is two.labels for one, two in zip(*found, strict=True))
    key = folder.key(
        "cases",
        {"contract": "sha256:c", "case": "c1", "fingerprint": "01" * 32, "catch_threshold": "0.5"},
    )
    for variants in (["{"], [3], ['{"variant": "v"}'], "[]"):
        body = {
            "baseline": BASELINE,
            "evaluations": 1,
            "record": {"case": "c1", "variants": variants},
        }
        folder.write("cases", key, body)
        assert read_case(folder, "sha256:c", "c1", b"\1" * 32, 0.5, {}) is None


def test_a_check_row_of_another_shape_is_refused() -> None:
    rule = parse_contract_text(CONTRACT).rules[0]
    row = ["violated", "REQUIRED_FACT", "$", "high", "blocking", [{}], {"n": 1}, "m"]
    assert _check(rule, row).status is Status.VIOLATED
    for bad in ([], [*row[:5], {}, {}, "m"], [*row[:6], {"n": True}, "m"], [*row[:7], 1]):
        with pytest.raises(ValueError, match="not a check row"):
            _check(rule, bad)
    with pytest.raises(KeyError):
        _check(rule, ["odd", *row[1:]])


def test_a_rule_type_of_no_known_distribution_is_never_cached(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    registry = registry_with_exploding()
    text = CONTRACT + "  - {id: boom, type: Exploding}\n"
    parsed = parse_contract_text(text, registry=registry)
    keys = rule_keys(parsed)
    assert keys[-1].digest is None
    assert all(key.digest is not None for key in keys[:-1])
    results = CaseRuleResults(CacheFolder(tmp_path), "c1", keys)
    trial = results.trial(Document.from_text("x"), Context.empty())
    assert trial.lookup(len(keys) - 1) is None
    trial.add(len(keys) - 1, [])
    assert results.complete is False

    def known() -> dict[str, list[str]]:
        return {"tests": ["textcontract-test-rules"]}

    def version(name: str) -> str:
        assert name == "textcontract-test-rules"
        return "1.2"

    monkeypatch.setattr(importlib.metadata, "packages_distributions", known)
    monkeypatch.setattr(importlib.metadata, "version", version)
    found = _rule_cache._implementation(Exploding)
    assert found == "textcontract-test-rules 1.2 tests.audit.audit_builders.Exploding"


def test_a_corpus_with_a_plugin_rule_counts_its_evaluations_as_misses(tmp_path: Path) -> None:
    registry = registry_with_exploding()
    (tmp_path / "contract.yaml").write_text(
        CONTRACT + "  - {id: boom, type: Exploding}\n", encoding="utf-8"
    )
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "audit.yaml").write_text(AUDIT, encoding="utf-8")
    change = "{replace: [{find: today, with: 'today, money back'}]}"
    (corpus / "c1.yaml").write_text(case_text(violation("v1", change)), encoding="utf-8")
    cache = tmp_path / "cache"
    first = audit_directory(corpus, cache=cache, registry=registry)
    again = audit_directory(corpus, cache=cache, registry=registry)
    assert first.cache is not None
    assert again.cache is not None
    assert (first.cache.hits, first.cache.misses) == (0, 10)  # 5 rules x (baseline + trial)
    assert (again.cache.hits, again.cache.misses) == (8, 2)  # the plugin rule runs each time
    assert again.report == {**first.report, "cache": again.report["cache"]}
