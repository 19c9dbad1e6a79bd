"""The two passes over ``check``'s inputs: what the first keeps, what the second reads again."""

from __future__ import annotations

import io
import json
import os
import threading
from pathlib import Path

import pytest

from textcontract.errors import InputError
from textcontract.inputs import (
    CheckInputs,
    FileInput,
    HeldInput,
    LoadedInput,
    Origin,
    load_input,
    read_inputs,
)
from textcontract.model import Context

CONTEXT = '{"order.status": "shipped"}'


def _write(path: Path, text: str) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return str(path)


def _loaded(inputs: CheckInputs) -> list[LoadedInput]:
    return [load_input(item, inputs.context) for item in inputs]


def _problems(*documents: str, **options: object) -> list[str]:
    with pytest.raises(InputError) as caught:
        read_inputs(documents, **options)  # type: ignore[arg-type]
    return [problem.render() for problem in caught.value.problems]


def test_each_document_gets_its_paired_context_else_the_empty_one(tmp_path: Path) -> None:
    paired = _write(tmp_path / "a.md", "Hi.\n")
    _write(tmp_path / "a.context.json", CONTEXT)
    lone = _write(tmp_path / "b.json", '{"surfaces": {"body": "Hi."}}')
    with read_inputs([paired, lone]) as inputs:
        loaded = _loaded(inputs)
    assert [item.context for item in loaded] == [
        Context.from_json(json.loads(CONTEXT)),
        Context.empty(),
    ]
    assert [item.origin for item in loaded] == [
        Origin(paired, paired, markdown=True),
        Origin(lone, lone, markdown=False),
    ]


def test_context_replaces_every_pairing(tmp_path: Path) -> None:
    document = _write(tmp_path / "a.md", "Hi.\n")
    _write(tmp_path / "a.context.json", "not even JSON")  # not read at all
    shared = _write(tmp_path / "shared.json", '{"k": 1}')
    with read_inputs([document], context=shared) as inputs:
        (item,) = list(inputs)
        assert isinstance(item, FileInput)
        assert item == FileInput(document, False, item.fingerprint)
        assert load_input(item, inputs.context).context == Context.from_json({"k": 1})


def test_an_invalid_paired_context_names_the_context_file(tmp_path: Path) -> None:
    document = _write(tmp_path / "a.md", "Hi.\n")
    context = _write(tmp_path / "a.context.json", '{"k": 1,\n "j": }')
    assert _problems(document) == [f"{context}:2:7: invalid JSON: Expecting value"]
    (tmp_path / "a.context.json").unlink()
    (tmp_path / "a.context.json").symlink_to(tmp_path / "missing.json")
    assert _problems(document) == [
        f"{context}: cannot read file: No such file or directory",
    ]


def test_every_problem_of_every_input_is_reported_at_once(tmp_path: Path) -> None:
    good = _write(tmp_path / "good.md", "Hi.\n")
    bad_json = _write(tmp_path / "bad.json", '{"surfaces": {"body": {"text": 1}}}')
    unclosed = _write(tmp_path / "open.md", "---\nclaims: {}\n")
    assert _problems(good, bad_json, unclosed, str(tmp_path / "missing.md")) == [
        f"{bad_json}: surfaces.body.text: 'text' must be a string, got an integer",
        f"{unclosed}:1:1: front matter opened with '---' on line 1 is never closed",
        f"{tmp_path}/missing.md: cannot read file: No such file or directory",
    ]


def test_the_first_pass_keeps_33_bytes_a_document_and_no_paths_for_a_folder(
    tmp_path: Path,
) -> None:
    for index in range(50):
        _write(tmp_path / "docs" / f"{index:03d}.md", f"Document {index}.\n")
    _write(tmp_path / "docs" / "007.context.json", CONTEXT)
    with read_inputs([str(tmp_path / "docs")]) as inputs:
        assert len(inputs) == 50
        assert len(inputs._prints) == 50 * 32
        assert len(inputs._paired) == 50
        assert len(inputs._entries) == 1  # the folder, searched again in the second pass
        items = list(inputs)
    assert [Path(item.path).name for item in items if isinstance(item, FileInput)] == [
        f"{index:03d}.md" for index in range(50)
    ]
    assert [item.paired for item in items if isinstance(item, FileInput)].count(True) == 1


def test_a_document_changed_between_the_passes_is_an_input_error(tmp_path: Path) -> None:
    document = _write(tmp_path / "a.md", "Hi.\n")
    with read_inputs([document]) as inputs:
        (item,) = list(inputs)
        assert isinstance(item, FileInput)
        _write(tmp_path / "a.md", "Hi!\n")
        with pytest.raises(InputError, match=r"a.md: the file changed since it was validated"):
            load_input(item, inputs.context)
        _write(tmp_path / "a.md", "Hi.\n")
        _write(tmp_path / "a.context.json", CONTEXT)  # a paired context appeared: changed too
        with pytest.raises(InputError, match=r"the file changed since it was validated"):
            load_input(FileInput(document, True, item.fingerprint), inputs.context)


def test_a_folder_changed_between_the_passes_is_an_input_error(tmp_path: Path) -> None:
    _write(tmp_path / "docs" / "a.md", "A.\n")
    with read_inputs([str(tmp_path / "docs")]) as inputs:
        _write(tmp_path / "docs" / "b.md", "B.\n")
        with pytest.raises(InputError, match=r"docs: the folder changed since it was searched"):
            list(inputs)


def test_standard_input_is_markdown_or_json_and_held() -> None:
    markdown = io.BytesIO(b"---\nclaims: {body: {k: 1}}\n---\nHi.\n")
    with read_inputs(["-"], stdin=markdown) as inputs:
        (item,) = list(inputs)
        loaded = load_input(item, inputs.context)
    assert isinstance(item, HeldInput)
    assert loaded.origin == Origin("<stdin>", "<stdin>", markdown=True)
    assert dict(loaded.document.surfaces[0].claims) == {"k": 1}
    as_json = io.BytesIO(b'{"surfaces": {"body": "Hi."}}')
    with read_inputs(["-"], stdin=as_json, stdin_format="json") as inputs:
        (loaded,) = _loaded(inputs)
    assert loaded.origin == Origin("<stdin>", "<stdin>", markdown=False)


def test_standard_input_that_is_not_utf8_is_an_input_error() -> None:
    assert _problems("-", stdin=io.BytesIO(b"Hello \xff there")) == [
        "<stdin> (byte 6): invalid UTF-8 (invalid start byte)"
    ]
    assert _problems("-", stdin=None) == ["<stdin>: there is no standard input to read"]


def test_a_pipe_is_read_once_and_held_with_its_paired_context(tmp_path: Path) -> None:
    pipe = tmp_path / "reply.md"
    os.mkfifo(pipe)
    _write(tmp_path / "reply.context.json", CONTEXT)

    def feed() -> None:
        with open(pipe, "wb") as stream:
            stream.write(b"Hi from a pipe.\n")

    writer = threading.Thread(target=feed)
    writer.start()
    with read_inputs([str(pipe)]) as inputs:
        writer.join()
        (item,) = list(inputs)
        loaded = load_input(item, inputs.context)
    assert isinstance(item, HeldInput)
    assert item.data == b"Hi from a pipe.\n"
    assert loaded.context == Context.from_json(json.loads(CONTEXT))
    assert loaded.origin.source == str(pipe)
