"""``audit --cache`` with SPEC §17: production mode, waivers and their date, the preflight.

A cached run's report (its ``preflight`` block and digest included), its artifacts and its
records are an uncached run's bytes; a failed preflight fails alike; the cache holds
evaluation results only, so ``--as-of`` moves nothing it holds; and the preflight's
determinism check compares a fresh check run with the first one, never a cached result
with itself.
"""

from __future__ import annotations

import json
import re
import shutil
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.audit.audit_builders import REPO, REWORD, case_text, preserve, violation, write_corpus
from tests.audit.run_builders import read_tree
from textcontract.audit import AuditResult, PreflightFailed, audit_directory
from textcontract.audit.running._cache import CacheFolder
from textcontract.cli import app
from textcontract.formats.json_text import write_pretty

runner = CliRunner()
PRODUCTION = REPO / "fixtures" / "production"
PREFLIGHT = REPO / "fixtures" / "preflight"


def _run(*args: str | Path) -> tuple[int, str]:
    result = runner.invoke(app, [str(arg) for arg in args])
    return result.exit_code, result.stdout


_CACHE_BLOCK = re.compile(
    r',\n  "cache": \{\n    "hits": (\d+),\n    "misses": (\d+)\n  \}\n\}\n\Z'
)


def _without_cache(text: str) -> tuple[str, dict[str, int]]:
    """A cached report's bytes without its last key, ``cache``, and that block's counts."""
    found = _CACHE_BLOCK.search(text)
    assert found is not None, text[-200:]
    counts = {"hits": int(found.group(1)), "misses": int(found.group(2))}
    return text[: found.start()] + "\n}\n", counts


def _text(result: AuditResult) -> str:
    parts: list[str] = []
    write_pretty(result.streamed_report(), parts.append)
    return "".join(parts)


def _copy_production(tmp_path: Path) -> Path:
    shutil.copytree(PRODUCTION, tmp_path / "production")
    shutil.copytree(REPO / "fixtures" / "orders", tmp_path / "orders")
    return tmp_path / "production"


def _audit_with_sets(
    corpus: Path, out: Path, *flags: str | Path
) -> tuple[int, str, dict[str, object], dict[str, object]]:
    out.mkdir()
    artifacts, records = out / "artifacts", out / "records"
    code, text = _run("audit", corpus, "--format", "json", "--artifacts", artifacts,
                      "--records", records, *flags)  # fmt: skip
    return code, text, read_tree(artifacts), read_tree(records)


def test_a_cached_production_audit_with_a_waiver_is_the_uncached_one(tmp_path: Path) -> None:
    corpus = _copy_production(tmp_path)
    cache = tmp_path / "cache"
    day = ("--as-of", "2026-11-30")
    plain = _audit_with_sets(corpus, tmp_path / "plain", *day)
    assert plain[0] == 0
    report = json.loads(plain[1])
    assert report["mode"] == "production"
    assert report["waivers"]["declared"][0]["status"] == "honoured"
    assert report["preflight"]["passed"] is True
    runs = [_audit_with_sets(corpus, tmp_path / f"run{n}", *day, "--cache", cache) for n in (1, 2)]
    counts = []
    for code, text, artifacts, records in runs:
        bare, cache_block = _without_cache(text)
        assert (code, bare, artifacts, records) == (plain[0], plain[1], plain[2], plain[3])
        counts.append(cache_block)
    total = counts[0]["misses"]
    assert counts == [{"hits": 0, "misses": total}, {"hits": total, "misses": 0}]


def test_the_waiver_date_moves_nothing_the_cache_holds(tmp_path: Path) -> None:
    corpus = _copy_production(tmp_path)
    cache = tmp_path / "cache"
    code, warm = _run("audit", corpus, "--format", "json", "--as-of", "2026-11-30",
                      "--cache", cache)  # fmt: skip
    total = json.loads(warm)["cache"]["misses"]
    for day in ("2027-01-01", "2026-12-31", "2027-06-30"):
        code, plain = _run("audit", corpus, "--format", "json", "--as-of", day)
        code_cached, cached = _run("audit", corpus, "--format", "json", "--as-of", day,
                                   "--cache", cache)  # fmt: skip
        bare, counts = _without_cache(cached)
        assert (code_cached, bare) == (code, plain)
        assert counts == {"hits": total, "misses": 0}  # nothing evaluated again
        status = json.loads(plain)["waivers"]["declared"][0]["status"]
        assert status == ("honoured" if day == "2026-12-31" else "expired")


def test_a_failed_preflight_fails_alike_with_a_cache_and_writes_nothing(tmp_path: Path) -> None:
    corpus = PREFLIGHT / "mutations"
    code, verdict = _run("audit", corpus, "--format", "json")
    assert code == 5
    assert json.loads(verdict)["passed"] is False
    for run in range(2):  # cold, then with the first pass's entries in the folder
        out = tmp_path / f"out{run}"
        code, text = _run("audit", corpus, "--format", "json", "--cache", tmp_path / "cache",
                          "--artifacts", out, "--records", tmp_path / f"rec{run}")  # fmt: skip
        assert (code, text) == (5, verdict)
        assert not out.exists()
        assert not (tmp_path / f"rec{run}").exists()


def _small_corpus(root: Path) -> Path:
    return write_corpus(
        root,
        {
            "c1.yaml": case_text(
                violation("v1", "{claims: {body: {order.total: 11}}}",
                          "{rule: claims, code: CLAIM_STATE_MISMATCH, scope: 'surface:body'}")
                + preserve("p1", REWORD)
            )
        },
    )  # fmt: skip


def test_the_determinism_check_runs_fresh_against_a_cached_first_run(tmp_path: Path) -> None:
    corpus = _small_corpus(tmp_path)
    cache = tmp_path / "cache"
    cold = audit_directory(corpus, cache=cache)
    assert cold.cache is not None
    warm = audit_directory(corpus, cache=cache)
    # the baseline's first run is counted (from the cache); its second, fresh run is not
    assert warm.cache is not None
    assert (warm.cache.hits, warm.cache.misses) == (cold.cache.misses, 0)
    # an entry that a rule no longer reproduces (here: a forged message, checksum intact)
    folder = CacheFolder(cache)
    (entry,) = (cache / "baselines").rglob("*.json")
    header, body = entry.read_text(encoding="utf-8").split("\n", 1)
    value = json.loads(body)
    rule, rows = next(iter(value["rules"].items()))
    rows[0][7] = "a result this rule does not give"
    folder.write("baselines", json.loads(header)["key"], value)
    assert value["rules"][rule] == rows
    with pytest.raises(PreflightFailed) as failed:
        audit_directory(corpus, cache=cache)
    (check,) = [c for c in failed.value.preflight.checks() if c["outcome"] == "failed"]
    assert (check["kind"], check["subject"]) == ("baseline-deterministic", "c1")
    assert "on the first run" in check["note"]
    assert _text(audit_directory(corpus)) == _without_cache(_text(cold))[0]


_FRONT = """\
---
claims:
  body: {order.total: 10}
---
"""
_BODY = "Your order has shipped today and is on its way to you.\nIt ships in a cheap box.\n"
_TONE_CONTRACT = """\
textcontract: 1
id: tone
version: 1
rules:
  - id: claims
    type: DeclaredClaimsConsistent
    severity: critical
  - id: tone
    type: ForbiddenPattern
    enforcement: advisory
    surfaces: [body]
    patterns: ['\\bcheap\\b']
"""


def test_located_evidence_on_a_moved_body_is_not_served_stale(tmp_path: Path) -> None:
    """A surface's origin is in no digest, but located evidence counts lines from it: a
    comment added to the front matter moves the body, and the cache must see it."""
    case = textwrap.dedent(
        """\
        id: c1
        baseline:
          document: documents/c1.md
          context: {order.total: 10}
        variants:
          - id: v1
            relation: violation
            validity: valid
            provenance: test
            expect: [{rule: claims, code: CLAIM_STATE_MISMATCH, scope: 'surface:body'}]
            change: {claims: {body: {order.total: 11}}}
        """
    )
    corpus = write_corpus(
        tmp_path,
        {"c1.yaml": case},
        contract=_TONE_CONTRACT,
        extra_files={"documents/c1.md": _FRONT + _BODY},
    )
    cache = tmp_path / "cache"
    audit_directory(corpus, cache=cache)
    (corpus / "documents" / "c1.md").write_text(
        _FRONT.replace("---\n", "---\n# reviewed\n", 1) + _BODY, encoding="utf-8"
    )
    cached = audit_directory(corpus, cache=cache)  # the preflight passes: no stale location
    plain = audit_directory(corpus)
    assert cached.cache is not None
    assert _without_cache(_text(cached))[0] == _text(plain)
    assert cached.cache.misses > 0


def test_an_edited_exposure_is_not_served_from_the_cache(tmp_path: Path) -> None:
    """``exposure`` is in no fingerprint: cached records are held to the plan's labels."""
    corpus = _small_corpus(tmp_path)
    cache = tmp_path / "cache"
    audit_directory(corpus, cache=cache)
    case = corpus / "c1.yaml"
    text = case.read_text(encoding="utf-8")
    case.write_text(text.replace("- id: v1\n", "- id: v1\n    exposure: held-out\n"), "utf-8")
    cached = audit_directory(corpus, cache=cache)
    plain = audit_directory(corpus)
    assert [row["exposure"] for row in plain.report["variants"]] == ["held-out", "known"]
    assert _without_cache(_text(cached))[0] == _text(plain)
