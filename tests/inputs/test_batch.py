"""``check --batch FILE.jsonl``: every line validated first, with the file and line in messages."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from textcontract.errors import InputError
from textcontract.inputs import BatchCase, LineRef, load_input, parse_case, read_inputs
from textcontract.model import BODY, Context


def _batch(tmp_path: Path, *lines: str | bytes, name: str = "cases.jsonl") -> str:
    path = tmp_path / name
    path.write_bytes(b"".join(line if isinstance(line, bytes) else line.encode() for line in lines))
    return str(path)


def _line(case_id: object = "a", document: object = "Hello there.", **extra: object) -> str:
    return json.dumps({"id": case_id, "document": document, **extra}) + "\n"


def _problems(batch: str) -> list[str]:
    with pytest.raises(InputError) as caught:
        read_inputs([], batch=batch)
    return [problem.render() for problem in caught.value.problems]


def test_a_plain_string_and_the_json_form_are_documents() -> None:
    case = parse_case(b'{"id": "a", "document": "Hi."}', "b.jsonl", 1)
    assert case == BatchCase("a", case.document, None)
    assert case.document.surfaces[0].name == BODY
    assert case.document.surfaces[0].text == "Hi."
    json_form = {"surfaces": {"subject": "S", "body": {"text": "B", "claims": {"k": 1}}}}
    line = json.dumps({"id": "b", "document": json_form, "context": {"k": 1}}).encode()
    case = parse_case(line, "b.jsonl", 2)
    assert case.document.names == ("subject", "body")
    assert case.context == Context.from_json({"k": 1})


def test_a_front_matter_in_a_plain_string_is_text() -> None:
    case = parse_case(b'{"id": "a", "document": "---\\nclaims: {}\\n---\\nHi"}', "b.jsonl", 1)
    assert case.document.surfaces[0].text == "---\nclaims: {}\n---\nHi"


def test_every_line_is_validated_and_named_by_file_and_line(tmp_path: Path) -> None:
    batch = _batch(
        tmp_path,
        _line("a"),
        "\n",
        "   \n",
        "[1, 2]\n",
        "42\n",
        '{"id": "b", "document": "x", "extra": 1}\n',
        '{"document": "x"}\n',
        '{"id": 7, "document": "x"}\n',
        '{"id": "c", "document": {"surfaces": {"body": {"text": "x", "claims": {"k": [1]}}}}}\n',
        '{"id": "d", "document": "x", "context": {"order": {"total": 1}}}\n',
        '{"id": "e", "document": 12}\n',
        '{"id": "f", "document": "x",\n',
        _line("a"),
        b'{"id": "g", "document": "caf\xe9"}\n',
    )
    assert _problems(batch) == [
        f"{batch}:2: empty line: each line holds one case, a JSON object with id, document and "
        "optionally context",
        f"{batch}:3: empty line: each line holds one case, a JSON object with id, document and "
        "optionally context",
        f"{batch}:4: a batch line must be a JSON object with id, document and optionally "
        "context and format; this one is an array",
        f"{batch}:5: a batch line must be a JSON object with id, document and optionally "
        "context and format; this one is not an object",
        f"{batch}:6: extra: unknown key 'extra' (known keys: id, document, context, format)",
        f"{batch}:7: missing required key 'id'",
        f"{batch}:8: id: expected a string, got an integer",
        f"{batch}:9: document.surfaces.body.claims.k: nested values are not facts; project them "
        "into flat keys such as 'order.total'",
        f"{batch}:10: context.order: nested values are not facts; project them into flat keys "
        "such as 'order.total'",
        f"{batch}:11: document: expected a document (a JSON object) or a plain string",
        f"{batch}:12:29: invalid JSON: Expecting property name enclosed in double quotes",
        f"{batch}:13: id: duplicate id 'a': line 1 has it too (ids must be unique in a batch)",
        f"{batch}:14: invalid UTF-8 (invalid continuation byte) at byte 28 of the line",
    ]


def test_crlf_a_bom_and_a_last_line_without_a_break_are_read(tmp_path: Path) -> None:
    batch = _batch(tmp_path, b"\xef\xbb\xbf" + _line("a").encode()[:-1] + b"\r\n", _line("b")[:-1])
    with read_inputs([], batch=batch) as inputs:
        items = list(inputs)
    data = Path(batch).read_bytes()
    assert [
        (item.line, data[item.start : item.start + item.length][:9], item.length)
        for item in items
        if isinstance(item, LineRef)
    ] == [
        (1, b'{"id": "a', len(_line("a")) - 1),  # after the BOM, before the \r\n
        (2, b'{"id": "b', len(_line("b")) - 1),
    ]
    loaded = [load_input(item, inputs.context) for item in items]
    assert [item.origin.source for item in loaded] == ["a", "b"]
    assert [item.origin.file for item in loaded] == [batch, batch]
    assert [item.surface_lines for item in loaded] == [{"body": 1}, {"body": 2}]


def test_an_empty_batch_and_a_missing_one_are_input_errors(tmp_path: Path) -> None:
    empty = _batch(tmp_path, "")
    assert _problems(empty) == [f"{empty}: the batch holds no cases"]
    assert _problems(str(tmp_path / "missing.jsonl")) == [
        f"{tmp_path}/missing.jsonl: cannot read file: No such file or directory"
    ]
    assert _problems(str(tmp_path)) == [f"{tmp_path}: cannot read file: it is a folder"]


def test_the_size_cap_applies_to_each_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TEXTCONTRACT_MAX_INPUT_BYTES", "100")
    long = _line("long", "x" * 200)
    batch = _batch(tmp_path, _line("a"), long, _line("b"), _line("c"))
    assert _problems(batch) == [
        f"{batch}:2: the line is larger than the input size cap of 100 bytes "
        "(set TEXTCONTRACT_MAX_INPUT_BYTES to raise it)"
    ]
    with read_inputs([], batch=_batch(tmp_path, _line("a"), _line("b"), name="ok.jsonl")) as ok:
        assert len(ok) == 2  # 300 bytes in all, each line under the cap


def test_a_line_without_a_context_gets_the_default(tmp_path: Path) -> None:
    shared = tmp_path / "shared.json"
    shared.write_text('{"order.status": "shipped"}', encoding="utf-8")
    own = {"order.status": "packed"}
    batch = _batch(tmp_path, _line("a"), _line("b", context=own), _line("c", context=None))
    with read_inputs([], batch=batch, context=str(shared)) as inputs:
        contexts = [load_input(item, inputs.context).context for item in inputs]
    assert contexts == [
        Context.from_json({"order.status": "shipped"}),
        Context.from_json(own),
        Context.from_json({"order.status": "shipped"}),
    ]


def test_a_batch_from_a_stream_is_copied_for_the_second_pass() -> None:
    stream = io.BytesIO((_line("a") + _line("b")).encode())
    inputs = read_inputs([], batch="-", stdin=stream)
    with inputs:
        first = [load_input(item, inputs.context).origin for item in inputs]
        assert inputs._batch is not None
        assert inputs._batch._spool is not None
        spool = inputs._batch._spool
    assert [origin.source for origin in first] == ["a", "b"]
    assert [origin.file for origin in first] == ["<stdin>", "<stdin>"]
    assert spool.closed


def test_a_batch_that_changed_since_it_was_validated_stops_the_run(tmp_path: Path) -> None:
    batch = _batch(tmp_path, _line("a"), _line("b"))
    with read_inputs([], batch=batch) as inputs:
        Path(batch).write_text(_line("a") + _line("B"), encoding="utf-8")  # the same size
        with pytest.raises(InputError, match=r"cases.jsonl:2: the batch changed since it was"):
            [load_input(item, inputs.context) for item in inputs]
        Path(batch).write_text(_line("a"), encoding="utf-8")
        with pytest.raises(InputError, match=r"cases.jsonl: the batch changed since it was"):
            list(inputs)


def test_documents_and_a_batch_exclude_each_other(tmp_path: Path) -> None:
    batch = _batch(tmp_path, _line("a"))
    with pytest.raises(InputError, match=r"give documents \(DOC…\) or --batch FILE, not both"):
        read_inputs(["x.md"], batch=batch)
    with pytest.raises(InputError, match=r"nothing to check"):
        read_inputs([])


@pytest.mark.parametrize("written", ["plain", "markdown", "html"])
def test_a_plain_string_takes_a_format(written: str) -> None:
    line = json.dumps({"id": "a", "document": "# Hi", "format": written}).encode()
    case = parse_case(line, "b.jsonl", 1)
    assert case.document.surfaces[0].format == written
    # SPEC §18: a plain string keeps its 0.2 digest; another format is in the digest
    bare = parse_case(b'{"id": "a", "document": "# Hi"}', "b.jsonl", 1)
    assert (case.document.digest == bare.document.digest) is (written == "plain")


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        pytest.param(
            {"format": "rst"},
            "format: format must be plain, markdown or html, got 'rst'",
            id="unknown",
        ),
        pytest.param(
            {"format": 1},
            "format: format must be plain, markdown or html, got an integer",
            id="not-a-string",
        ),
    ],
)
def test_a_bad_format_names_the_line_and_key(extra: dict[str, object], message: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_case(json.dumps({"id": "a", "document": "x", **extra}).encode(), "b.jsonl", 3)
    assert [problem.render() for problem in caught.value.problems] == [f"b.jsonl:3: {message}"]


def test_a_format_beside_a_document_object_is_refused() -> None:
    line = json.dumps({"id": "a", "document": {"surfaces": {"body": "x"}}, "format": "html"})
    with pytest.raises(InputError) as caught:
        parse_case(line.encode(), "b.jsonl", 2)
    assert "format applies to a plain-string document" in caught.value.problems[0].render()
