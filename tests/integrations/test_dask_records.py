"""The adapters' record and row handling, without a cluster (Dask's own scheduler or none)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import textcontract
from textcontract.errors import InputError, InternalError
from textcontract.integrations import dask as adapter

REPO = Path(__file__).resolve().parents[2]
CONTRACT = REPO / "fixtures" / "orders" / "textcontract.yaml"


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ("text", "needs 'id' and 'document'"),
        ({"id": "a"}, "needs 'id' and 'document'"),
        ({"id": 1, "document": "x"}, "'id' must be a string"),
        ({"id": "a", "document": "x", "extra": 1}, "unknown key 'extra'"),
        ({"id": "a", "document": 5}, "record 'a'"),
        ({"id": "a", "document": "x", "context": 5}, "context: expected an object"),
        ({"id": "a", "document": "x", "context": "{not json"}, "invalid JSON"),
        ({"id": "a", "document": {"surfaces": []}}, "record 'a'"),
    ],
)
def test_a_bad_record_is_an_input_error(record: Any, message: str) -> None:
    source = adapter.contract_source(CONTRACT)
    with pytest.raises(InputError, match=message):
        adapter.check_record(source, record)


def test_a_record_with_json_text_context() -> None:
    source = adapter.contract_source(CONTRACT)
    found = adapter.check_record(
        source, {"id": "a", "document": "x", "context": '{"order.status": "shipped"}'}
    )
    contract = textcontract.load_contract(CONTRACT)
    assert found["input"] == contract.check("x", {"order.status": "shipped"}).to_dict()["input"]
    assert found["source"] == "a"
    assert list(found).index("source") == list(found).index("input") + 1


def test_a_contract_compiled_with_another_digest_fails_loudly() -> None:
    source = replace(adapter.contract_source(CONTRACT), digest="sha256:other")
    with pytest.raises(InternalError, match="is the same textcontract"):
        adapter.compiled(source)


def test_a_contract_without_its_text_cannot_travel() -> None:
    contract = textcontract.load_contract(CONTRACT)
    stripped = textcontract.Contract(replace(contract.parsed, texts=()))
    with pytest.raises(ValueError, match="source text"):
        adapter.contract_source(stripped)


def test_ids_of_rows() -> None:
    np = pytest.importorskip("numpy")
    assert adapter._id("a", 0) == "a"
    assert adapter._id(7, 0) == "7"
    assert adapter._id(np.int64(8), 0) == "8"
    for bad in (True, 1.5, None):
        with pytest.raises(InputError, match="row 3"):
            adapter._id(bad, 3)


def test_missing_contexts() -> None:
    pytest.importorskip("pandas")
    assert adapter._missing(None)
    assert adapter._missing(float("nan"))
    assert not adapter._missing({})
    assert not adapter._missing("{}")


def test_a_text_that_is_no_text_is_an_input_error() -> None:
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"text": [3]})
    source = adapter.contract_source(CONTRACT)
    with pytest.raises(InputError, match="text: expected a text"):
        adapter._check_frame(frame, source, adapter._Columns("text", None, None))
