"""Writing command output: stdout, or a file replaced atomically."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from io import StringIO
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from textcontract.errors import InputError

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["atomic_stream", "emit", "emit_rendered", "write_atomic"]

_FILE_WIDTH = 120


@contextmanager
def atomic_stream(path: Path) -> Iterator[TextIO]:
    """A text stream on a temporary file beside ``path``, renamed over it when all went well.

    Large outputs (an audit report of a big corpus) are written through it piece by
    piece; nothing is left at ``path`` or beside it when writing fails.
    """
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise InputError.at(
            f"cannot write output: folder {str(folder)!r} does not exist", str(path)
        )
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            yield stream
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to a temporary file beside ``path``, then rename it over ``path``."""
    with atomic_stream(path) as stream:
        stream.write(text)


def emit(text: str, output: Path | None) -> None:
    """Send finished output to ``output`` (atomically) or stdout."""
    if output is not None:
        write_atomic(output, text)
    else:
        sys.stdout.write(text)
        sys.stdout.flush()


def emit_rendered(render: Callable[[Console], None], output: Path | None) -> None:
    """Render rich output to the terminal, or without colour codes into ``output``.

    rich is imported here, on use, so a cold ``check --format json`` never loads it.
    """
    from rich.console import Console

    if output is None:
        render(Console(highlight=False))
        return
    buffer = StringIO()
    render(
        Console(
            file=buffer,
            width=_FILE_WIDTH,
            color_system=None,
            force_terminal=False,
            soft_wrap=False,
        )
    )
    write_atomic(output, buffer.getvalue())
