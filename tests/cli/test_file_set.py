"""Sets of files in this process: every way a set is put in place (atomic exchange or two
renames, syncfs or fsync one by one), failures, and the folders killed runs left beside a
set (the killed run itself: test_processes.py)."""

from __future__ import annotations

import errno
import fcntl
import os
from pathlib import Path
from typing import Any

import pytest

import textcontract.cli._file_set as file_set
import textcontract.cli._left_behind as left_behind
from textcontract.cli._file_set import FileSet, staged_file_set
from textcontract.cli._left_behind import remove_left_behind
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
        monkeypatch.setattr(file_set, "_exchange", _no_exchange)
    if not syncfs:
        monkeypatch.setattr(file_set, "_syncfs", lambda: None)
    folder = _old_set(tmp_path)
    _write_new(folder)
    assert _files(folder) == {"a/new.json": "new", "b/c/deep.json": "deep"}
    assert [p.name for p in tmp_path.iterdir()] == ["set"]
    # two files and four folders one by one, or one syncfs; then the parent folder
    assert len(synced) == (1 if syncfs else 7)


def test_a_failing_second_rename_puts_the_old_set_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(file_set, "_exchange", _no_exchange)
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


# -- what killed runs left beside a set ------------------------------------------------------

_LEFT = ".set.0123456789ab.tmp"
"""A staging folder a killed run left (``.DIR.<12 hex digits>.tmp``)."""


def _left_folder(tmp_path: Path, name: str) -> Path:
    """A folder as a killed run leaves it: part of a set, with a link inside pointing out."""
    folder = tmp_path / name
    (folder / "case").mkdir(parents=True)
    (folder / "case" / "v1.json").write_text("partial", encoding="utf-8")
    (folder / "case" / "outside").symlink_to(tmp_path / "outside")
    return folder


def test_a_committed_set_removes_the_folders_killed_runs_left_and_nothing_else(
    tmp_path: Path,
) -> None:
    """Beside ``set``: a killed run's staging folder and old set (removed, without following
    the link inside them), and what only looks alike — a link named as a staging folder
    (its target kept), a file of that name, other sets' folders, names that are not 12
    lowercase hex digits or end otherwise (all kept)."""
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "keep.json").write_text("outside", encoding="utf-8")
    _left_folder(tmp_path, _LEFT)
    _left_folder(tmp_path, ".set.ffffffffffff.old")
    (tmp_path / ".set.bbbbbbbbbbbb.tmp").symlink_to(tmp_path / "outside")
    (tmp_path / ".set.cccccccccccc.tmp").write_text("a file", encoding="utf-8")
    for name in [
        ".other.0123456789ab.tmp",
        ".set.0123456789AB.tmp",
        ".set.0123456789a.tmp",
        "set.0123456789ab.tmp",
        ".set.0123456789ab.bak",
    ]:
        _left_folder(tmp_path, name)
    names = {path.name for path in tmp_path.iterdir()} - {_LEFT, ".set.ffffffffffff.old"}
    _write_new(tmp_path / "set")
    assert {path.name for path in tmp_path.iterdir()} == names | {"set"}
    assert _files(tmp_path / "outside") == {"keep.json": "outside"}
    assert _files(tmp_path / "set") == {"a/new.json": "new", "b/c/deep.json": "deep"}


def test_the_staging_folder_of_a_live_run_survives_another_run_writing_the_same_set(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "set"
    with staged_file_set(folder, "the set") as live:
        live.write("live.json", "live")
        (staging,) = tmp_path.glob(".set.*.tmp")
        _write_new(folder)  # another run, from start to end, while this one writes
        assert _files(staging) == {"live.json": "live"}
        live.commit()
    assert _files(folder) == {"live.json": "live"}
    assert [path.name for path in tmp_path.iterdir()] == ["set"]


@pytest.mark.parametrize("exchange", [True, False], ids=["exchange", "two-renames"])
def test_the_old_set_is_held_while_it_is_set_aside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, exchange: bool
) -> None:
    """Once swapped out the old set sits beside the new one under a left folder's name
    until it is removed (or put back, after two renames of which the second failed): a
    run clearing left folders in that moment leaves it, and it can be put back whole."""
    if not exchange:
        monkeypatch.setattr(file_set, "_exchange", _no_exchange)
    folder = _old_set(tmp_path)
    real_rename = os.rename
    calls: list[str] = []

    def clearing_in_between(source: Path, target: Path) -> None:
        calls.append(Path(target).name)
        remove_left_behind(folder, folders=True)  # another run, at this very moment
        if len(calls) == 3:  # staging -> set, after set -> .set.*.old
            (aside,) = tmp_path.glob(".set.*.old")
            assert _files(aside) == {"a/old.json": "old"}
            raise OSError(errno.EIO, "Input/output error")
        real_rename(source, target)

    monkeypatch.setattr(os, "rename", clearing_in_between)
    removed: list[dict[str, str]] = []
    real_remove_tree = left_behind.remove_tree

    def clearing_before_removal(path: Path) -> None:
        remove_left_behind(folder, folders=True)
        removed.append(_files(path))
        real_remove_tree(path)

    monkeypatch.setattr(file_set, "remove_tree", clearing_before_removal)
    if exchange:
        _write_new(folder)
        assert removed == [{"a/old.json": "old"}]
        assert _files(folder) == {"a/new.json": "new", "b/c/deep.json": "deep"}
    else:
        with pytest.raises(InputError, match="Input/output error"):
            _write_new(folder)
        assert _files(folder) == {"a/old.json": "old"}
    assert [path.name for path in tmp_path.iterdir()] == ["set"]


def test_a_staging_name_in_use_is_not_reused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tokens = iter([b"\0" * 6, b"\1" * 6])
    monkeypatch.setattr(os, "urandom", lambda size: next(tokens) if size == 6 else b"")
    taken = _left_folder(tmp_path, f".set.{'00' * 6}.tmp")
    handle = os.open(taken, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)  # a live run's, as it stages its set
        _write_new(tmp_path / "set")
    finally:
        os.close(handle)
    assert _files(tmp_path / "set") == {"a/new.json": "new", "b/c/deep.json": "deep"}
    assert _files(taken) == {"case/v1.json": "partial"}


@pytest.mark.parametrize("moment", ["before-it-is-opened", "before-it-is-locked"])
def test_a_staging_folder_taken_before_it_was_locked_gets_another_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, moment: str
) -> None:
    """A run clearing left folders can remove a new staging folder in the instant between
    its creation and its lock: the set is then staged under another name."""
    taken: list[str] = []

    def take(path: Path) -> None:
        if not taken:
            taken.append(path.name)
            path.rmdir()

    real_open, real_flock = os.open, fcntl.flock

    def opening(path: Path, flags: int, *rest: int, **named: Any) -> int:
        if moment == "before-it-is-opened" and Path(path).name.endswith(".tmp"):
            take(Path(path))
        return real_open(path, flags, *rest, **named)

    def locking(handle: int, operation: int) -> None:
        if moment == "before-it-is-locked" and operation == fcntl.LOCK_EX:
            take(next(tmp_path.glob(".set.*.tmp")))
        real_flock(handle, operation)

    monkeypatch.setattr(os, "open", opening)
    monkeypatch.setattr(fcntl, "flock", locking)
    _write_new(tmp_path / "set")
    assert taken
    assert [path.name for path in tmp_path.iterdir()] == ["set"]


@pytest.mark.parametrize("lock", ["no-flock", "flock-refused"])
def test_where_folders_cannot_be_locked_a_set_is_written_and_nothing_beside_it_removed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lock: str
) -> None:
    """Without ``flock`` (or on a file system refusing it) a live run's staging folder
    cannot be told from a dead run's: nothing beside the set is removed."""
    _left_folder(tmp_path, _LEFT)
    if lock == "no-flock":
        monkeypatch.setattr(left_behind, "fcntl", None)
    else:

        def refused(handle: int, operation: int) -> None:
            del handle, operation
            raise OSError(errno.ENOLCK, os.strerror(errno.ENOLCK))

        monkeypatch.setattr(fcntl, "flock", refused)
    _write_new(_old_set(tmp_path))
    assert sorted(path.name for path in tmp_path.iterdir()) == [_LEFT, "set"]
    assert _files(tmp_path / "set") == {"a/new.json": "new", "b/c/deep.json": "deep"}


@pytest.mark.parametrize("failing", ["open", "fchmod"])
def test_a_staging_folder_that_cannot_be_held_is_removed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing: str
) -> None:
    folder = _old_set(tmp_path)

    def denied(*arguments: object) -> int:
        del arguments
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))

    if failing == "open":  # the first open of the new folder, to lock it
        real_open = os.open
        refused: list[str] = []

        def opening(path: Path, flags: int, *rest: int, **named: Any) -> int:
            if Path(path).name.endswith(".tmp") and not refused:
                refused.append(Path(path).name)
                denied()
            return real_open(path, flags, *rest, **named)

        monkeypatch.setattr(os, "open", opening)
    else:
        monkeypatch.setattr(os, "fchmod", denied)
    with pytest.raises(InputError) as caught:
        FileSet(folder, "the set")
    assert str(caught.value) == f"{folder}: cannot write the set: Permission denied"
    assert [path.name for path in tmp_path.iterdir()] == ["set"]


def test_a_set_replaced_by_a_file_while_staged_is_named_and_left(tmp_path: Path) -> None:
    folder = _old_set(tmp_path)
    with staged_file_set(folder, "the set") as files:
        files.write("x.json", "new")
        _remove_set(folder)
        folder.write_text("not a set", encoding="utf-8")
        with pytest.raises(InputError, match="cannot write the set: Not a directory"):
            files.commit()
    assert folder.read_text(encoding="utf-8") == "not a set"
    assert [path.name for path in tmp_path.iterdir()] == ["set"]


def _remove_set(folder: Path) -> None:
    (folder / "a" / "old.json").unlink()
    (folder / "a").rmdir()
    folder.rmdir()
