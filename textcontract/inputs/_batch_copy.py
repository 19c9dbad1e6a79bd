"""A batch read from a stream — standard input, a FIFO, a process substitution — which
cannot be read twice: each byte is copied to a temporary file as it is read, for the
second pass to read lines again by offset (SPEC §11, §22).

The stream is read under the input size cap (``TEXTCONTRACT_MAX_INPUT_BYTES``) as a
whole, not only line by line, and the cap is held *while* it is read: no read asks for
more than the cap leaves, so an endless stream (``/dev/zero``, ``yes``) costs the cap and
stops there, never filling the temporary folder. A stream that passes the cap, cannot be
read, or cannot be copied (a full disk, ``ulimit -f``) stops the first pass with a
:class:`CopyStopped`, which names the reason in words.
"""

from __future__ import annotations

from contextlib import suppress
from typing import IO, BinaryIO

from textcontract._files import MAX_INPUT_ENV, describe_size, input_size_cap

__all__ = ["CopyStopped", "StreamCopy", "close_copy", "temporary_copy"]


class CopyStopped(Exception):
    """The copy cannot go on; ``str()`` says why, for a message at the line being read."""


def temporary_copy() -> IO[bytes]:
    """A new, already unlinked temporary file for a copy; :class:`CopyStopped` if none can be
    made."""
    import tempfile

    try:
        return tempfile.TemporaryFile(prefix="textcontract-batch-")
    except OSError as exc:
        raise CopyStopped(_copy_failed(exc)) from None


class StreamCopy:
    """Lines of ``stream`` read through :meth:`readline`, each copied to ``copy`` as read."""

    def __init__(self, stream: BinaryIO | IO[bytes], copy: IO[bytes]) -> None:
        self._stream = stream
        self._copy = copy
        self.cap = input_size_cap()
        self.size = 0
        """Bytes read (and copied) so far."""

    def readline(self, limit: int) -> bytes:
        """The next line (at most ``limit`` bytes, as ``readline`` gives them), copied."""
        room = self.cap + 1 - self.size  # one byte past the cap tells it is passed
        try:
            raw = self._stream.readline(max(1, min(limit, room)))
        except OSError as exc:
            raise CopyStopped(f"cannot read: {exc.strerror or exc}") from None
        self.size += len(raw)
        if self.size > self.cap:
            raise CopyStopped(
                f"a batch read from a pipe or standard input is held to the input size cap "
                f"of {describe_size(self.cap)} as a whole, and this line passes it (set "
                f"{MAX_INPUT_ENV} to raise it, or pass the batch as a regular file)"
            )
        try:
            self._copy.write(raw)
        except OSError as exc:
            raise CopyStopped(_copy_failed(exc)) from None
        return raw

    def finish(self) -> None:
        """Flush the copy, for the second pass to read it."""
        try:
            self._copy.flush()
        except OSError as exc:
            raise CopyStopped(_copy_failed(exc)) from None


def close_copy(copy: IO[bytes]) -> None:
    """Close a copy; one whose last write failed fails to flush again, which is no news."""
    with suppress(OSError):
        copy.close()


def _copy_failed(exc: OSError) -> str:
    return (
        f"cannot copy the batch to a temporary file: {exc.strerror or exc} (pass the batch as "
        "a regular file, which is not copied, or set TMPDIR to a folder with room)"
    )
