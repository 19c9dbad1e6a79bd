"""Reading input files: the one bounded reader every loader uses.

Contracts, included rule packs, contexts, documents, audit.yaml, case files, scoring
policies, probes, trial records and artifacts are all read by :func:`read_input_bytes`:

- a regular file, or a pipe (a FIFO, ``<(cat c.yaml)``, ``/dev/stdin`` fed by a pipe), is
  read; a folder, a device (``/dev/zero``, a terminal) or a socket is refused without being
  opened, since a device can be endless and opening one can have effects;
- at most :func:`input_size_cap` bytes are read (64 MiB unless the environment variable
  ``TEXTCONTRACT_MAX_INPUT_BYTES`` says otherwise); a larger input is refused as soon as
  the cap is passed, so an endless pipe costs the cap and no more;
- a path holding a NUL byte (which no file can have) is refused with a message rather than
  Python's ``ValueError``.
"""

from __future__ import annotations

import os
import re
import stat
from typing import BinaryIO

from textcontract.errors import InputError

__all__ = [
    "DEFAULT_MAX_INPUT_BYTES",
    "MAX_INPUT_ENV",
    "RefusedFile",
    "decode_utf8",
    "describe_size",
    "input_size_cap",
    "path_problem",
    "read_bytes_capped",
    "read_input_bytes",
    "read_input_text",
    "read_stream_bytes",
    "refused_kind",
]

MAX_INPUT_ENV = "TEXTCONTRACT_MAX_INPUT_BYTES"
DEFAULT_MAX_INPUT_BYTES = 64 * 1024 * 1024
_SIZE = r"([0-9]+)([KMG]?)(?:i?B)?\Z"
_UNITS = {"": 1, "k": 1024, "m": 1024**2, "g": 1024**3}
_CHUNK = 256 * 1024
"""Read size once a file turns out larger than its size said (pipes, growing files)."""


class RefusedFile(OSError):
    """A file that is not read: its kind, its size or its path; ``strerror`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(None, reason)


def describe_size(size: int) -> str:
    """``64 MiB``, ``512 KiB`` or ``1000 bytes``: a size as messages and docs write it."""
    for unit, name in ((1024**3, "GiB"), (1024**2, "MiB"), (1024, "KiB")):
        if size >= unit and size % unit == 0:
            return f"{size // unit} {name}"
    return f"{size} bytes"


def input_size_cap() -> int:
    """The most bytes one input file may hold: ``TEXTCONTRACT_MAX_INPUT_BYTES`` or 64 MiB.

    The variable takes a whole number of bytes, optionally with a binary ``K``, ``M`` or
    ``G`` suffix (``128M`` is 128 MiB).
    """
    raw = os.environ.get(MAX_INPUT_ENV)
    if raw is None or not raw.strip():
        return DEFAULT_MAX_INPUT_BYTES
    found = re.match(_SIZE, raw.strip(), re.IGNORECASE)
    size = int(found.group(1)) * _UNITS[found.group(2).lower()] if found else 0
    if size < 1:
        raise InputError.at(
            f"expected a positive number of bytes such as 67108864 or 64M, got {raw!r}",
            MAX_INPUT_ENV,
        )
    return size


def path_problem(path: str) -> str | None:
    """Why ``path`` can name no file (it holds a NUL byte), or None."""
    if "\0" in path:
        return "the path contains a NUL byte"
    return None


def refused_kind(mode: int) -> str | None:
    """Why a file of this ``st_mode`` is not read (``None`` for a regular file or a pipe)."""
    if stat.S_ISREG(mode) or stat.S_ISFIFO(mode):
        return None
    if stat.S_ISDIR(mode):
        return "it is a folder"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "it is a device, not a regular file"
    if stat.S_ISSOCK(mode):
        return "it is a socket, not a regular file"
    return "it is not a regular file"


def _too_large(cap: int, size: int | None = None) -> RefusedFile:
    found = f"{describe_size(size)}; " if size is not None else ""
    return RefusedFile(
        f"larger than the input size cap of {describe_size(cap)} "
        f"({found}set {MAX_INPUT_ENV} to raise it)"
    )


def _read_up_to(handle: BinaryIO, cap: int, expected: int) -> bytes:
    """Everything ``handle`` holds, or :class:`RefusedFile` as soon as it passes ``cap``."""
    chunks: list[bytes] = []
    total = 0
    size = min(expected, cap) + 1
    while chunk := handle.read(min(size, cap + 1 - total)):
        chunks.append(chunk)
        total += len(chunk)
        if total > cap:
            raise _too_large(cap)
        size = _CHUNK
    return b"".join(chunks)


def read_bytes_capped(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a regular file or a pipe, at most :func:`input_size_cap` of them.

    Raises :class:`OSError` (a :class:`RefusedFile` for a refused kind, size or path).
    """
    name = os.fspath(path)
    problem = path_problem(name)
    if problem is not None:
        raise RefusedFile(problem)
    cap = input_size_cap()
    refused = refused_kind(os.stat(name).st_mode)
    if refused is not None:
        raise RefusedFile(refused)
    with open(name, "rb", buffering=0) as handle:
        info = os.fstat(handle.fileno())
        refused = refused_kind(info.st_mode)  # it may have been swapped since the stat above
        if refused is not None:
            raise RefusedFile(refused)
        if stat.S_ISREG(info.st_mode) and info.st_size > cap:
            raise _too_large(cap, info.st_size)
        return _read_up_to(handle, cap, info.st_size if stat.S_ISREG(info.st_mode) else _CHUNK)


def read_input_bytes(path: str | os.PathLike[str], display: str) -> bytes:
    """:func:`read_bytes_capped`, with failures as an :class:`InputError` naming ``display``."""
    try:
        return read_bytes_capped(path)
    except OSError as exc:
        raise InputError.at(f"cannot read file: {exc.strerror or exc}", display) from None


def read_stream_bytes(handle: BinaryIO, display: str) -> bytes:
    """Everything an open stream holds (standard input), at most :func:`input_size_cap` bytes.

    Failures are an :class:`InputError` naming ``display`` (``<stdin>``).
    """
    try:
        return _read_up_to(handle, input_size_cap(), _CHUNK)
    except OSError as exc:
        raise InputError.at(f"cannot read: {exc.strerror or exc}", display) from None


def decode_utf8(data: bytes, file: str | None = None) -> str:
    """Decode UTF-8, dropping one leading BOM; invalid bytes name their 0-based offset."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError.at(f"invalid UTF-8 ({exc.reason})", file, byte_offset=exc.start) from None
    return text[1:] if text.startswith("\ufeff") else text


def read_input_text(path: str | os.PathLike[str], display: str) -> str:
    """The UTF-8 text of an input file (BOM dropped); every failure is an :class:`InputError`."""
    return decode_utf8(read_input_bytes(path, display), display)
