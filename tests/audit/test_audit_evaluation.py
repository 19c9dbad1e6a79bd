"""Workers and the two passes: the contract shipped to workers, parallel runs, rebuilt trials."""

from __future__ import annotations

import hashlib
import json
import pickle
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from tests.audit.audit_builders import (
    REFUND,
    REWORD,
    SHIPPED,
    case_text,
    preserve,
    violation,
    write_corpus,
)
from textcontract import _pool as pool_module
from textcontract._pool import Pool
from textcontract.audit import audit_directory, load_corpus, run_audit
from textcontract.audit.running import _case_passes as case_passes_module
from textcontract.audit.running import _corpus as corpus_module
from textcontract.audit.running import _evaluation as evaluation_module
from textcontract.engine import evaluate
from textcontract.errors import InputError, InternalError
from textcontract.formats.json_text import write_pretty


def refusing_pickle() -> Any:
    def dumps(value: object) -> bytes:
        raise TypeError(f"cannot pickle {type(value).__name__}")

    return SimpleNamespace(dumps=dumps, loads=pickle.loads, PicklingError=pickle.PicklingError)


def test_an_unpicklable_contract_is_loaded_from_its_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus = load_corpus(write_corpus(tmp_path, {"c1.yaml": case_text(violation("v1", REFUND))}))
    monkeypatch.setattr(corpus_module, "pickle", refusing_pickle())
    shipped = corpus.worker_setup()
    assert isinstance(shipped.contract, case_passes_module.ContractFile)
    assert shipped().parsed.digest == corpus.contract.digest


def test_a_worker_refuses_a_contract_that_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus = load_corpus(write_corpus(tmp_path, {"c1.yaml": case_text(preserve("p1", REWORD))}))
    monkeypatch.setattr(corpus_module, "pickle", refusing_pickle())
    shipped = corpus.worker_setup()
    contract = tmp_path / "contract.yaml"
    contract.write_text(contract.read_text("utf-8").replace("minimum: 5", "minimum: 6"), "utf-8")
    with pytest.raises(InternalError, match="another digest"):
        _ = shipped().parsed


def test_without_a_file_an_unpicklable_contract_is_an_internal_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus = load_corpus(write_corpus(tmp_path, {"c1.yaml": case_text(preserve("p1", REWORD))}))
    monkeypatch.setattr(corpus_module, "pickle", refusing_pickle())
    with pytest.raises(InternalError, match="--jobs 1"):
        corpus_module._shippable(corpus.contract, None)


def test_jobs_must_be_positive() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        Pool(0)


def test_small_corpora_start_no_worker() -> None:
    with Pool[int](2) as pool:
        pool.start(pool_module.MIN_ITEMS_FOR_WORKERS - 1)
        assert pool.workers == 0


def _double(state: int, item: int) -> int:
    return state * item


def test_the_pool_returns_results_in_order_whoever_computed_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(pool_module, "MIN_ITEMS_FOR_WORKERS", 0)
    with Pool[int](2) as pool:
        pool.start(500)
        assert pool.workers == 1
        found = list(pool.map(_double, range(500), 3, 2, lambda: _Two()))
    assert found == [2 * item for item in range(500)]


class _Two:
    """A worker's state factory (module level, so that it pickles)."""

    def __call__(self) -> int:
        return 2

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Two)

    def __hash__(self) -> int:
        return 2


def test_workers_give_the_same_bytes_as_one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Both passes in a real spawned worker, against the same audit in this process alone."""
    monkeypatch.setattr(pool_module, "MIN_ITEMS_FOR_WORKERS", 0)
    parallel = audit_directory(SHIPPED, jobs=2)
    alone = audit_directory(SHIPPED, jobs=1)
    assert json.dumps(parallel.report) == json.dumps(alone.report)
    texts: list[list[str]] = [[], []]
    write_pretty(parallel.streamed_report(), texts[0].append)
    write_pretty(alone.streamed_report(), texts[1].append)
    assert "".join(texts[0]) == "".join(texts[1])


def test_trials_are_rebuilt_identically_in_the_second_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The second pass builds the very inputs the first validated (same canonical forms)."""
    corpus = load_corpus(
        write_corpus(
            tmp_path, {"c1.yaml": case_text(violation("v1", REFUND) + preserve("p1", REWORD))}
        )
    )
    first = [entry.fingerprint for entry in corpus.entries]
    rebuilt: list[bytes] = []
    original = case_passes_module.case_item

    def spy(case: Any, trials: Any) -> bytes:
        item = original(case, trials)
        rebuilt.append(hashlib.sha256(item).digest())
        return item

    monkeypatch.setattr(case_passes_module, "case_item", spy)
    report = run_audit(corpus).report
    assert rebuilt == first
    assert [row["variant"] for row in report["variants"]] == ["v1", "p1"]


def test_a_case_file_changed_between_the_passes_is_an_internal_error(tmp_path: Path) -> None:
    corpus_dir = write_corpus(tmp_path, {"c1.yaml": case_text(violation("v1", REFUND))})
    corpus = load_corpus(corpus_dir)
    case = corpus_dir / "c1.yaml"
    case.write_text(case.read_text("utf-8").replace("money back", "refund"), "utf-8")
    with pytest.raises(InternalError, match="changed while it was audited"):
        run_audit(corpus)


def test_an_error_in_the_last_variant_stops_before_anything_is_evaluated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []

    def counting(*arguments: Any) -> Any:
        calls.append(f"evaluated with {len(arguments)} arguments")
        raise AssertionError("nothing may be evaluated before every input is valid")

    monkeypatch.setattr(evaluation_module, "check_trial", counting)
    bad = "{replace: [{find: 'not in the text', with: x}]}"
    cases = {
        f"c{index:02d}.yaml": case_text(violation("v1", REFUND), f"c{index:02d}")
        for index in range(40)
    }
    cases["z-last.yaml"] = case_text(violation("v1", REFUND) + violation("late", bad), "z-last")
    corpus_dir = write_corpus(tmp_path, cases)
    for jobs in (1, 2):
        with pytest.raises(InputError) as caught:
            audit_directory(corpus_dir, jobs=jobs)
        assert [problem.location.file for problem in caught.value.problems] == [
            str(corpus_dir / "z-last.yaml")
        ]
    assert calls == []


def test_text_memo_changes_no_check() -> None:
    """Checks through the per-case memo equal ``engine.evaluate``'s, trial after trial."""
    corpus = load_corpus(SHIPPED)
    for case in corpus.cases:
        memo = evaluation_module.TextMemo()
        inputs = [(case.document, case.context)]
        inputs += [
            (trial.document, trial.context)
            for variant in case.variants
            for trial in corpus.trials(case, variant)
        ]
        for document, context in inputs:
            judged = evaluation_module.check_trial(corpus.contract, document, context, memo)
            report = evaluate(corpus.contract, document, context)
            assert judged.checks == report.checks
            assert (judged.accepted, judged.complete) == (report.accepted, report.complete)
