"""Writing a set of files (``--artifacts DIR``, ``--records DIR``) whole.

The set is written into a temporary sibling folder and swapped into place in one step, so
``DIR`` holds the old set or the new one, never a mix. Files get mode ``0666 & ~umask``,
folders ``0777 & ~umask``; a replaced set keeps its folder's mode, and a symlinked ``DIR``
stays a link (its target is replaced). Every failure is an :class:`InputError` naming the
file (exit 2), and the temporary folder is removed. The staging folder, and the old set
while it is set aside, are held locked; the run that puts a set in place removes the ones
killed runs left (``_left_behind``).

``check_output_folder`` tells before a command runs whether the set can be written there.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from textcontract.cli._atomic import failure, folder_problem, sync_folder
from textcontract.cli._left_behind import (
    locked_folder,
    remove_left_behind,
    remove_tree,
    temporary_name,
)
from textcontract.errors import InputError

__all__ = ["FileSet", "check_output_folder", "staged_file_set"]

_SET_FILE_SUFFIX = ".json"
_RENAME_EXCHANGE = 2  # renameat2(2) flag: swap two paths atomically (Linux)
_AT_FDCWD = -100


def _foreign_file(folder: Path) -> str | None:
    """A file in ``folder`` that no set of JSON files holds, or None."""
    for parent, _, names in os.walk(folder):
        for name in names:
            path = Path(parent, name)
            if not name.endswith(_SET_FILE_SUFFIX) or path.is_symlink() or not path.is_file():
                return str(path.relative_to(folder))
    return None


def _plan_folder(folder: Path) -> tuple[Path, os.stat_result | None] | str:
    """The real folder a set replaces (symlinks followed) and its status; or why not."""
    target = Path(os.path.realpath(folder))
    if not target.name:
        return "the root folder cannot be replaced"
    if target.exists():
        if not target.is_dir():
            return "it is not a folder"
        foreign = _foreign_file(target)
        if foreign is not None:
            return (
                f"it holds {foreign!r}, which is no part of a set of JSON files; the whole "
                "folder is replaced, so name a new or empty folder, or one written before"
            )
    problem = folder_problem(target.parent if str(target.parent) else Path("."))
    if problem is not None:
        return problem
    return target, target.stat() if target.exists() else None


def check_output_folder(folder: Path | None, what: str) -> None:
    """Raise an :class:`InputError` now if the set ``what`` could not be written to ``folder``."""
    if folder is None:
        return
    plan = _plan_folder(folder)
    if isinstance(plan, str):
        raise InputError.at(f"cannot write {what}: {plan}", str(folder))


class FileSet:
    """A set of files written into a temporary sibling folder, put in place by :meth:`commit`."""

    def __init__(self, folder: Path, what: str) -> None:
        self._display = str(folder)
        self._what = what
        plan = _plan_folder(folder)
        if isinstance(plan, str):
            raise InputError.at(f"cannot write {what}: {plan}", self._display)
        self._target, existing = plan
        # One syncfs(2) of the file system at the end flushes every file of the set; where
        # there is none, each file is fsynced as it is written.
        self._sync_each = _syncfs() is None
        try:
            staging, lock = _staging_folder(self._target)
        except OSError as exc:
            raise failure(what, self._display, exc) from None
        self._staging = staging
        self._lock: int | None = lock
        self._folders = {self._staging}
        if existing is not None:
            self._keep_mode(existing)

    def _keep_mode(self, existing: os.stat_result) -> None:
        try:
            os.fchmod(self._live(), stat.S_IMODE(existing.st_mode))
        except OSError as exc:
            self.discard()
            raise failure(self._what, self._display, exc) from None

    def _live(self) -> int:
        """The descriptor holding the staging folder locked, while the set is being written."""
        assert self._lock is not None, "the set was committed or discarded"
        return self._lock

    def write(self, relative: str, text: str) -> None:
        """Add the file ``relative`` (a POSIX path inside the set) holding ``text``."""
        self._live()
        parts = Path(relative).parts
        if not parts or Path(relative).is_absolute() or ".." in parts:
            raise ValueError(f"{relative!r} is not a path inside the set")
        path = self._staging.joinpath(*parts)
        shown = os.path.join(self._display, *parts)
        try:
            self._make_folders(path.parent)
            handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
            with open(handle, "wb") as stream:
                stream.write(text.encode("utf-8"))
                stream.flush()
                if self._sync_each:
                    os.fsync(stream.fileno())
        except OSError as exc:
            raise failure(self._what, shown, exc) from None

    def _make_folders(self, folder: Path) -> None:
        if folder not in self._folders:
            self._make_folders(folder.parent)
            folder.mkdir(0o777, exist_ok=True)
            self._folders.add(folder)

    def commit(self) -> None:
        """Put the new set where the old one was (or in its place), in one step; then
        remove what killed runs writing the same folder left beside it."""
        self._live()
        self._sync()
        with _old_set_held(self._target):
            try:
                old = _swap_in(self._staging, self._target)
            except OSError as exc:
                raise failure(self._what, self._display, exc) from None
            self._release()
            sync_folder(self._target.parent)
            if old is not None:
                remove_tree(old)
        remove_left_behind(self._target, folders=True)

    def _sync(self) -> None:
        if self._sync_each:
            for folder in self._folders:
                sync_folder(folder)
        else:  # files and folders alike
            _sync_file_system(self._live(), self._what, self._display)

    def discard(self) -> None:
        """Remove the temporary folder (nothing happens after :meth:`commit`)."""
        if self._lock is not None:
            remove_tree(self._staging)  # while still locked: no other run takes it meanwhile
            self._release()

    def _release(self) -> None:
        os.close(self._live())
        self._lock = None


def _staging_folder(target: Path) -> tuple[Path, int]:
    """A new empty folder beside ``target`` and a descriptor holding it locked."""
    while True:
        staging = temporary_name(target)
        try:
            staging.mkdir(0o777)
        except FileExistsError:
            continue
        try:
            handle = locked_folder(staging)
        except OSError:
            remove_tree(staging)
            raise
        if handle is not None:
            return staging, handle
        # another run removed it as a killed run's before it was locked: a new name


@contextmanager
def _old_set_held(target: Path) -> Iterator[None]:
    """Hold the set now at ``target`` locked while it is swapped out and removed, so that
    no other run takes it for a killed run's while it may still be put back."""
    try:
        handle = locked_folder(target)
    except OSError:
        handle = None  # no folder there any more: the swap says what is wrong
    try:
        yield
    finally:
        if handle is not None:
            os.close(handle)


def _syncfs() -> Callable[[int], int] | None:
    """libc's ``syncfs`` (Linux), or None."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes  # only for sets of files, on Linux

    try:
        function: Callable[[int], int] = ctypes.CDLL(None, use_errno=True).syncfs
    except (AttributeError, OSError):
        return None
    return function


def _sync_file_system(handle: int, what: str, display: str) -> None:
    """Flush every file written on the file system of the open folder ``handle``, in one call."""
    syncfs = _syncfs()
    assert syncfs is not None
    if syncfs(handle) != 0:
        import ctypes

        code = ctypes.get_errno()
        raise failure(what, display, OSError(code, os.strerror(code)))


def _swap_in(staging: Path, target: Path) -> Path | None:
    """Rename ``staging`` to ``target``; the old set's new place, if there was one."""
    try:
        os.rename(staging, target)  # atomic when target is absent or an empty folder
    except OSError as exc:
        if exc.errno not in (errno.ENOTEMPTY, errno.EEXIST):
            raise
    else:
        return None
    if _exchange(staging, target):
        return staging
    # No atomic exchange here: two renames, the old set kept until the new one is in place.
    old = temporary_name(target, "old")
    os.rename(target, old)
    try:
        os.rename(staging, target)
    except OSError:
        os.rename(old, target)
        raise
    return old


def _exchange(first: Path, second: Path) -> bool:
    """Swap two paths atomically (Linux ``renameat2(RENAME_EXCHANGE)``); False if unsupported."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes  # only for replacing a set of files, on Linux

    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return False
    done = renameat2(
        _AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second), _RENAME_EXCHANGE
    )
    if done == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP):
        return False  # the file system (or the kernel) cannot exchange
    raise OSError(code, os.strerror(code))


@contextmanager
def staged_file_set(folder: Path, what: str) -> Iterator[FileSet]:
    """A :class:`FileSet` for ``folder``, discarded unless it was committed in the block."""
    files = FileSet(folder, what)
    try:
        yield files
    finally:
        files.discard()
