"""Rare input failures: unlistable folders, odd file kinds, pipes and files that go away."""

from __future__ import annotations

import io
import json
import os
import socket
import threading
from pathlib import Path

import pytest

from textcontract.errors import InputError, Problem
from textcontract.inputs import read_inputs
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


def test_a_batch_read_from_a_pipe_is_copied_with_its_overlong_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TEXTCONTRACT_MAX_INPUT_BYTES", "60")
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
        f"{pipe}:2: the line is larger than the input size cap of 60 bytes "
        "(set TEXTCONTRACT_MAX_INPUT_BYTES to raise it)"
    ]


def test_a_batch_gone_before_the_second_pass_is_named(tmp_path: Path) -> None:
    batch = tmp_path / "b.jsonl"
    batch.write_text('{"id": "a", "document": "x"}\n', encoding="utf-8")
    with read_inputs([], batch=str(batch)) as inputs:
        batch.unlink()
        with pytest.raises(InputError, match=r"b\.jsonl: cannot read file again: No such file"):
            list(inputs)


def test_a_batch_from_stdin_needs_a_stdin() -> None:
    assert _problems(batch="-", stdin=None) == [
        "<input>: there is no standard input to read the batch from"
    ]


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
    from textcontract.inputs import _batch_lines, _batch_read

    opened: list[object] = []
    temporary = _batch_lines._temporary

    def tracked() -> object:
        spool = temporary()
        opened.append(spool)
        return spool

    def interrupted(*args: object) -> object:
        raise KeyboardInterrupt(len(args))

    monkeypatch.setattr(_batch_lines, "_temporary", tracked)
    monkeypatch.setattr(_batch_read, "parse_case", interrupted)
    with pytest.raises(KeyboardInterrupt):
        read_inputs([], batch="-", stdin=io.BytesIO(b'{"id": "a", "document": "x"}\n'))
    assert len(opened) == 1
    assert opened[0].closed  # type: ignore[attr-defined]
