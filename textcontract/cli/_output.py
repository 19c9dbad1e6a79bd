"""Writing command output: stdout, or a file replaced atomically."""

from __future__ import annotations

import os
import sys
import tempfile
from io import StringIO
from pathlib import Path
from typing import TYPE_CHECKING

from textcontract.errors import InputError

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["emit", "plain_console", "terminal_console", "write_atomic"]

_FILE_WIDTH = 120


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to a temporary file beside ``path``, then rename it over ``path``."""
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise InputError.at(
            f"cannot write output: folder {str(folder)!r} does not exist", str(path)
        )
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def emit(text: str, output: Path | None) -> None:
    """Send finished output to ``output`` (atomically) or stdout."""
    if output is not None:
        write_atomic(output, text)
    else:
        sys.stdout.write(text)
        sys.stdout.flush()


def plain_console(buffer: StringIO) -> Console:
    """A console that renders without colour or terminal codes, for files and pipes."""
    from rich.console import Console  # imported on use: a cold `check --format json` skips rich

    return Console(
        file=buffer, width=_FILE_WIDTH, color_system=None, force_terminal=False, soft_wrap=False
    )


def terminal_console() -> Console:
    """A console on stdout; colour only when stdout is a terminal."""
    from rich.console import Console

    return Console(highlight=False)
