"""Writing output atomically: one file (``--output``) or a set of files (``--artifacts DIR``).

A file is written to a temporary file beside it, flushed to disk (``fsync``) and renamed
over it, so a reader sees the old content or the new one, never a part. A set of files is
written into a temporary sibling folder and swapped into place in one step. Files get
the permissions an ordinary write gives (``0666 & ~umask``); a replaced file keeps its
mode (and its owner, where this process may set it). A symbolic link is written
through: its target is replaced, and the link stays a link. A FIFO or a device is written
to directly, never replaced. Every failure is an :class:`InputError` naming the file (exit
2), and nothing half-written stays behind.

``check_output_file`` and ``check_output_folder`` tell before a command runs whether its
output can be written where it should go.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import BinaryIO

from textcontract.errors import InputError

__all__ = [
    "FileSet",
    "OutputFile",
    "atomic_file",
    "check_output_file",
    "check_output_folder",
    "staged_file_set",
    "write_atomic",
]

try:
    import fcntl
except ImportError:  # no flock: temporary files of killed runs are left where they are
    fcntl = None  # type: ignore[assignment]

_SET_FILE_SUFFIX = ".json"
_TOKEN_BYTES = 6
"""Random bytes in a temporary file's name (``.NAME.<12 hex digits>.tmp``)."""
_RENAME_EXCHANGE = 2  # renameat2(2) flag: swap two paths atomically (Linux)
_AT_FDCWD = -100


def _failure(what: str, display: str, exc: OSError) -> InputError:
    return InputError.at(f"cannot write {what}: {exc.strerror or exc}", display)


def _folder_problem(folder: Path) -> str | None:
    """Why nothing can be created in ``folder``, or None."""
    if not folder.exists():
        return f"the folder {str(folder)!r} does not exist"
    if not folder.is_dir():
        return f"{str(folder)!r} is not a folder"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"the folder {str(folder)!r} is not writable"
    return None


class _Plan:
    """How a path is written: in place (``direct``), or by replacing ``target``."""

    __slots__ = ("direct", "existing", "target")

    def __init__(self, target: Path, direct: bool, existing: os.stat_result | None) -> None:
        self.target = target
        self.direct = direct
        self.existing = existing


def _plan_file(path: Path) -> _Plan | str:
    """Where and how ``--output`` writes ``path``; a string says why it cannot."""
    if str(path).endswith(os.sep) or path.is_dir():
        return "it is a folder"
    try:
        existing: os.stat_result | None = path.stat()
    except FileNotFoundError:
        existing = None
    except OSError as exc:
        return exc.strerror or str(exc)
    if existing is not None and not stat.S_ISREG(existing.st_mode):
        if stat.S_ISSOCK(existing.st_mode):
            return "it is a socket"
        return _plan_direct(path, existing)
    if existing is not None and _links_through_proc(path):
        # /dev/stdout, /dev/fd/N: a descriptor this process holds, not a file to replace
        return _plan_direct(path, existing)
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    problem = _folder_problem(target.parent if str(target.parent) else Path("."))
    if problem is not None:
        return problem
    return _Plan(target, False, existing)


def _links_through_proc(path: Path) -> bool:
    """Whether ``path`` is a symlink whose chain passes through ``/proc`` (``/dev/stdout``)."""
    current = path
    for _ in range(40):  # the kernel's own limit on a chain of links
        if not current.is_symlink():
            return False
        current = current.parent / os.readlink(current)
        if Path(os.path.abspath(current)).parts[:2] == ("/", "proc"):
            return True
    return False


def _plan_direct(path: Path, existing: os.stat_result) -> _Plan | str:
    """A FIFO or a device: written in place."""
    if not os.access(path, os.W_OK):
        return "it is not writable"
    return _Plan(path, True, existing)


def check_output_file(path: Path | None) -> None:
    """Raise an :class:`InputError` now if ``--output path`` could not be written later."""
    if path is None:
        return
    plan = _plan_file(path)
    if isinstance(plan, str):
        raise InputError.at(f"cannot write output: {plan}", str(path))


class OutputFile:
    """A text sink for one output file; :meth:`write` raises an :class:`InputError` on failure."""

    def __init__(self, stream: BinaryIO, display: str) -> None:
        self._stream = stream
        self._display = display

    def write(self, text: str) -> None:
        try:
            self._stream.write(text.encode("utf-8"))
        except OSError as exc:
            raise _failure("output", self._display, exc) from None

    def finish(self, *, sync: bool) -> None:
        """Flush to the file and, with ``sync``, to the disk."""
        try:
            self._stream.flush()
            if sync:
                os.fsync(self._stream.fileno())
        except OSError as exc:
            raise _failure("output", self._display, exc) from None


def _temporary_name(target: Path) -> str:
    return f".{target.name}.{os.urandom(_TOKEN_BYTES).hex()}.tmp"


def _create_beside(target: Path, existing: os.stat_result | None) -> tuple[int, Path]:
    """A new file next to ``target`` (mode ``0666 & ~umask``, or ``existing``'s mode),
    locked (:func:`_claimed`) for as long as a descriptor of it is open."""
    while True:
        temporary = target.with_name(_temporary_name(target))
        try:
            handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            continue
        if _claimed(handle, temporary):
            break
        os.close(handle)  # another run removed it as a killed run's, just made: a new name
    if existing is not None:
        _keep_owner_and_mode(handle, existing)
    return handle, temporary


def _claimed(handle: int, path: Path) -> bool:
    """Lock the file just created at ``path``; whether ``path`` still names it (a run
    clearing what killed runs left may have taken it before it was locked)."""
    if fcntl is None:
        return True
    fcntl.flock(handle, fcntl.LOCK_EX)  # held by a clearing run for an instant at most
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        return False
    mine = os.fstat(handle)
    return (found.st_dev, found.st_ino) == (mine.st_dev, mine.st_ino)


def _remove_left_behind(target: Path, own: Path) -> None:
    """Remove the temporary files beside ``target`` that runs killed while writing it left
    (``.NAME.<12 hex digits>.tmp``, regular files): those no live run holds locked."""
    if fcntl is None:
        return
    pattern = re.compile(
        re.escape(f".{target.name}.") + f"[0-9a-f]{{{2 * _TOKEN_BYTES}}}" + r"\.tmp"
    )
    try:
        entries = list(os.scandir(target.parent))
    except OSError:
        return
    for entry in entries:
        if entry.name != own.name and pattern.fullmatch(entry.name):
            _remove_if_abandoned(entry.path)


def _remove_if_abandoned(path: str) -> None:
    """Remove the regular file at ``path`` unless a live run holds it locked."""
    assert fcntl is not None
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError:
        return
    try:
        found = os.fstat(handle)
        if not stat.S_ISREG(found.st_mode):
            return
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        current = os.lstat(path)
        if (current.st_dev, current.st_ino) == (found.st_dev, found.st_ino):
            os.unlink(path)
    except OSError:
        return  # locked by the run writing it, gone already, or not ours to remove
    finally:
        os.close(handle)


def _keep_owner_and_mode(handle: int, existing: os.stat_result) -> None:
    """Give a replacement file the owner (where allowed) and mode of the file it replaces."""
    mine = os.fstat(handle)
    if (mine.st_uid, mine.st_gid) != (existing.st_uid, existing.st_gid):
        # Only root may give a file away; otherwise it becomes this user's, as any editor's.
        with suppress(OSError):
            os.fchown(handle, existing.st_uid, existing.st_gid)
    os.fchmod(handle, stat.S_IMODE(existing.st_mode))


def _sync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable, where the system allows it."""
    try:
        handle = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass  # some file systems cannot sync a folder; the rename itself is atomic
    finally:
        os.close(handle)


@contextmanager
def _closed_after(stream: BinaryIO, display: str) -> Iterator[BinaryIO]:
    """Close ``stream`` after the block; after a failure, without a second error.

    (A buffered file flushes when it closes: after a failed write that fails again, and
    that error would replace the first one.)
    """
    try:
        yield stream
    except BaseException:
        with suppress(OSError):
            stream.close()
        raise
    try:
        stream.close()
    except OSError as exc:
        raise _failure("output", display, exc) from None


@contextmanager
def _direct(path: Path, display: str) -> Iterator[OutputFile]:
    try:
        # O_APPEND: /dev/stdout redirected to a file continues after what is there already
        stream = open(os.open(path, os.O_WRONLY | os.O_APPEND), "wb")  # noqa: SIM115
    except OSError as exc:
        raise _failure("output", display, exc) from None
    with _closed_after(stream, display):
        sink = OutputFile(stream, display)
        yield sink
        sink.finish(sync=False)  # a pipe or a device has no disk to sync to


@contextmanager
def atomic_file(path: Path) -> Iterator[OutputFile]:
    """An :class:`OutputFile` that replaces ``path`` when the block ends without error.

    Large outputs (an audit report of a big corpus) are written through it piece by
    piece; when anything fails, ``path`` is untouched and nothing is left beside it.
    """
    display = str(path)
    plan = _plan_file(path)
    if isinstance(plan, str):
        raise InputError.at(f"cannot write output: {plan}", display)
    if plan.direct:
        with _direct(path, display) as sink:
            yield sink
        return
    try:
        handle, temporary = _create_beside(plan.target, plan.existing)
        lock = os.dup(handle)  # the lock outlives the stream's close, until the rename
    except OSError as exc:
        raise _failure("output", display, exc) from None
    try:
        _remove_left_behind(plan.target, temporary)
        with _closed_after(open(handle, "wb"), display) as stream:
            sink = OutputFile(stream, display)
            yield sink
            sink.finish(sync=True)
        _replace(temporary, plan.target, display)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    finally:
        os.close(lock)
    _sync_folder(plan.target.parent)


def _replace(temporary: Path, target: Path, display: str) -> None:
    try:
        os.replace(temporary, target)
    except OSError as exc:
        raise _failure("output", display, exc) from None


def write_atomic(path: Path, text: str) -> None:
    """Replace ``path`` by a file holding ``text`` (see :func:`atomic_file`)."""
    with atomic_file(path) as sink:
        sink.write(text)


# -- sets of files -------------------------------------------------------------------------


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
    problem = _folder_problem(target.parent if str(target.parent) else Path("."))
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
        self._staging: Path | None = self._target.with_name(
            f".{self._target.name}.{os.urandom(6).hex()}.tmp"
        )
        self._folders = {self._staging}
        # One syncfs(2) of the file system at the end flushes every file of the set; where
        # there is none, each file is fsynced as it is written.
        self._sync_each = _syncfs() is None
        try:
            self._staging.mkdir(0o777)
            if existing is not None:
                os.chmod(self._staging, stat.S_IMODE(existing.st_mode))
        except OSError as exc:
            self._staging = None
            raise _failure(what, self._display, exc) from None

    def write(self, relative: str, text: str) -> None:
        """Add the file ``relative`` (a POSIX path inside the set) holding ``text``."""
        assert self._staging is not None, "the set was committed or discarded"
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
            raise _failure(self._what, shown, exc) from None

    def _make_folders(self, folder: Path) -> None:
        if folder not in self._folders:
            self._make_folders(folder.parent)
            folder.mkdir(0o777, exist_ok=True)
            self._folders.add(folder)

    def commit(self) -> None:
        """Put the new set where the old one was (or in its place), in one step."""
        staging = self._staging
        assert staging is not None, "the set was committed or discarded"
        if self._sync_each:
            for folder in self._folders:
                _sync_folder(folder)
        else:  # files and folders alike
            _sync_file_system(staging, self._what, self._display)
        try:
            old = _swap_in(staging, self._target)
        except OSError as exc:
            raise _failure(self._what, self._display, exc) from None
        self._staging = None
        _sync_folder(self._target.parent)
        if old is not None:
            _remove_tree(old)

    def discard(self) -> None:
        """Remove the temporary folder (nothing happens after :meth:`commit`)."""
        if self._staging is not None:
            _remove_tree(self._staging)
            self._staging = None


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


def _sync_file_system(folder: Path, what: str, display: str) -> None:
    """Flush every file written under ``folder`` to disk, in one call."""
    syncfs = _syncfs()
    assert syncfs is not None
    handle = os.open(folder, os.O_RDONLY)
    try:
        if syncfs(handle) != 0:
            import ctypes

            code = ctypes.get_errno()
            raise _failure(what, display, OSError(code, os.strerror(code)))
    finally:
        os.close(handle)


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
    old = target.with_name(f".{target.name}.{os.urandom(6).hex()}.old")
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


def _remove_tree(folder: Path) -> None:
    import shutil  # only when a set is replaced or abandoned

    shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def staged_file_set(folder: Path, what: str) -> Iterator[FileSet]:
    """A :class:`FileSet` for ``folder``, discarded unless it was committed in the block."""
    files = FileSet(folder, what)
    try:
        yield files
    finally:
        files.discard()
