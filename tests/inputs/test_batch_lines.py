"""The lines of a batch: found with their offsets, validated in any process, read again by
offset; each fast path held to the plain one on generated batches built to break it."""

from __future__ import annotations

import io
import json
import os
import pickle
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from textcontract._files import describe_size
from textcontract._json import loads_strict
from textcontract._pool import Pool
from textcontract.contract import parse_contract_file
from textcontract.engine import check_inputs
from textcontract.errors import InputError, Problem
from textcontract.inputs import LineInput, LineRef, load_input, parse_case, read_inputs
from textcontract.inputs._batch_copy import CopyStopped, StreamCopy
from textcontract.inputs._batch_lines import BatchLines
from textcontract.inputs._batch_read import (
    CHANGED,
    Chunk,
    LineAt,
    LineSource,
    read_line,
    split_lines,
    validate_line,
)

ORDERS = Path(__file__).resolve().parents[2] / "fixtures" / "orders"
CAP = 120
"""The size cap the generated batches are read under (TEXTCONTRACT_MAX_INPUT_BYTES)."""


@contextmanager
def _cap(size: int) -> Iterator[None]:
    """TEXTCONTRACT_MAX_INPUT_BYTES for the block (hypothesis runs many examples in one test,
    so no function-scoped monkeypatch)."""
    old = os.environ.get("TEXTCONTRACT_MAX_INPUT_BYTES")
    os.environ["TEXTCONTRACT_MAX_INPUT_BYTES"] = str(size)
    try:
        yield
    finally:
        if old is None:
            del os.environ["TEXTCONTRACT_MAX_INPUT_BYTES"]
        else:
            os.environ["TEXTCONTRACT_MAX_INPUT_BYTES"] = old


def _case(case_id: str, text: str = "Hi.") -> bytes:
    return json.dumps({"id": case_id, "document": text}).encode()


# Pieces of batch files: cases (with ids that repeat), what makes a line empty, blank,
# overlong, invalid or oddly broken, and every line break the reader treats specially.
_PIECES = st.sampled_from(
    [
        _case("a"), _case("b"), _case("c", "x" * 90), _case("d", "é"), b'{"id": "e"}',
        b"[1]", b"7", b'{"id": "f", "document": 7}', b'{"id": "g",', b"\xff", b"{}",
        b"\xef\xbb\xbf", b" ", b"\t", b"\x0b", b"\n", b"\r", b"\r\n", b"\n\n", b"x" * 130,
    ]
)  # fmt: skip
_BATCHES = st.lists(_PIECES, max_size=12).map(b"".join)


def _model(data: bytes, cap: int) -> list[tuple[int, int, bytes | str]]:
    """The lines of a batch as SPEC §11 and the size cap describe them, cut by
    ``bytes.split`` rather than read: (number, offset of the line's bytes, the bytes or the
    start of the problem's message)."""
    lines: list[tuple[int, int, bytes | str]] = []
    offset = 0
    pieces = data.split(b"\n")
    for index, piece in enumerate(pieces):
        broken = index < len(pieces) - 1  # followed by a line break
        if not broken and not piece:
            break
        raw_length = len(piece) + broken
        start = offset
        offset += raw_length
        if (broken and raw_length > cap + 2) or (not broken and raw_length > cap):
            lines.append((index + 1, start, "the line is larger than the input size cap"))
            continue
        body = piece[:-1] if piece.endswith(b"\r") else piece
        if index == 0 and body.startswith(b"\xef\xbb\xbf"):
            body, start = body[3:], start + 3
        lines.append((index + 1, start, body if body.strip() else "empty line"))
    return lines


@given(_BATCHES, st.integers(min_value=1, max_value=140))
@example(b"\xef\xbb\xbf" + _case("a") + b"\r\n\r\n \n" + _case("b"), 30)
@example(b"x" * 11 + b"\n" + b"y" * 12 + b"\r\n" + b"z" * 11, 10)
def test_lines_are_found_where_the_batch_holds_them(data: bytes, cap: int) -> None:
    with _cap(cap):
        found = list(split_lines(io.BytesIO(data), "b.jsonl"))
    described = [
        (number, start, line if isinstance(line, bytes) else line.message)
        for number, start, line in found
    ]
    expected = _model(data, cap)
    assert [entry[:2] for entry in described] == [entry[:2] for entry in expected]
    for (_, start, line), (_, _, want) in zip(described, expected, strict=True):
        if isinstance(want, bytes):
            assert line == want == data[start : start + len(want)]
        else:
            assert isinstance(line, str)
            assert line.startswith(want)


def _within_cap(data: bytes, cap: int) -> bytes:
    """The whole lines a stream read under ``cap`` gives before it passes the cap: every
    line that ends (its line break included) within the first ``cap`` bytes."""
    if len(data) <= cap:
        return data
    return data[: data.rfind(b"\n", 0, cap) + 1]


class _Trickle(io.RawIOBase):
    """A pipe's reads: a few bytes at a time, however many were asked for."""

    def __init__(self, data: bytes, step: int) -> None:
        self._data = memoryview(data)
        self._step = step

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        size = min(len(buffer), self._step, len(self._data))
        buffer[:size] = self._data[:size]
        self._data = self._data[size:]
        return size


@given(_BATCHES, st.integers(min_value=1, max_value=140), st.integers(min_value=1, max_value=9))
@example(b"aaaa\nbbbbbb", 10, 1)
@example(b"aaaa\nbbbb\n", 10, 3)
def test_a_stream_is_copied_as_read_and_stops_as_soon_as_it_passes_the_cap(
    data: bytes, cap: int, step: int
) -> None:
    """A stream (a pipe, standard input) read line by line under the cap on its whole
    size, against its bytes split in memory: the lines of the part within the cap, then
    a stop as the cap is passed; the copy holds exactly the bytes of the lines given, so
    nothing past the cap is ever read whole or written."""
    copy = io.BytesIO()
    stream = io.BufferedReader(_Trickle(data, step), buffer_size=16)
    found: list[tuple[int, int, bytes | Problem]] = []
    with _cap(cap):
        reader = StreamCopy(stream, copy)
        try:
            found.extend(split_lines(reader, "<stdin>"))
        except CopyStopped as stopped:
            reason: str | None = str(stopped)
        else:
            reason = None
            reader.finish()
        within = _within_cap(data, cap)
        plain = list(split_lines(io.BytesIO(within), "<stdin>"))
    assert found == plain
    assert copy.getvalue() == within
    assert reader.size <= cap + 1
    if len(data) <= cap:
        assert reason is None
    else:
        assert reason == (
            f"a batch read from a pipe or standard input is held to the input size cap of "
            f"{describe_size(cap)} as a whole, and this line passes it (set "
            "TEXTCONTRACT_MAX_INPUT_BYTES to raise it, or pass the batch as a regular file)"
        )


class _SimulatedPool:
    """A pool whose "worker" runs in this process as a worker would: its state made by the
    setup it is sent, items and results pickled both ways, every other batch of two."""

    def __init__(self) -> None:
        self.started: int | None = None
        self.sent = 0

    def start(self, items: int) -> None:
        self.started = items

    def map(
        self,
        work: Callable[[Any, Any], Any],
        items: Iterable[Any],
        batch: int,
        local: Any,
        setup: Callable[[], Callable[[], Any]],
    ) -> Iterator[Any]:
        del batch
        worker = pickle.loads(pickle.dumps(setup()))()
        for index, item in enumerate(items):
            if index // 2 % 2:
                yield work(local, item)
            else:
                self.sent += 1
                shipped = pickle.loads(pickle.dumps(item))
                yield pickle.loads(pickle.dumps(work(worker, shipped)))


def _first_pass(
    path: Path, pool: _SimulatedPool | None, *, stdin: bool = False, chunk: int = 1 << 18
) -> tuple[list[str], list[tuple[int, int, int, bytes]], int]:
    """(problems, (number, start, length, fingerprint) of each valid line, lines read)."""
    problems: list[Any] = []
    lines = BatchLines(str(path), "b.jsonl", chunk)
    with lines, path.open("rb") as stream:
        valid = list(lines.validate(stream if stdin else None, problems, pool))  # type: ignore[arg-type]
    rendered = [problem.render() for problem in problems]
    found = [(line.number, line.start, line.length, line.fingerprint) for line in valid]
    return rendered, found, lines.count


@settings(max_examples=150)
@given(
    st.lists(_PIECES, max_size=24).map(b"".join),
    st.integers(min_value=1, max_value=80),
    st.booleans(),
)
def test_chunks_validated_anywhere_find_what_reading_every_line_in_order_finds(
    tmp_path_factory: pytest.TempPathFactory, data: bytes, chunk: int, pooled: bool
) -> None:
    """The fast path (a file cut into chunks of ``chunk`` bytes, each read from the first
    line that starts in it, in this process or a simulated worker) against the plain one
    (the lines read one after the other): the same valid lines, problems in the same order,
    the same count. Read as a stream (copied, each line sent with its bytes) the same,
    unless the stream passes the cap, which a stream is held to as a whole."""
    folder = tmp_path_factory.mktemp("batch")
    path = folder / "b.jsonl"
    path.write_bytes(data)
    pool = _SimulatedPool() if pooled else None
    with _cap(CAP):
        plain = _first_pass(path, None, chunk=len(data) + 1)
        chunked = _first_pass(path, pool, chunk=chunk)
        streamed = _first_pass(path, _SimulatedPool(), stdin=True)
        expected = plain if len(data) <= CAP else _stopped_at_the_cap(folder, data)
    assert chunked == plain
    assert streamed == expected
    if pool is not None:
        assert pool.started == min(plain[2], 32)


def _stopped_at_the_cap(
    folder: Path, data: bytes
) -> tuple[list[str], list[tuple[int, int, int, bytes]], int]:
    """What the first pass over a stream larger than the cap finds: what the lines within
    the cap give as a file, then the stop at the next line."""
    within = folder / "within.jsonl"
    within.write_bytes(_within_cap(data, CAP))
    problems, found, count = _first_pass(within, None) if within.stat().st_size else ([], [], 0)
    stop = (
        f"b.jsonl:{count + 1}: a batch read from a pipe or standard input is held to the "
        f"input size cap of {CAP} bytes as a whole, and this line passes it (set "
        "TEXTCONTRACT_MAX_INPUT_BYTES to raise it, or pass the batch as a regular file)"
    )
    return [*problems, stop], found, count + 1


def test_workers_read_a_file_s_lines_themselves_and_get_a_copy_s_bytes(tmp_path: Path) -> None:
    path = tmp_path / "b.jsonl"
    path.write_bytes(b"".join(_case(name) + b"\n" for name in "abc") * 3)
    sent: list[object] = []

    class Recording(_SimulatedPool):
        def map(self, work: Any, items: Iterable[Any], *rest: Any) -> Iterator[Any]:
            listed = list(items)
            sent.extend(listed)
            return super().map(work, listed, *rest)

    problems: list[Any] = []
    with BatchLines(str(path), "b.jsonl", 40) as lines:
        assert len(list(lines.validate(None, problems, Recording()))) == 3  # type: ignore[arg-type]
    size = path.stat().st_size
    assert sent == [Chunk(start, min(start + 40, size)) for start in range(0, size, 40)]
    assert [p.render().split(": ", 1)[1][:12] for p in problems] == ["id: duplicat"] * 6
    sent.clear()
    with BatchLines("-", "<stdin>") as lines, path.open("rb") as stream:
        list(lines.validate(stream, [], Recording()))  # type: ignore[arg-type]
    assert [item.data for item in sent] == [_case(name) for name in "abc"] * 3  # type: ignore[attr-defined]


_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=12,
)


def _typed(value: Any) -> Any:
    """``value`` with every scalar paired with its type and floats by ``repr``: equal only if
    built alike (``1`` is not ``1.0``, ``0.0`` is not ``-0.0``)."""
    if isinstance(value, dict):
        return ("dict", [(key, _typed(item)) for key, item in value.items()])
    if isinstance(value, list):
        return ("list", [_typed(item) for item in value])
    return (type(value).__name__, repr(value))


_TEXTS = st.one_of(
    _JSON.map(lambda value: json.dumps(value, ensure_ascii=False)),
    _JSON.map(lambda value: json.dumps(value, indent=1)),
    st.sampled_from(
        [
            '{"a": 1, "a": 2}', '{"a": NaN}', "[1e400]", "-0.0", "[" * 120 + "]" * 120,
            '"\\ud800"', '"\\ud83d\\ude00"', "1" * 5000, '{"\\u00e9": 1.50}', "[1.0, 1]",
        ]
    ),
)  # fmt: skip


@given(_TEXTS)
def test_json_loads_builds_what_the_strict_reader_builds_when_it_accepts(text: str) -> None:
    """The second pass parses validated lines with ``json.loads``: exact wherever the strict
    reader accepted the text, which is all the second pass ever reads."""
    try:
        strict = loads_strict(text, "b.jsonl")
    except InputError:
        return
    assert _typed(json.loads(text)) == _typed(strict)


@given(_PIECES, st.sampled_from([None, {"k": 1}, {"states": {"current": {"a.b": -0.0}}}]))
def test_a_validated_line_parses_to_the_case_the_strict_parse_gives(
    piece: bytes, context: object
) -> None:
    try:
        value = json.loads(piece)
    except ValueError:
        return
    if isinstance(value, dict) and context is not None:
        piece = json.dumps({**value, "context": context}).encode()
    try:
        strict = parse_case(piece, "b.jsonl", 3)
    except InputError:
        return
    assert parse_case(piece, "b.jsonl", 3, validated=True) == strict


def _contract() -> Any:
    return parse_contract_file(ORDERS / "textcontract.yaml", "textcontract.yaml")


def _batch(tmp_path: Path, count: int, name: str = "cases.jsonl") -> Path:
    path = tmp_path / name
    lines = [
        json.dumps({"id": f"c{i:03d}", "document": f"Order {i} shipped."}) for i in range(count)
    ]
    path.write_text("\r\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_real_pool_validates_and_checks_as_one_process_does(tmp_path: Path) -> None:
    path = _batch(tmp_path, 40)
    with read_inputs([], batch=str(path)) as alone:
        reports = [item.report.to_json() for item in check_inputs(_contract(), alone, 1)]
        expected = (alone._prints, alone._starts, alone._lengths)
    with Pool[Any](2, "check") as pool, read_inputs([], batch=str(path), pool=pool) as pooled:
        assert pool.workers == 1
        assert (pooled._prints, pooled._starts, pooled._lengths) == expected
        assert all(isinstance(item, LineRef) for item in pooled)
        checked = [item.report.to_json() for item in check_inputs(_contract(), pooled, 2, pool)]
    assert checked == reports


def test_a_real_pool_finds_the_problems_one_process_finds(tmp_path: Path) -> None:
    path = _batch(tmp_path, 40)
    lines = path.read_bytes().split(b"\n")
    lines[5] = b""
    lines[20] = b'{"id": "c003", "document": "again"}'  # a duplicate of line 4
    lines[33] = b'{"id": "x", "document": {"surfaces": []}}'
    path.write_bytes(b"\n".join(lines))
    with pytest.raises(InputError) as alone:
        read_inputs([], batch=str(path))
    with Pool[Any](2, "check") as pool, pytest.raises(InputError) as pooled:
        read_inputs([], batch=str(path), pool=pool)
    assert [p.render() for p in pooled.value.problems] == [p.render() for p in alone.value.problems]
    assert len(alone.value.problems) == 3


def test_a_line_changed_before_a_worker_checks_it_stops_the_run(tmp_path: Path) -> None:
    path = _batch(tmp_path, 40)
    with Pool[Any](2, "check") as pool, read_inputs([], batch=str(path), pool=pool) as inputs:
        path.write_bytes(path.read_bytes().replace(b"Order 38 ", b"Order 83 "))
        with pytest.raises(InputError, match=r"cases.jsonl:39: the batch changed since it was"):
            list(check_inputs(_contract(), inputs, 2, pool))


def test_a_batch_of_another_size_or_kind_is_a_changed_batch(tmp_path: Path) -> None:
    path = _batch(tmp_path, 3)
    with read_inputs([], batch=str(path)) as inputs:
        (item,) = [entry for entry in inputs if entry.line == 2]  # type: ignore[union-attr]
        assert isinstance(item, LineRef)
        path.write_bytes(path.read_bytes() + b"\n")
        with pytest.raises(InputError, match=r"cases\.jsonl: the batch changed since it was"):
            list(inputs)
        path.unlink()
        os.mkfifo(path)  # opened without waiting for a writer, and refused
        with pytest.raises(InputError, match=r"cases.jsonl:2: the batch changed since it was"):
            load_input(item, inputs.context)
    with pytest.raises(InputError, match=r"cases.jsonl:1: the batch changed since it was"):
        read_line(str(tmp_path / "cases.jsonl"), 0, 1, "cases.jsonl", 1, CHANGED)


def test_a_line_cut_short_since_it_was_found_is_named(tmp_path: Path) -> None:
    path = _batch(tmp_path, 2)
    source = LineSource(str(path), "cases.jsonl")
    size = path.stat().st_size
    result = validate_line(source, LineAt(2, size - 5, 20))
    assert [problem.render() for problem in result.problems] == [  # type: ignore[union-attr]
        "cases.jsonl:2: the batch changed while it was read; run again"
    ]
    missing = LineSource(str(tmp_path / "gone.jsonl"), "gone.jsonl")
    result = validate_line(missing, LineAt(1, 0, 5))
    assert [problem.render() for problem in result.problems] == [  # type: ignore[union-attr]
        "gone.jsonl: cannot read file again: No such file or directory"
    ]


def test_a_copy_of_a_stream_is_read_again_here_and_checked(tmp_path: Path) -> None:
    data = _batch(tmp_path, 3).read_bytes()
    with read_inputs([], batch="-", stdin=io.BytesIO(data)) as inputs:
        items = list(inputs)
        assert [type(item) for item in items] == [LineInput] * 3
        assert inputs._batch is not None
        assert inputs._batch._spool is not None
        spool = inputs._batch._spool
        spool.seek(0)
        changed = spool.read().replace(b"Order 2 ", b"Order 9 ")
        spool.seek(0)
        spool.write(changed)
        spool.flush()
        with pytest.raises(InputError, match=r"<stdin>:3: the batch changed since it was"):
            list(inputs)


def test_a_file_no_worker_can_open_by_a_path_is_read_again_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A batch file whose real path names another file (``/dev/stdin`` redirected from a
    file since deleted) has its lines read by this process and sent with their bytes."""
    path = _batch(tmp_path, 3)
    monkeypatch.setattr(os.path, "realpath", lambda _: str(tmp_path / "gone"))
    with read_inputs([], batch=str(path)) as inputs:
        assert inputs._batch is not None
        assert inputs._batch.shared is None
        items = list(inputs)
        assert [type(item) for item in items] == [LineInput] * 3
        assert [load_input(item, inputs.context).origin.source for item in items] == [
            "c000",
            "c001",
            "c002",
        ]
        path.write_bytes(path.read_bytes().replace(b"Order 1 ", b"Order 7 "))
        with pytest.raises(InputError, match=r"cases.jsonl:2: the batch changed since it was"):
            list(inputs)


def test_a_copy_cut_short_and_a_failing_read_are_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = _batch(tmp_path, 3).read_bytes()
    with read_inputs([], batch="-", stdin=io.BytesIO(data)) as inputs:
        assert inputs._batch is not None
        assert inputs._batch._spool is not None
        inputs._batch._spool.truncate(len(data) - 10)
        with pytest.raises(InputError, match=r"<stdin>:3: the batch changed since it was"):
            list(inputs)
    path = tmp_path / "cases.jsonl"

    def failing(*_: object) -> bytes:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "pread", failing)
    with pytest.raises(InputError, match=r"cases.jsonl: cannot read file again: Input/output"):
        read_line(str(path), 0, 4, "cases.jsonl", 1, CHANGED)
