"""One contract discovery for ``check`` and ``audit``: the given one, else the nearest."""

from __future__ import annotations

from pathlib import Path

import pytest

from textcontract.contract import CONTRACT_FILENAME, locate_contract


def test_the_given_contract_wins_and_is_named_as_written(tmp_path: Path) -> None:
    (tmp_path / CONTRACT_FILENAME).write_text("x", encoding="utf-8")
    assert locate_contract("elsewhere/c.yaml", tmp_path) == (
        Path("elsewhere/c.yaml"),
        "elsewhere/c.yaml",
    )


def test_the_nearest_contract_upwards(tmp_path: Path) -> None:
    inner = tmp_path / "a" / "b"
    inner.mkdir(parents=True)
    assert locate_contract(None, inner) is None
    (tmp_path / CONTRACT_FILENAME).write_text("x", encoding="utf-8")
    found, shown = locate_contract(None, inner) or (None, "")
    assert found == (tmp_path / CONTRACT_FILENAME).resolve()
    assert shown == str(found)  # in a parent: named by its absolute path
    (inner / CONTRACT_FILENAME).write_text("x", encoding="utf-8")
    assert locate_contract(None, inner) == (inner.resolve() / CONTRACT_FILENAME, CONTRACT_FILENAME)


def test_the_current_folder_is_the_default_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / CONTRACT_FILENAME).write_text("x", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert locate_contract(None) == (tmp_path.resolve() / CONTRACT_FILENAME, CONTRACT_FILENAME)


def test_a_folder_named_like_the_contract_is_not_one(tmp_path: Path) -> None:
    (tmp_path / CONTRACT_FILENAME).mkdir()
    assert locate_contract(None, tmp_path) is None
