"""textcontract.dask on a real dask.distributed LocalCluster of two worker processes.

One cluster is started per module (marked ``dask_cluster``; ``pytest -m dask_cluster`` runs
these alone). Every result is held to sequential ``Contract.check`` byte for byte.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

dask_bag = pytest.importorskip("dask.bag")
dask_dataframe = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")
pd = pytest.importorskip("pandas")

import textcontract  # noqa: E402
import textcontract.dask as tcd  # noqa: E402
from textcontract.audit import (  # noqa: E402
    PreflightFailed,
    audit_directory,
    preflight_directory,
)
from textcontract.formats.json_text import dumps_compact, write_pretty  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
CONTRACT = REPO / "fixtures" / "orders" / "textcontract.yaml"
pytestmark = [pytest.mark.dask_cluster, pytest.mark.usefixtures("client")]

TEXTS = [
    "Order #1001 has shipped: https://track.example.net/PW1 " + "words " * 30,
    "Your order has shipped, and we give your money back. " * 3,
    "Order #1002 is on its way. Track it at https://track.example.net/X2 " + "thanks " * 20,
    "Short.",
]


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    with (
        distributed.LocalCluster(
            n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as connected,
    ):
        yield connected


def sequential(contract: textcontract.Contract, record: dict[str, Any]) -> dict[str, Any]:
    """What ``check`` gives for one record, with the record's id as the report's source."""
    report = contract.check(record["document"], record.get("context"))
    found = report.to_dict()
    if "source" in found:
        found["source"] = record["id"]
        return found
    ordered: dict[str, Any] = {}
    for key, value in found.items():
        ordered[key] = value
        if key == "input":
            ordered["source"] = record["id"]
    return ordered


def _shipped_order() -> dict[str, Any]:
    """order-1001 of the fixtures, which the contract accepts, as a record."""
    from textcontract.inputs import load_document_file

    document = load_document_file(REPO / "fixtures" / "orders" / "order-1001.md")
    context = json.loads(
        (REPO / "fixtures" / "orders" / "order-1001.context.json").read_text(encoding="utf-8")
    )
    return {"id": "order-1001", "document": document.to_json(), "context": context}


def records() -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = [_shipped_order()]
    for index in range(24):
        record: dict[str, Any] = {"id": f"r{index:02d}", "document": TEXTS[index % len(TEXTS)]}
        if index % 3:
            record["context"] = {"order.status": "shipped" if index % 2 else "pending"}
        if index % 5 == 0:
            record["document"] = {"surfaces": {"body": TEXTS[0], "subject": "Order #1001"}}
        found.append(record)
    return found


def test_check_bag_gives_the_sequential_reports() -> None:
    contract = textcontract.load_contract(CONTRACT)
    bag = dask_bag.from_sequence(records(), npartitions=6)
    reports = tcd.check_bag(bag, contract).compute()
    expected = [sequential(contract, record) for record in records()]
    assert [dumps_compact(r) for r in reports] == [dumps_compact(r) for r in expected]
    assert [r["source"] for r in reports] == [r["id"] for r in records()]
    assert {r["accepted"] for r in reports} == {True, False}


def test_a_contract_is_compiled_once_per_worker_process(client: Any) -> None:
    def misses() -> int:
        return tcd.compiled.cache_info().misses

    bag = dask_bag.from_sequence(records(), npartitions=12)
    tcd.check_bag(bag, CONTRACT).compute()
    before = client.run(misses)
    assert len(before) == 2
    assert all(count <= 2 for count in before.values())  # this source, and test 1's at most
    for _ in range(3):
        tcd.check_bag(bag, textcontract.load_contract(CONTRACT)).compute()
    assert client.run(misses) == before  # every later task found it compiled


def test_check_dataframe_adds_the_four_columns() -> None:
    contract = textcontract.load_contract(CONTRACT)
    contexts: list[Any] = [
        {"order.status": "shipped"},
        json.dumps({"order.status": "pending"}),
        None,
        float("nan"),
    ]
    frame = pd.DataFrame(
        {
            "body": TEXTS * 3,
            "ctx": contexts * 3,
            "key": list(range(12)),
        }
    )
    import dask

    # dask turns object columns into strings by default (str() of a dict is no JSON)
    with dask.config.set({"dataframe.convert-string": False}):
        distributed_frame = dask_dataframe.from_pandas(frame, npartitions=4)
    checked = tcd.check_dataframe(
        distributed_frame, contract, text="body", context="ctx", id="key"
    ).compute()
    assert list(checked.columns) == [
        "body", "ctx", "key", "accepted", "complete", "violated_rules", "report"
    ]  # fmt: skip
    for position in range(len(frame)):
        row = checked.iloc[position]
        raw = frame["ctx"].iloc[position]
        context = (
            json.loads(raw) if isinstance(raw, str) else raw if isinstance(raw, dict) else None
        )
        report = contract.check(row["body"], context)
        expected = sequential(contract, {"id": str(position), "document": row["body"],
                                         "context": context})  # fmt: skip
        assert row["report"] == dumps_compact(expected)
        assert bool(row["accepted"]) is report.accepted
        assert bool(row["complete"]) is report.complete
        violated = [c.rule_id for c in report.checks if c.status.value == "violated"]
        assert row["violated_rules"] == list(dict.fromkeys(violated))
    assert checked["accepted"].dtype == bool
    assert [rule for rule in checked.iloc[1]["violated_rules"] if rule == "no-refund-promise"] == [
        "no-refund-promise"
    ]


def test_check_dataframe_without_context_or_id() -> None:
    frame = pd.DataFrame({"text": TEXTS})
    checked = tcd.check_dataframe(dask_dataframe.from_pandas(frame, npartitions=2), CONTRACT)
    rows = checked.compute()
    contract = textcontract.load_contract(CONTRACT)
    for text, report in zip(TEXTS, rows["report"], strict=True):
        assert json.loads(report)["source"] is None
        assert report == dumps_compact(sequential(contract, {"id": None, "document": text}))


def test_check_dataframe_refuses_missing_and_clashing_columns() -> None:
    frame = dask_dataframe.from_pandas(
        pd.DataFrame({"text": ["a"], "report": ["x"]}), npartitions=1
    )
    with pytest.raises(KeyError, match="'body'"):
        tcd.check_dataframe(frame, CONTRACT, text="body")
    with pytest.raises(ValueError, match="'report'"):
        tcd.check_dataframe(frame, CONTRACT)


def test_a_contract_with_includes_travels_as_its_files(tmp_path: Path) -> None:
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "shared.yaml").write_text(
        "textcontract: 1\nid: shared\nrules:\n"
        "  - {id: no-cheap, type: ForbiddenPattern, patterns: ['cheap']}\n",
        encoding="utf-8",
    )
    (tmp_path / "top").mkdir()
    top = tmp_path / "top" / "contract.yaml"
    top.write_text(
        "textcontract: 1\nid: top\ninclude: [../rules/shared.yaml, builtin:placeholders]\n"
        "rules:\n  - {id: long, type: MinimumTokens, minimum: 3}\n",
        encoding="utf-8",
    )
    contract = textcontract.load_contract(top)
    source = tcd.contract_source(contract)
    assert source.top is not None
    moved = tmp_path / "elsewhere"
    shutil.move(tmp_path / "top", moved)  # the workers never read the original files
    bag = dask_bag.from_sequence(
        [{"id": "a", "document": "A cheap [NAME] deal"}, {"id": "b", "document": "One two three"}]
    )
    reports = tcd.check_bag(bag, contract).compute()
    assert reports == [
        sequential(contract, {"id": "a", "document": "A cheap [NAME] deal"}),
        sequential(contract, {"id": "b", "document": "One two three"}),
    ]


def test_a_contract_loaded_from_text_travels_too() -> None:
    contract = textcontract.load_contract_text(
        "textcontract: 1\nid: t\ninclude: [builtin:placeholders]\n"
        "rules:\n  - {id: long, type: MinimumTokens, minimum: 3}\n"
    )
    bag = dask_bag.from_sequence([{"id": "x", "document": "todo: write it"}])
    assert tcd.check_bag(bag, contract).compute() == [
        sequential(contract, {"id": "x", "document": "todo: write it"})
    ]


def test_a_bad_record_names_itself() -> None:
    from textcontract.errors import InputError

    bag = dask_bag.from_sequence([{"id": "r1", "document": 5}])
    with pytest.raises(InputError, match="record 'r1'"):
        tcd.check_bag(bag, CONTRACT).compute()


def test_audit_on_the_cluster_is_the_unsharded_report(client: Any, tmp_path: Path) -> None:
    corpus = REPO / "fixtures" / "mutations"
    expected: list[str] = []
    write_pretty(audit_directory(corpus).streamed_report(), expected.append)
    result = tcd.audit(corpus, client)
    produced: list[str] = []
    write_pretty(result.streamed_report(), produced.append)
    assert "".join(produced) == "".join(expected)
    three = tcd.audit(corpus, client, shards=3, cache=tmp_path / "cache")
    assert three.report == result.report
    assert int(three.exit_code) == int(audit_directory(corpus).exit_code)


def test_a_production_audit_with_a_waiver_on_the_cluster_is_the_unsharded_one(
    client: Any,
) -> None:
    corpus = REPO / "fixtures" / "production"
    day = date(2026, 11, 30)
    expected: list[str] = []
    write_pretty(audit_directory(corpus, as_of=day).streamed_report(), expected.append)
    result = tcd.audit(corpus, client, shards=2, as_of=day)
    produced: list[str] = []
    write_pretty(result.streamed_report(), produced.append)
    assert "".join(produced) == "".join(expected)
    assert result.report["waivers"]["declared"][0]["status"] == "honoured"
    with pytest.raises(PreflightFailed) as failed:  # from a worker, with its verdict
        tcd.audit(REPO / "fixtures" / "preflight" / "mutations", client, shards=2)
    assert failed.value.preflight.passed is False
    assert failed.value.preflight.digest == preflight_directory(REPO / "fixtures" / "preflight"
                                                                / "mutations").digest  # fmt: skip
