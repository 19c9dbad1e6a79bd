"""Sharded audits and ``textcontract merge`` (SPEC §16): the parts of every shard merge into
the unsharded report's bytes; parts that do not belong together are refused (exit 4)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.audit.audit_builders import REPO
from textcontract.audit import Shard
from textcontract.cli import app

SHIPPED = REPO / "fixtures" / "mutations"
GENERATED = REPO / "fixtures" / "generated"


def textcontract(*arguments: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "textcontract", *map(str, arguments)],
        capture_output=True,
        text=True,
        check=False,
    )


def parts_of(corpus: Path, count: int, folder: Path, *extra: str) -> list[Path]:
    parts = []
    for index in range(1, count + 1):
        part = folder / f"part-{index}-of-{count}.json"
        done = textcontract("audit", corpus, "--shard", f"{index}/{count}", "--output", part,
                            "--format", "json", *extra)  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert done.stdout == ""
        parts.append(part)
    return parts


@pytest.mark.parametrize("corpus", [SHIPPED, GENERATED], ids=["shipped", "generated"])
@pytest.mark.parametrize("count", [1, 2, 3, 7])
def test_merging_every_part_gives_the_unsharded_bytes(
    tmp_path: Path, corpus: Path, count: int
) -> None:
    full = textcontract("audit", corpus, "--format", "json")
    parts = parts_of(corpus, count, tmp_path)
    merged = textcontract("merge", *reversed(parts))  # any order
    assert merged.stdout == full.stdout
    assert merged.returncode == full.returncode
    for part in parts:
        report = json.loads(part.read_text(encoding="utf-8"))
        assert report["shard"]["index"] in range(1, count + 1)
        assert report["shard"]["count"] == count
        assert report["corpus"] == json.loads(full.stdout)["corpus"]


def test_merge_through_the_cli_runner_writes_output_and_sets(tmp_path: Path) -> None:
    parts = parts_of(SHIPPED, 2, tmp_path)
    full = textcontract("audit", SHIPPED, "--format", "json", "--artifacts", tmp_path / "a0")
    result = CliRunner().invoke(
        app,
        ["merge", *map(str, parts), "--output", str(tmp_path / "merged.json"),
         "--artifacts", str(tmp_path / "a1")],
    )  # fmt: skip
    assert result.exit_code == full.returncode, result.output
    assert (tmp_path / "merged.json").read_text(encoding="utf-8") == full.stdout
    artifacts = sorted(p.relative_to(tmp_path / "a0") for p in (tmp_path / "a0").rglob("*.json"))
    assert artifacts
    for relative in artifacts:
        assert (tmp_path / "a1" / relative).read_bytes() == (
            tmp_path / "a0" / relative
        ).read_bytes()


def test_merge_exits_as_the_audit_would_and_takes_threshold_flags(tmp_path: Path) -> None:
    parts = parts_of(SHIPPED, 2, tmp_path)
    strict = textcontract("merge", *parts, "--min-detection", "1.0")
    assert strict.returncode == textcontract("audit", SHIPPED, "--min-detection", "1.0",
                                             "--format", "json").returncode == 1  # fmt: skip
    text = textcontract("merge", *parts, "--format", "text")
    assert "detection" in text.stdout


def test_a_part_exits_0_whatever_its_own_figures() -> None:
    done = textcontract("audit", SHIPPED, "--shard", "1/2", "--min-detection", "1.0",
                        "--format", "json")  # fmt: skip
    assert done.returncode == 0
    assert json.loads(done.stdout)["shard"]["thresholds"] == {
        "detection": 1.0,
        "preservation": 0.8,
    }


def _rewrite(path: Path, change: Any) -> Path:
    report = json.loads(path.read_text(encoding="utf-8"))
    change(report)
    target = path.with_name("edited-" + path.name)
    target.write_text(json.dumps(report, indent=2), encoding="utf-8")
    return target


def _refusal(*parts: Path) -> str:
    done = textcontract("merge", *parts)
    assert done.returncode == 4, done.stderr
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1
    return done.stderr


@pytest.fixture
def two(tmp_path: Path) -> list[Path]:
    return parts_of(SHIPPED, 2, tmp_path)


def test_a_missing_shard_is_refused(two: list[Path]) -> None:
    assert "shard 2/2 is missing" in _refusal(two[0])


def test_a_duplicate_shard_is_refused(two: list[Path]) -> None:
    assert f"merge refuses {two[0]}: shard 1/2 is also {two[0]}" in _refusal(*two, two[0])


def test_parts_of_another_corpus_are_refused(tmp_path: Path, two: list[Path]) -> None:
    (tmp_path / "other").mkdir()
    other = parts_of(GENERATED, 2, tmp_path / "other")
    assert f"merge refuses {other[1]}: its corpus differs from {two[0]}'s" in _refusal(
        two[0], other[1]
    )


def test_parts_of_another_contract_are_refused(tmp_path: Path, two: list[Path]) -> None:
    shutil.copytree(SHIPPED, tmp_path / "mutations")
    shutil.copytree(REPO / "fixtures" / "orders", tmp_path / "orders")
    contract = tmp_path / "orders" / "textcontract.yaml"
    contract.write_text(
        contract.read_text(encoding="utf-8").replace("minimum: 25", "minimum: 26"), "utf-8"
    )
    (tmp_path / "o").mkdir()
    other = parts_of(tmp_path / "mutations", 2, tmp_path / "o")
    assert "its contract differs" in _refusal(two[0], other[1])


def test_parts_of_another_policy_are_refused(tmp_path: Path, two: list[Path]) -> None:
    shutil.copytree(SHIPPED, tmp_path / "mutations")
    shutil.copytree(REPO / "fixtures" / "orders", tmp_path / "orders")
    audit_yaml = tmp_path / "mutations" / "audit.yaml"
    audit_yaml.write_text(
        audit_yaml.read_text(encoding="utf-8").replace(
            "catch_threshold: 0.5", "catch_threshold: 0.6"
        ),
        "utf-8",
    )
    (tmp_path / "o").mkdir()
    other = parts_of(tmp_path / "mutations", 2, tmp_path / "o")
    assert "its policy differs" in _refusal(two[0], other[1])


def test_parts_of_another_engine_version_are_refused(two: list[Path]) -> None:
    def older(report: dict[str, Any]) -> None:
        report["engine"]["version"] = "0.0.9"

    edited = _rewrite(two[1], older)
    assert f"merge refuses {edited}: written by engine" in _refusal(two[0], edited)


def test_parts_computed_under_another_unicode_version_are_refused(two: list[Path]) -> None:
    """A merged report records one ``engine.unicode`` (SPEC §20): parts must agree on it."""

    def elsewhere(report: dict[str, Any]) -> None:
        report["engine"]["unicode"]["unicodedata"] = "15.1.0"

    edited = _rewrite(two[1], elsewhere)
    refusal = _refusal(two[0], edited)
    assert f"merge refuses {edited}: its engine" in refusal
    assert f"differs from {two[0]}'s" in refusal


def test_parts_of_another_shard_count_are_refused(tmp_path: Path, two: list[Path]) -> None:
    (tmp_path / "three").mkdir()
    three = parts_of(SHIPPED, 3, tmp_path / "three")
    assert "its shard.count differs" in _refusal(two[0], three[1])


def test_a_part_whose_case_is_in_another_shard_is_refused(two: list[Path]) -> None:
    def moved(report: dict[str, Any]) -> None:
        report["shard"]["index"] = 3 - report["shard"]["index"]

    edited = _rewrite(two[0], moved)
    assert "does not belong to shard" in _refusal(edited, two[1])


def test_a_file_that_is_no_part_is_exit_2(tmp_path: Path, two: list[Path]) -> None:
    full = tmp_path / "full.json"
    full.write_text(textcontract("audit", SHIPPED, "--format", "json").stdout, encoding="utf-8")
    done = textcontract("merge", two[0], full)
    assert done.returncode == 2
    assert f"{full}" in done.stderr
    assert "not a part file" in done.stderr

    def broken(report: dict[str, Any]) -> None:
        report["shard"]["cases"][0]["variants"][0]["relation"] = "sideways"

    done = textcontract("merge", _rewrite(two[0], broken), two[1])
    assert done.returncode == 2
    assert "shard.cases[0].variants[0].relation" in done.stderr


@pytest.mark.parametrize("shard", ["0/2", "3/2", "1/0", "a/b", "1-2"])
def test_a_bad_shard_is_a_usage_error(shard: str) -> None:
    done = textcontract("audit", SHIPPED, "--shard", shard, "--format", "json")
    assert done.returncode == 2
    assert "--shard" in done.stderr


def test_a_part_is_json_only() -> None:
    done = textcontract("audit", SHIPPED, "--shard", "1/2")
    assert done.returncode == 2
    assert "--format json" in done.stderr


def test_the_shard_of_a_case_is_a_stable_hash_of_its_id() -> None:
    # first eight bytes of SHA-256("order-1001"), big-endian, modulo N, plus one
    import hashlib

    value = int.from_bytes(hashlib.sha256(b"order-1001").digest()[:8], "big")
    for count in (1, 2, 3, 10):
        assert Shard.of("order-1001", count) == value % count + 1
    assert [Shard.of(f"case-{i}", 4) for i in range(8)] == [
        Shard.of(f"case-{i}", 4) for i in range(8)
    ]
    assert Shard.parse("2/5") == Shard(2, 5)


def test_a_shard_with_a_cache_skips_the_other_shards_cases(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = textcontract("audit", SHIPPED, "--shard", "1/2", "--format", "json",
                         "--cache", cache)  # fmt: skip
    again = textcontract("audit", SHIPPED, "--shard", "1/2", "--format", "json",
                         "--cache", cache)  # fmt: skip
    assert json.loads(again.stdout)["cache"]["misses"] == 0
    assert json.loads(first.stdout)["shard"] == json.loads(again.stdout)["shard"]
