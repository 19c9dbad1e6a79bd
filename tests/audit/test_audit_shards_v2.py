"""Sharded audits with SPEC §17: the parts of a production audit with waivers, a source
revision and a recommendation over every case merge into the unsharded bytes (report,
artifacts, records); a breached re-execution cap merges into the same INVALID report; parts
of other modes, waivers, waiver dates or source revisions are refused (exit 4); a failed
preflight fails every shard alike and merges into the unsharded audit's verdict (exit 5)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from tests.audit.audit_builders import REFUND, REPO, case_text, violation, write_corpus
from tests.audit.run_builders import read_tree
from textcontract.audit import Shard
from textcontract.cli import app

runner = CliRunner()
COMMIT = "0123456789abcdef0123456789abcdef01234567"
WAIVERS = """\
waivers:
  - id: w-honoured
    probes: [order-3001/refund-reoffer]
    reason: "refund wording under legal review"
    approved_by: "j.doe"
    expires: 2026-12-31
  - id: w-expired
    rules: [no-refund-promise]
    reason: "an older review"
    approved_by: "j.doe"
    expires: 2026-01-31
"""


def _run(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(arg) for arg in args])
    return result.exit_code, result.stdout, result.stderr


def _production(tmp_path: Path, audit_extra: str = WAIVERS) -> Path:
    """The shipped production corpus with three cases in two shards: order-3001 and
    order-3003 (whose baseline is rejected: the order is still pending) in shard 1 of 2,
    order-3005 in shard 2."""
    shutil.copytree(REPO / "fixtures" / "production", tmp_path / "production")
    shutil.copytree(REPO / "fixtures" / "orders", tmp_path / "orders")
    corpus = tmp_path / "production"
    audit = corpus / "audit.yaml"
    text = audit.read_text(encoding="utf-8")
    audit.write_text(text[: text.index("waivers:")] + audit_extra, encoding="utf-8")
    case = (corpus / "order-3001.yaml").read_text(encoding="utf-8")
    (corpus / "order-3005.yaml").write_text(case.replace("id: order-3001", "id: order-3005"))
    pending = corpus / "documents" / "order-3003.context.json"
    context = (corpus / "documents" / "order-3001.context.json").read_text(encoding="utf-8")
    pending.write_text(context.replace('"shipped"', '"pending"'), encoding="utf-8")
    (corpus / "order-3003.yaml").write_text(
        case.replace("id: order-3001", "id: order-3003").replace(
            "order-3001.context.json", "order-3003.context.json"
        )
    )
    assert [Shard.of(c, 2) for c in ("order-3001", "order-3003", "order-3005")] == [1, 1, 2]
    return corpus


def _parts(corpus: Path, folder: Path, count: int, *flags: str | Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    parts = []
    for index in range(1, count + 1):
        part = folder / f"part-{index}.json"
        code, out, err = _run("audit", corpus, "--shard", f"{index}/{count}", "--format",
                              "json", "--output", part, *flags)  # fmt: skip
        assert (code, out) == (0, ""), err
        parts.append(part)
    return parts


def _load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _statuses(report: dict[str, Any]) -> dict[str, str]:
    return {entry["id"]: entry["status"] for entry in report["waivers"]["declared"]}


def test_a_production_audit_with_waivers_merges_into_the_unsharded_bytes(tmp_path: Path) -> None:
    corpus = _production(tmp_path)
    flags = ("--as-of", "2026-11-30", "--source-revision", COMMIT + "+clean")
    sets = tmp_path / "sets"
    sets.mkdir()
    code, full, err = _run("audit", corpus, "--format", "json", *flags,
                           "--artifacts", sets / "a0", "--records", sets / "r0")  # fmt: skip
    report = json.loads(full)
    assert code == 1, err  # order-3003's rejected baseline: the recommendation is FAIL
    assert (report["mode"], report["evaluator_recommendation"]) == ("production", "FAIL")
    assert _statuses(report) == {"w-expired": "expired", "w-honoured": "honoured"}
    one, two = (_load(part) for part in _parts(corpus, tmp_path / "parts", 2, *flags))
    # each shard judged the waivers on its own cases ...
    assert _statuses(one) == {"w-expired": "expired", "w-honoured": "honoured"}
    assert _statuses(two) == {"w-expired": "expired", "w-honoured": "unused"}
    # ... and shard 2, which holds no rejected baseline, still recommends over every case
    assert [case["case"] for case in two["shard"]["cases"]] == ["order-3005"]
    assert two["evaluator_recommendation"] == "FAIL"
    assert one["preflight"] == two["preflight"] == report["preflight"]
    parts = [tmp_path / "parts" / "part-2.json", tmp_path / "parts" / "part-1.json"]
    code, merged, err = _run("merge", *parts, "--artifacts", sets / "a1", "--records", sets / "r1")
    assert (code, merged) == (1, full), err
    assert read_tree(sets / "a1") == read_tree(sets / "a0")
    assert read_tree(sets / "r1") == read_tree(sets / "r0")
    assert read_tree(sets / "a0")


def test_a_breached_cap_merges_into_the_same_invalid_report(tmp_path: Path) -> None:
    no_body = "{document: {surfaces: {title: {text: x}}}}"  # the rules raise: oracle-error
    corpus = write_corpus(
        tmp_path,
        {
            "c3.yaml": case_text(violation("v1", REFUND), "c3"),
            "c0.yaml": case_text(violation("v1", REFUND) + violation("v2", no_body), "c0"),
        },
        audit="contract: ../contract.yaml\npolicy: {re_execution_cap: 0}\n",
    )
    code, full, _ = _run("audit", corpus, "--format", "json")
    assert code == 5
    assert json.loads(full)["verdict"] == {
        "value": "INVALID",
        "reasons": ["re-execution-cap-exceeded"],
    }
    parts = _parts(corpus, tmp_path / "parts", 2)
    # a part's verdict is its own cases': only shard 2 holds the breach, and exits 0
    assert [_load(part)["verdict"]["value"] for part in parts] == ["CONCERNS", "INVALID"]
    artifacts = tmp_path / "artifacts"
    code, merged, err = _run("merge", *parts, "--artifacts", artifacts)
    assert (code, merged) == (5, full), err
    assert not artifacts.exists()  # an INVALID run mints no artifact


def _refusal(parts: list[Path]) -> str:
    code, out, err = _run("merge", *parts)
    assert (code, out) == (4, ""), err
    assert err.count("\n") == 1
    return err


def test_parts_of_other_modes_waivers_dates_or_revisions_are_refused(tmp_path: Path) -> None:
    corpus = _production(tmp_path)
    base = ("--as-of", "2026-11-30", "--source-revision", COMMIT)
    one, _ = _parts(corpus, tmp_path / "base", 2, *base)
    others = {
        "mode": ("--mode", "contract-scoring", *base),
        "as_of": ("--as-of", "2026-12-01", "--source-revision", COMMIT),
        "source_revision": ("--as-of", "2026-11-30", "--source-revision", COMMIT + "+dirty"),
    }
    expected = {
        "mode": "its mode differs from",
        "as_of": "its waivers (or their as_of date) differ from",
        "source_revision": "its source_revision differs from",
    }
    for name, flags in others.items():
        _, two = _parts(corpus, tmp_path / name, 2, *flags)
        message = _refusal([one, two])
        assert f"merge refuses {two}: {expected[name]} {one}'s" in message, message
    # the same dates and revision, but a waiver that reads otherwise
    audit = corpus / "audit.yaml"
    audit.write_text(audit.read_text(encoding="utf-8").replace("an older review", "another"))
    _, two = _parts(corpus, tmp_path / "reworded", 2, *base)
    assert "its waivers (or their as_of date) differ" in _refusal([one, two])


def test_a_failed_preflight_fails_every_shard_and_merges_into_its_verdict(tmp_path: Path) -> None:
    corpus = REPO / "fixtures" / "preflight" / "mutations"
    code, verdict, _ = _run("audit", corpus, "--format", "json")
    assert code == 5
    assert json.loads(verdict)["passed"] is False
    parts = []
    for index in (1, 2):
        part = tmp_path / f"part-{index}.json"
        code, out, _ = _run("audit", corpus, "--shard", f"{index}/2", "--format", "json",
                            "--output", part)  # fmt: skip
        assert (code, out) == (5, "")
        assert part.read_text(encoding="utf-8") == verdict  # every shard fails alike
        parts.append(part)
    assert _run("merge", *parts)[:2] == (5, verdict)
    code, text, _ = _run("merge", *parts, "--format", "text")
    assert code == 5
    assert "fault-scoped" in text
    # a failed verdict beside a part of another run does not belong with it
    another = write_corpus(tmp_path / "other", {"c1.yaml": case_text(violation("v1", REFUND))})
    other = _parts(another, tmp_path / "other-parts", 2)
    message = _refusal([parts[0], other[1]])
    assert f"merge refuses {other[1]}: a part file, while {parts[0]}" in message
