"""Temporary files and folders beside an output: named, held locked while a run needs them,
and removed by a later run when the run that made them was killed.

An output file ``OUT`` is written through ``.OUT.<12 hex digits>.tmp``; a set of files
``DIR`` through the folder ``.DIR.<12 hex digits>.tmp``, and where two folders cannot be
exchanged in one step the old set waits in ``.DIR.<12 hex digits>.old``. The run holds an
exclusive ``flock`` on each while it may need it; the kernel drops the lock when the process
dies, so one whose lock can be taken is no live run's. SIGKILL leaves them behind (nothing
can clean up after it): the next run writing the same output removes them — only names of
exactly that pattern, only regular files (for ``OUT``) or real folders (for ``DIR``), never
through a symbolic link, never one a live run holds. Where there is no ``flock`` (or the file
system refuses it) a live run's cannot be told from a dead run's, and nothing is removed.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

__all__ = ["claimed", "locked_folder", "remove_left_behind", "remove_tree", "temporary_name"]

try:
    import fcntl
except ImportError:  # no flock: what killed runs left is left where it is
    fcntl = None  # type: ignore[assignment]

_TOKEN_BYTES = 6
_FOLDER_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | os.O_NOFOLLOW
_PROBE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY


def temporary_name(target: Path, ending: str = "tmp") -> Path:
    """A new name beside ``target``: ``.NAME.<12 hex digits>.ENDING``."""
    return target.with_name(f".{target.name}.{os.urandom(_TOKEN_BYTES).hex()}.{ending}")


def claimed(handle: int, path: Path) -> bool:
    """Lock the file or folder just opened at ``path``; whether ``path`` still names it
    (a run clearing what killed runs left may have taken it before it was locked)."""
    if fcntl is None:
        return True
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)  # held by a clearing run while it removes it
    except OSError:
        return True  # no lock on this file system: no other run can take it either
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        return False
    mine = os.fstat(handle)
    return (found.st_dev, found.st_ino) == (mine.st_dev, mine.st_ino)


def locked_folder(path: Path) -> int | None:
    """A descriptor of the folder at ``path``, locked for as long as it is open; None when
    nothing is there. Raises an :class:`OSError` for anything else (a link, a file)."""
    while True:
        try:
            handle = os.open(path, _FOLDER_FLAGS)
        except FileNotFoundError:
            return None
        if claimed(handle, path):
            return handle
        os.close(handle)  # another folder took the name meanwhile: lock that one


def remove_left_behind(target: Path, *, folders: bool) -> None:
    """Remove what runs killed while writing ``target`` left beside it: temporary files
    (``folders=False``), or the staging and old-set folders of a set of files."""
    if fcntl is None:
        return
    endings = r"\.(?:tmp|old)" if folders else r"\.tmp"
    pattern = re.compile(
        re.escape(f".{target.name}.") + f"[0-9a-f]{{{2 * _TOKEN_BYTES}}}" + endings
    )
    try:
        entries = list(os.scandir(target.parent))
    except OSError:
        return
    for entry in entries:
        if pattern.fullmatch(entry.name):
            _remove_if_abandoned(Path(entry.path), folders)


def _remove_if_abandoned(path: Path, folder: bool) -> None:
    """Remove the regular file (or real folder) at ``path`` unless a live run holds it."""
    assert fcntl is not None
    try:
        handle = os.open(path, _FOLDER_FLAGS if folder else _PROBE_FLAGS)
    except OSError:
        return  # gone, a link, or not of the kind sought
    try:
        found = os.fstat(handle)
        if not (stat.S_ISDIR if folder else stat.S_ISREG)(found.st_mode):
            return
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        current = os.lstat(path)
        if (current.st_dev, current.st_ino) != (found.st_dev, found.st_ino):
            return  # another file took the name meanwhile: a live run's
        if folder:
            remove_tree(path)  # under the lock: a run that just made it waits, then makes another
        else:
            os.unlink(path)
    except OSError:
        return  # locked by the run writing it, gone already, or not ours to remove
    finally:
        os.close(handle)


def remove_tree(folder: Path) -> None:
    """Remove ``folder`` and everything in it. ``shutil.rmtree`` follows no symbolic link:
    one inside is removed as a link, and a link in ``folder``'s place is left alone."""
    import shutil  # only when a set is replaced or abandoned

    shutil.rmtree(folder, ignore_errors=True)
