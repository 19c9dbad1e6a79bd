"""Writing one output file (``--output``) atomically.

A file is written to a temporary file beside it, flushed to disk (``fsync``) and renamed
over it, so a reader sees the old content or the new one, never a part. A file gets the
permissions an ordinary write gives (``0666 & ~umask``); a replaced file keeps its mode
(and its owner, where this process may set it). A symbolic link is written through: its
target is replaced, and the link stays a link. A FIFO or a device is written to directly,
never replaced. Every failure is an :class:`InputError` naming the file (exit 2), and
nothing half-written stays behind; what a killed run left is removed by the next
(``_left_behind``). Sets of files (``--artifacts DIR``) are ``_file_set``'s.

``check_output_file`` tells before a command runs whether its output can be written where it
should go.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import BinaryIO

from textcontract.cli._left_behind import claimed, remove_left_behind, temporary_name
from textcontract.errors import InputError

__all__ = [
    "OutputFile",
    "atomic_file",
    "check_output_file",
    "failure",
    "folder_problem",
    "sync_folder",
    "write_atomic",
]


def failure(what: str, display: str, exc: OSError) -> InputError:
    return InputError.at(f"cannot write {what}: {exc.strerror or exc}", display)


def folder_problem(folder: Path) -> str | None:
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
    problem = folder_problem(target.parent if str(target.parent) else Path("."))
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
            raise failure("output", self._display, exc) from None

    def finish(self, *, sync: bool) -> None:
        """Flush to the file and, with ``sync``, to the disk."""
        try:
            self._stream.flush()
            if sync:
                os.fsync(self._stream.fileno())
        except OSError as exc:
            raise failure("output", self._display, exc) from None


def _create_beside(target: Path, existing: os.stat_result | None) -> tuple[int, Path]:
    """A new file next to ``target`` (mode ``0666 & ~umask``, or ``existing``'s mode),
    locked (:func:`claimed`) for as long as a descriptor of it is open."""
    while True:
        temporary = temporary_name(target)
        try:
            handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            continue
        if claimed(handle, temporary):
            break
        os.close(handle)  # another run removed it as a killed run's, just made: a new name
    if existing is not None:
        _keep_owner_and_mode(handle, existing)
    return handle, temporary


def _keep_owner_and_mode(handle: int, existing: os.stat_result) -> None:
    """Give a replacement file the owner (where allowed) and mode of the file it replaces."""
    mine = os.fstat(handle)
    if (mine.st_uid, mine.st_gid) != (existing.st_uid, existing.st_gid):
        # Only root may give a file away; otherwise it becomes this user's, as any editor's.
        with suppress(OSError):
            os.fchown(handle, existing.st_uid, existing.st_gid)
    os.fchmod(handle, stat.S_IMODE(existing.st_mode))


def sync_folder(folder: Path) -> None:
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
        raise failure("output", display, exc) from None


@contextmanager
def _direct(path: Path, display: str) -> Iterator[OutputFile]:
    try:
        # O_APPEND: /dev/stdout redirected to a file continues after what is there already
        stream = open(os.open(path, os.O_WRONLY | os.O_APPEND), "wb")  # noqa: SIM115
    except OSError as exc:
        raise failure("output", display, exc) from None
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
        raise failure("output", display, exc) from None
    try:
        remove_left_behind(plan.target, folders=False)
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
    sync_folder(plan.target.parent)


def _replace(temporary: Path, target: Path, display: str) -> None:
    try:
        os.replace(temporary, target)
    except OSError as exc:
        raise failure("output", display, exc) from None


def write_atomic(path: Path, text: str) -> None:
    """Replace ``path`` by a file holding ``text`` (see :func:`atomic_file`)."""
    with atomic_file(path) as sink:
        sink.write(text)
