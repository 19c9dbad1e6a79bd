"""Rare input failures: unlistable folders, odd file kinds, pipes and files that go away."""

from __future__ import annotations

import errno
import io
import json
import os
import socket
import threading
from pathlib import Path
from typing import Any

import pytest

from textcontract.errors import InputError, Problem
from textcontract.inputs import _batch_lines, read_inputs
from textcontract.inputs._batch_copy import temporary_copy
from textcontract.inputs._batch_lines import BatchLines
from textcontract.inputs._discover import find_documents, search_folder


def _problems(*documents: str, **options: object) -> list[str]:
    with pytest.raises(InputError) as caught:
        read_inputs(documents, **options)  # type: ignore[arg-type]
    return [problem.render() for problem in caught.value.problems]


def test_a_folder_that_cannot_be_listed_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "docs" / "locked").mkdir(parents=True)
    (tmp_path / "docs" / "a.md").write_text("A.", encoding="utf-8")
    real = os.scandir

    def scandir(path: str) -> object:
        if path.endswith("locked"):
            raise PermissionError(13, "Permission denied")
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    assert _problems(str(tmp_path / "docs")) == [
        f"{tmp_path}/docs/locked: cannot list folder: Permission denied"
    ]


def test_a_socket_with_a_document_name_is_refused(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(tmp_path / "docs" / "s.md"))
        assert _problems(str(tmp_path / "docs")) == [
            f"{tmp_path}/docs/s.md: a socket: a folder search reads regular files only"
        ]
    finally:
        server.close()


def test_a_device_named_on_the_command_line_is_refused() -> None:
    assert _problems("/dev/null") == [
        "/dev/null: cannot read file: it is a device, not a regular file"
    ]


def test_a_path_with_a_nul_byte_is_refused() -> None:
    assert _problems("a\0b.md") == ["a\\x00b.md: the path contains a NUL byte"]


def test_a_folder_gone_before_the_second_search_is_named(tmp_path: Path) -> None:
    problems: list[Problem] = []
    assert list(search_folder(str(tmp_path / "gone"), problems)) == []
    assert [problem.render() for problem in problems] == [
        f"{tmp_path}/gone: cannot read file: No such file or directory"
    ]
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "a.md").write_text("A.", encoding="utf-8")
    with read_inputs([str(tmp_path / "d")]) as inputs:
        (tmp_path / "d" / "a.md").unlink()
        (tmp_path / "d").rmdir()
        with pytest.raises(InputError, match="the folder changed since it was searched"):
            list(inputs)


def test_a_missing_required_document_is_reported_once(tmp_path: Path) -> None:
    batch = tmp_path / "b.jsonl"
    batch.write_text('{"id": "a"}\n', encoding="utf-8")
    assert _problems(batch=str(batch)) == [f"{batch}:1: missing required key 'document'"]


def test_a_batch_read_from_a_pipe_is_held_to_the_cap_as_a_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TEXTCONTRACT_MAX_INPUT_BYTES", "380")
    pipe = tmp_path / "cases.jsonl"
    os.mkfifo(pipe)
    lines = [
        json.dumps({"id": "a", "document": "short"}),
        json.dumps({"id": "b", "document": "x" * 300}),
        json.dumps({"id": "c", "document": "short"}),
    ]

    def feed() -> None:
        with open(pipe, "w", encoding="utf-8") as stream:
            stream.write("\n".join(lines) + "\n")

    writer = threading.Thread(target=feed)
    writer.start()
    problems = _problems(batch=str(pipe))
    writer.join()
    assert problems == [
        f"{pipe}:3: a batch read from a pipe or standard input is held to the input size cap "
        "of 380 bytes as a whole, and this line passes it (set TEXTCONTRACT_MAX_INPUT_BYTES to "
        "raise it, or pass the batch as a regular file)"
    ]


def test_an_endless_pipe_costs_the_cap_and_no_more(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A FIFO whose writer never stops (``yes | tr -d '\\n'``): the pass stops once the cap
    is read, the writer sees the pipe closed, and no more than the cap was copied."""
    monkeypatch.setenv("TEXTCONTRACT_MAX_INPUT_BYTES", "1M")
    pipe = tmp_path / "endless"
    os.mkfifo(pipe)
    written: list[int] = []

    def feed() -> None:
        total = 0
        try:
            with open(pipe, "wb") as stream:
                while total < 64 << 20:  # a bound, should the reader never stop
                    stream.write(b"y" * 65536)
                    total += 65536
        except BrokenPipeError:
            pass
        written.append(total)

    writer = threading.Thread(target=feed)
    writer.start()
    problems: list[Problem] = []
    with BatchLines(str(pipe), "endless") as lines:
        assert list(lines.validate(None, problems)) == []
        assert lines._spool is not None
        assert lines._spool.seek(0, os.SEEK_END) == 0  # no line ended within the cap
    writer.join(timeout=30)
    assert [problem.render() for problem in problems] == [
        "endless:1: a batch read from a pipe or standard input is held to the input size cap "
        "of 1 MiB as a whole, and this line passes it (set TEXTCONTRACT_MAX_INPUT_BYTES to "
        "raise it, or pass the batch as a regular file)"
    ]
    assert written
    assert written[0] < 64 << 20


def test_a_batch_gone_before_the_second_pass_is_named(tmp_path: Path) -> None:
    batch = tmp_path / "b.jsonl"
    batch.write_text('{"id": "a", "document": "x"}\n', encoding="utf-8")
    with read_inputs([], batch=str(batch)) as inputs:
        batch.unlink()
        with pytest.raises(InputError, match=r"b\.jsonl: cannot read file again: No such file"):
            list(inputs)


def test_a_batch_from_stdin_needs_a_stdin() -> None:
    assert _problems(batch="-", stdin=None) == ["there is no standard input to read the batch from"]


def test_a_file_unreadable_in_the_first_pass_is_named(tmp_path: Path) -> None:
    (tmp_path / "a.md").mkdir()  # named explicitly: a folder named like a document is searched
    (tmp_path / "a.md" / "inner.md").write_text("Hi.", encoding="utf-8")
    problems: list[Problem] = []
    found = list(find_documents([str(tmp_path / "a.md")], problems))
    assert [item.path for item in found] == [f"{tmp_path}/a.md/inner.md"]


def test_standard_input_that_fails_to_read_is_named() -> None:
    class Broken(io.RawIOBase):
        def readinto(self, buffer: object) -> int:  # noqa: ARG002 - the signature is io's
            raise OSError(5, "Input/output error")

        def readable(self) -> bool:
            return True

    assert _problems("-", stdin=io.BufferedReader(Broken())) == [
        "<stdin>: cannot read: Input/output error"
    ]


def test_an_interrupted_first_pass_closes_a_batch_copy(monkeypatch: pytest.MonkeyPatch) -> None:
    from textcontract.inputs import _batch_read

    opened: list[object] = []

    def tracked() -> object:
        spool = temporary_copy()
        opened.append(spool)
        return spool

    def interrupted(*args: object) -> object:
        raise KeyboardInterrupt(len(args))

    monkeypatch.setattr(_batch_lines, "temporary_copy", tracked)
    monkeypatch.setattr(_batch_read, "parse_case", interrupted)
    with pytest.raises(KeyboardInterrupt):
        read_inputs([], batch="-", stdin=io.BytesIO(b'{"id": "a", "document": "x"}\n'))
    assert len(opened) == 1
    assert opened[0].closed  # type: ignore[attr-defined]


class _FullDisk(io.BytesIO):
    """A copy whose writes fail after ``room`` bytes, as on a full disk; ``flushes`` says
    whether a flush fails too (a buffered file's last write comes at its flush)."""

    def __init__(self, room: int, *, flushes: bool = True) -> None:
        super().__init__()
        self.room = room
        self.flushes = flushes

    def write(self, data: Any) -> int:
        if self.tell() + len(data) > self.room:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return super().write(data)

    def flush(self) -> None:
        if not self.flushes:
            raise OSError(errno.EFBIG, os.strerror(errno.EFBIG))


_NO_COPY = (
    "cannot copy the batch to a temporary file: {} (pass the batch as a regular file, which "
    "is not copied, or set TMPDIR to a folder with room)"
)


def _cases(count: int) -> bytes:
    return b"".join(b'{"id": "c%d", "document": "x"}\n' % index for index in range(count))


@pytest.mark.parametrize(
    ("copy", "problem"),
    [
        pytest.param(
            _FullDisk(70), f"<stdin>:3: {_NO_COPY.format('No space left on device')}", id="write"
        ),
        pytest.param(
            _FullDisk(1000, flushes=False), f"<stdin>: {_NO_COPY.format('File too large')}",
            id="flush",
        ),
    ],
)  # fmt: skip
def test_a_copy_that_cannot_be_written_ends_the_pass_at_its_line(
    monkeypatch: pytest.MonkeyPatch, copy: _FullDisk, problem: str
) -> None:
    monkeypatch.setattr(_batch_lines, "temporary_copy", lambda: copy)
    assert _problems(batch="-", stdin=io.BytesIO(_cases(4))) == [problem]
    assert copy.closed


def test_no_temporary_file_for_the_copy_is_one_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    import tempfile

    def no_room(**_: object) -> object:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(tempfile, "TemporaryFile", no_room)
    assert _problems(batch="-", stdin=io.BytesIO(_cases(2))) == [
        f"<stdin>: {_NO_COPY.format('Read-only file system')}"
    ]


def test_a_stream_that_fails_while_copied_ends_the_pass_at_its_line() -> None:
    class Failing(io.RawIOBase):
        def __init__(self) -> None:
            self.given = False

        def readinto(self, buffer: Any) -> int:
            if self.given:
                raise OSError(errno.EIO, os.strerror(errno.EIO))
            self.given = True
            data = _cases(1)
            buffer[: len(data)] = data
            return len(data)

        def readable(self) -> bool:
            return True

    stream = io.BufferedReader(Failing())
    assert _problems(batch="-", stdin=stream) == ["<stdin>:2: cannot read: Input/output error"]


def test_a_batch_swapped_for_a_device_once_checked_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The path named a regular file when it was looked at, and a device once opened."""
    kinds = iter([None, "it is a device, not a regular file"])
    monkeypatch.setattr(_batch_lines, "refused_kind", lambda _mode: next(kinds))
    batch = tmp_path / "b.jsonl"
    batch.write_bytes(_cases(1))
    assert _problems(batch=str(batch)) == [
        f"{batch}: cannot read file: it is a device, not a regular file"
    ]


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null", "/dev/tty"])
def test_a_device_named_as_the_batch_is_refused_unopened(device: str) -> None:
    if not os.path.exists(device):
        pytest.skip(f"no {device} here")
    assert _problems(batch=device) == [
        f"{device}: cannot read file: it is a device, not a regular file"
    ]


@pytest.mark.parametrize("stdin", [False, True], ids=["file", "stream"])
def test_the_pass_reads_no_further_after_a_thousand_refused_lines(
    tmp_path: Path, stdin: bool
) -> None:
    """Every problem until then, in order, and one line saying the batch was not read on:
    a batch of endless bad lines (``<(yes)``) must not fill the memory with problems."""
    data = b"y\n" * 600 + _cases(1) * 2 + b"y\n" * 1000
    batch = tmp_path / "b.jsonl"
    batch.write_bytes(data)
    shown = "<stdin>" if stdin else str(batch)
    options = {"batch": "-", "stdin": io.BytesIO(data)} if stdin else {"batch": str(batch)}
    problems = _problems(**options)
    assert len(problems) == 1001
    assert problems[0] == f"{shown}:1:1: invalid JSON: Expecting value"
    assert problems[600].startswith(f"{shown}:602: id: duplicate id 'c0': line 601 has it too")
    assert problems[999] == f"{shown}:1001:1: invalid JSON: Expecting value"
    assert problems[1000] == (
        f"{shown}: the batch was read no further after 1000 refused lines (fix these and run again)"
    )
