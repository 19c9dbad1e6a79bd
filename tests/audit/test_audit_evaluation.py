"""Sending the contract to worker processes: pickled, or loaded again from its file."""

from __future__ import annotations

import pickle
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from tests.audit.audit_builders import REFUND, REWORD, case_text, preserve, violation, write_corpus
from textcontract.audit import _evaluation as evaluation_module
from textcontract.audit import load_corpus
from textcontract.errors import InternalError


def refusing_pickle() -> Any:
    def dumps(value: object) -> bytes:
        raise TypeError(f"cannot pickle {type(value).__name__}")

    return SimpleNamespace(dumps=dumps, loads=pickle.loads, PicklingError=pickle.PicklingError)


def test_an_unpicklable_contract_is_loaded_from_its_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus = load_corpus(write_corpus(tmp_path, {"c1.yaml": case_text(violation("v1", REFUND))}))
    monkeypatch.setattr(evaluation_module, "pickle", refusing_pickle())
    monkeypatch.setattr(evaluation_module, "_WORKER", {})
    shipped = evaluation_module._shippable(corpus.contract, corpus.contract_path)
    assert not isinstance(shipped, bytes)
    evaluation_module._start_worker(shipped)
    assert evaluation_module._WORKER["definition"].digest == corpus.contract.digest


def test_a_worker_refuses_a_contract_that_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus_dir = write_corpus(tmp_path, {"c1.yaml": case_text(preserve("p1", REWORD))})
    corpus = load_corpus(corpus_dir)
    monkeypatch.setattr(evaluation_module, "pickle", refusing_pickle())
    monkeypatch.setattr(evaluation_module, "_WORKER", {})
    shipped = evaluation_module._shippable(corpus.contract, corpus.contract_path)
    contract = tmp_path / "contract.yaml"
    contract.write_text(contract.read_text("utf-8").replace("minimum: 5", "minimum: 6"), "utf-8")
    with pytest.raises(InternalError, match="another digest"):
        evaluation_module._start_worker(shipped)


def test_without_a_file_an_unpicklable_contract_is_an_internal_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus = load_corpus(write_corpus(tmp_path, {"c1.yaml": case_text(preserve("p1", REWORD))}))
    monkeypatch.setattr(evaluation_module, "pickle", refusing_pickle())
    with pytest.raises(InternalError, match="--jobs 1"):
        evaluation_module._shippable(corpus.contract, None)


def test_jobs_must_be_positive(tmp_path: Path) -> None:
    corpus = load_corpus(write_corpus(tmp_path, {"c1.yaml": case_text(preserve("p1", REWORD))}))
    with pytest.raises(ValueError, match="at least 1"):
        evaluation_module.Evaluator(corpus.contract, 0)
