"""Checking a run's inputs one at a time, in order, in one process or several."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from textcontract._pool import MIN_ITEMS_FOR_WORKERS
from textcontract.contract import parse_contract_file
from textcontract.engine import check_inputs, check_pool
from textcontract.errors import InputError, InternalError
from textcontract.inputs import read_inputs

ORDERS = Path(__file__).resolve().parents[2] / "fixtures" / "orders"


def _folder(tmp_path: Path, count: int) -> str:
    texts = [
        (ORDERS / name).read_text(encoding="utf-8") for name in ("order-1001.md", "order-1002.md")
    ]
    for index in range(count):
        (tmp_path / f"{index:03d}.md").write_text(texts[index % 2], encoding="utf-8")
    return str(tmp_path)


def _parsed() -> object:
    return parse_contract_file(ORDERS / "textcontract.yaml", "textcontract.yaml")


@pytest.mark.parametrize("jobs", [1, 2])
def test_reports_come_in_input_order_whatever_the_jobs(tmp_path: Path, jobs: int) -> None:
    folder = _folder(tmp_path, 40)
    with read_inputs([folder]) as inputs:
        checked = list(check_inputs(_parsed(), inputs, jobs))  # type: ignore[arg-type]
    assert [item.report.source for item in checked] == [f"{folder}/{i:03d}.md" for i in range(40)]
    assert [item.report.accepted for item in checked[:2]] == [False, False]  # empty contexts
    with read_inputs([folder]) as inputs:
        again = list(check_inputs(_parsed(), inputs, 1))  # type: ignore[arg-type]
    assert [item.report.to_json() for item in again] == [item.report.to_json() for item in checked]


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_input_changed_in_a_worker_is_the_input_error(tmp_path: Path, jobs: int) -> None:
    folder = _folder(tmp_path, 40)
    with read_inputs([folder]) as inputs:
        (tmp_path / "039.md").write_text("changed\n", encoding="utf-8")
        with pytest.raises(InputError, match=r"039.md: the file changed since it was validated"):
            list(check_inputs(_parsed(), inputs, jobs))  # type: ignore[arg-type]


def test_a_contract_that_cannot_be_pickled_asks_for_one_job(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _folder(tmp_path, 40)

    def refuse(value: object) -> bytes:
        raise pickle.PicklingError(f"no: {type(value).__name__}")

    monkeypatch.setattr(pickle, "dumps", refuse)
    with (
        read_inputs([folder]) as inputs,
        pytest.raises(InternalError, match="cannot be sent to worker processes"),
    ):
        list(check_inputs(_parsed(), inputs, 2))  # type: ignore[arg-type]


@pytest.mark.parametrize("count", [40, 5])
def test_a_pool_launched_before_the_first_pass_checks_the_same(tmp_path: Path, count: int) -> None:
    """Workers launched before the inputs are known: used for 40 inputs, let go unused for 5
    (under MIN_ITEMS_FOR_WORKERS), the reports those of one process either way."""
    folder = _folder(tmp_path, count)
    with check_pool(2) as pool:
        pool.launch()
        assert pool.workers == 1
        with read_inputs([folder]) as inputs:
            pooled = list(check_inputs(_parsed(), inputs, 2, pool))  # type: ignore[arg-type]
        assert pool.workers == (1 if count >= MIN_ITEMS_FOR_WORKERS else 0)
    with read_inputs([folder]) as inputs:
        alone = list(check_inputs(_parsed(), inputs, 1))  # type: ignore[arg-type]
    assert [item.report.to_json() for item in pooled] == [item.report.to_json() for item in alone]


def test_a_small_run_with_jobs_lets_its_launched_worker_go_cleanly() -> None:
    """One document with --jobs 2, as a real process: the worker launched before the first
    pass goes unused, the run says nothing on stderr (no leaked semaphores) and exits 1."""
    command = [sys.executable, "-m", "textcontract", "check", str(ORDERS / "order-1002.md")]
    command += ["--contract", str(ORDERS / "textcontract.yaml"), "--jobs", "2"]
    finished = subprocess.run(
        [*command, "--format", "jsonl"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (finished.returncode, finished.stderr) == (1, "")
    assert json.loads(finished.stdout)["accepted"] is False


@pytest.mark.parametrize("jobs", [1, 2])
def test_rendered_texts_are_the_reports_rendered_in_input_order(tmp_path: Path, jobs: int) -> None:
    from textcontract.engine import render_inputs
    from textcontract.formats.report_json import jsonl_line

    folder = _folder(tmp_path, 40)
    with read_inputs([folder]) as inputs:
        rendered = list(render_inputs(_parsed(), inputs, jsonl_line, jobs))  # type: ignore[arg-type]
    with read_inputs([folder]) as inputs:
        alone = list(check_inputs(_parsed(), inputs, 1))  # type: ignore[arg-type]
    assert [item.text for item in rendered] == [jsonl_line(item.report) for item in alone]
    assert [item.accepted for item in rendered] == [item.report.accepted for item in alone]


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_input_changed_before_rendering_is_the_input_error(tmp_path: Path, jobs: int) -> None:
    from textcontract.engine import render_inputs
    from textcontract.formats.report_json import jsonl_line

    folder = _folder(tmp_path, 40)
    with read_inputs([folder]) as inputs:
        (tmp_path / "039.md").write_text("changed\n", encoding="utf-8")
        with pytest.raises(InputError, match=r"039.md: the file changed since it was validated"):
            list(render_inputs(_parsed(), inputs, jsonl_line, jobs))  # type: ignore[arg-type]
