"""The file-set writer's portable paths (no atomic exchange, no syncfs) and its refusals."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import textcontract.cli._atomic as atomic
from textcontract.cli._atomic import FileSet, staged_file_set
from textcontract.errors import InputError


def _files(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def _no_exchange(first: Path, second: Path) -> bool:
    del first, second
    return False  # as on a system (or a file system) without renameat2(RENAME_EXCHANGE)


def _old_set(tmp_path: Path) -> Path:
    folder = tmp_path / "set"
    (folder / "a").mkdir(parents=True)
    (folder / "a" / "old.json").write_text("old", encoding="utf-8")
    return folder


def _write_new(folder: Path) -> None:
    with staged_file_set(folder, "the set") as files:
        files.write("a/new.json", "new")
        files.write("b/c/deep.json", "deep")
        files.commit()


@pytest.mark.parametrize("exchange", [True, False], ids=["exchange", "two-renames"])
@pytest.mark.parametrize("syncfs", [True, False], ids=["syncfs", "fsync-each"])
def test_a_set_replaces_the_old_one_on_every_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, exchange: bool, syncfs: bool
) -> None:
    synced: list[int] = []
    real_fsync = os.fsync

    def counting_fsync(handle: int) -> None:
        synced.append(handle)
        real_fsync(handle)

    monkeypatch.setattr(os, "fsync", counting_fsync)
    if not exchange:
        monkeypatch.setattr(atomic, "_exchange", _no_exchange)
    if not syncfs:
        monkeypatch.setattr(atomic, "_syncfs", lambda: None)
    folder = _old_set(tmp_path)
    _write_new(folder)
    assert _files(folder) == {"a/new.json": "new", "b/c/deep.json": "deep"}
    assert [p.name for p in tmp_path.iterdir()] == ["set"]
    # two files and four folders one by one, or one syncfs; then the parent folder
    assert len(synced) == (1 if syncfs else 7)


def test_a_failing_second_rename_puts_the_old_set_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(atomic, "_exchange", _no_exchange)
    real_rename = os.rename
    calls: list[str] = []

    def rename(source: Path, target: Path) -> None:
        calls.append(Path(target).name)
        if len(calls) == 3:  # staging -> set, after set -> .set.*.old
            raise OSError(5, "Input/output error")
        real_rename(source, target)

    monkeypatch.setattr(os, "rename", rename)
    folder = _old_set(tmp_path)
    with pytest.raises(InputError) as caught:
        _write_new(folder)
    assert str(caught.value) == f"{folder}: cannot write the set: Input/output error"
    assert _files(folder) == {"a/old.json": "old"}
    assert [p.name for p in tmp_path.iterdir()] == ["set"]


def test_a_new_set_needs_no_old_one(tmp_path: Path) -> None:
    _write_new(tmp_path / "fresh")
    assert _files(tmp_path / "fresh") == {"a/new.json": "new", "b/c/deep.json": "deep"}


def test_an_empty_old_folder_is_replaced(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    _write_new(tmp_path / "empty")
    assert _files(tmp_path / "empty") == {"a/new.json": "new", "b/c/deep.json": "deep"}


def test_a_set_left_uncommitted_leaves_nothing(tmp_path: Path) -> None:
    folder = _old_set(tmp_path)
    with staged_file_set(folder, "the set") as files:
        files.write("x.json", "never")
    assert _files(folder) == {"a/old.json": "old"}
    assert [p.name for p in tmp_path.iterdir()] == ["set"]


@pytest.mark.parametrize("relative", ["", "/abs.json", "../up.json", "a/../../up.json"])
def test_a_path_outside_the_set_is_refused(tmp_path: Path, relative: str) -> None:
    with (
        staged_file_set(tmp_path / "set", "the set") as files,
        pytest.raises(ValueError, match="is not a path inside the set"),
    ):
        files.write(relative, "x")
    assert list(tmp_path.iterdir()) == []


def test_the_root_folder_is_never_replaced() -> None:
    with pytest.raises(InputError, match="the root folder cannot be replaced"):
        FileSet(Path("/"), "the set")
