"""``check --jobs 2`` as real processes: a batch's lines validated and checked in forked
workers that read them from the file by offset, with the bytes, messages and exit codes of
``--jobs 1`` — for input errors of every kind, standard input, every format, a dying
worker and a failing write."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from textcontract._pool import Pool, start_method
from textcontract.cli._signals import stop_on_signals

ROOT = Path(__file__).resolve().parents[2]
CONTRACT = ["--contract", str(ROOT / "fixtures" / "orders" / "textcontract.yaml")]
_MAIN = "from textcontract.cli import main\nmain()\n"


def _cases(count: int) -> list[str]:
    """``count`` batch lines from the replies fixture, each with an id of its own."""
    replies = (ROOT / "fixtures" / "batch" / "replies.jsonl").read_text(encoding="utf-8")
    cases = [json.loads(line) for line in replies.splitlines()]
    return [
        json.dumps(dict(cases[index % len(cases)], id=f"case-{index:03d}"), ensure_ascii=False)
        for index in range(count)
    ]


def _run(
    *arguments: str, stdin: bytes = b"", script: str = "", env: dict[str, str] | None = None
) -> tuple[int, bytes, bytes]:
    completed = subprocess.run(
        [sys.executable, "-c", script + _MAIN, *arguments],
        input=stdin,
        capture_output=True,
        env={**os.environ, "COLUMNS": "80", **(env or {})},
        check=False,
        timeout=120,
    )
    return completed.returncode, completed.stdout, completed.stderr


def _both(*arguments: str, **options: Any) -> tuple[tuple[int, bytes, bytes], ...]:
    return tuple(_run(*arguments, "--jobs", jobs, **options) for jobs in ("1", "2"))


def _broken_batch() -> bytes:
    """70 lines with a problem of every kind, on lines either process may validate."""
    lines = [line.encode() for line in _cases(70)]
    lines[0] = b"\xef\xbb\xbf" + lines[0]
    lines[3] = b"   "
    lines[8] = (
        b'{"id": "c", "document": {"surfaces": {"body": {"text": "x", "claims": {"k": [1]}}}}}'
    )
    lines[17] = lines[2]  # case-002 again
    lines[30] = b'{"id": "case-030", "document": "x", "extra": 1}'
    lines[41] = b'{"id": "case-041", "document": "caf\xe9"}'
    lines[52] = b'{"id": "case-052", "document": "' + b"x" * 5000 + b'"}'  # over the cap
    lines[63] = b'{"id": "case-063", "document": "x",'
    lines[64] = lines[40]  # a duplicate of a line the other process may have read
    return b"\r\n".join(lines) + b"\n"


@pytest.mark.parametrize("source", ["file", "stdin"])
def test_input_errors_of_a_batch_are_those_of_one_process(tmp_path: Path, source: str) -> None:
    batch = tmp_path / "cases.jsonl"
    batch.write_bytes(_broken_batch())
    output = tmp_path / "out.jsonl"
    inputs = ["--batch", str(batch)] if source == "file" else ["--batch", "-"]
    stdin = batch.read_bytes() if source == "stdin" else b""
    # a piped batch is held to the cap as a whole: there it holds the batch, and line 53
    cap = "4096" if source == "file" else str(len(stdin))
    one, two = _both(
        "check", *inputs, *CONTRACT, "-f", "jsonl", "-o", str(output),
        stdin=stdin, env={"TEXTCONTRACT_MAX_INPUT_BYTES": cap},
    )  # fmt: skip
    assert one == two
    code, out, err = one
    assert (code, out) == (2, b"")
    assert not output.exists()
    name = str(batch) if source == "file" else "<stdin>"
    lines = err.decode().splitlines()
    places = [re.match(r"error: (.+?):(\d+)(?::\d+)?: ", line) for line in lines]
    numbers = (4, 9, 18, 31, 42, 53, 64, 65) if source == "file" else (4, 9, 18, 31, 42, 64, 65)
    assert [place.groups() if place else None for place in places] == [
        (name, str(number)) for number in numbers
    ]
    assert lines[2].endswith(
        "duplicate id 'case-002': line 3 has it too (ids must be unique in a batch)"
    )
    assert lines[-1].endswith(
        "duplicate id 'case-040': line 41 has it too (ids must be unique in a batch)"
    )


@pytest.mark.parametrize(
    ("output_format", "source"),
    [
        *[(output_format, "file") for output_format in ("text", "sarif", "junit", "github")],
        ("text", "stdin"),
        ("github", "stdin"),
    ],
)  # json and jsonl: test_check_inputs.py
def test_a_batch_checked_with_jobs_2_gives_the_bytes_of_jobs_1(
    tmp_path: Path, output_format: str, source: str
) -> None:
    batch = tmp_path / "cases.jsonl"
    batch.write_text("\n".join(_cases(70)) + "\n", encoding="utf-8")
    inputs = ["--batch", str(batch)] if source == "file" else ["--batch", "-"]
    stdin = batch.read_bytes() if source == "stdin" else b""
    one, two = _both("check", *inputs, *CONTRACT, "-f", output_format, stdin=stdin)
    assert one == two
    assert one[0] == 1
    assert one[2] == b""
    last = {"text": b"case-068", "sarif": b'"startLine": 69', "junit": b"case-069"}
    expected = last.get(output_format, b"line=69," if source == "file" else b"::error title=")
    assert expected in one[1]


@pytest.mark.skipif(not Path("/dev/stdin").exists(), reason="needs /dev/stdin")
def test_a_batch_named_dev_stdin_is_read_by_its_real_path_or_sent(tmp_path: Path) -> None:
    """``/dev/stdin`` names each process's own standard input: a file redirected to it is
    given to workers by its real path — or, deleted, has no path and its lines are sent —
    and a pipe is copied and its lines sent."""
    batch = tmp_path / "cases.jsonl"
    batch.write_text("\n".join(_cases(70)) + "\n", encoding="utf-8")
    arguments = [sys.executable, "-m", "textcontract", "check", "--batch", "/dev/stdin"]
    outputs = []
    for jobs, deleted in (("1", False), ("2", False), ("2", True)):
        copy = tmp_path / f"copy-{jobs}-{deleted}.jsonl"
        copy.write_bytes(batch.read_bytes())
        with copy.open("rb") as redirected:
            if deleted:
                copy.unlink()
            completed = subprocess.run(
                [*arguments, *CONTRACT, "-f", "jsonl", "--jobs", jobs],
                stdin=redirected, capture_output=True, check=False, timeout=120,
            )  # fmt: skip
        outputs.append((completed.returncode, completed.stdout, completed.stderr))
    piped = subprocess.run(
        [*arguments, *CONTRACT, "-f", "jsonl", "--jobs", "2"],
        input=batch.read_bytes(), capture_output=True, check=False, timeout=120,
    )  # fmt: skip
    outputs.append((piped.returncode, piped.stdout, piped.stderr))
    assert outputs[0] == outputs[1] == outputs[2] == outputs[3]
    assert outputs[0][0] == 1
    assert outputs[0][1].count(b"\n") == 70


def _dying_in(module: str, name: str, first: float, each: float) -> str:
    """A script prefix that makes a worker process SIGKILL itself in ``module.name`` (as the
    OOM killer would), while this process takes its time there (``first`` seconds on the
    first call, ``each`` on every call), so that the worker gets work of that pass and dies
    while this process still has some: a death noticed on a submit, a wait, or after this
    process took back batches no worker had started."""
    return (
        "import os, signal, importlib, time\n"
        f"module = importlib.import_module({module!r})\n"
        f"original, parent, pauses = module.{name}, os.getpid(), [{first}]\n"
        "def dying(*args, **kwargs):\n"
        "    if os.getpid() != parent:\n"
        "        os.kill(os.getpid(), signal.SIGKILL)\n"
        f"    time.sleep(pauses.pop() if pauses else {each})\n"
        "    return original(*args, **kwargs)\n"
        f"module.{name} = dying\n"
    )


@pytest.mark.skipif(start_method(fork=True) != "fork", reason="workers inherit the patch if forked")
@pytest.mark.parametrize(
    ("module", "name", "cases", "first", "each"),
    [
        # 4 chunks of the batch's bytes: all sent at once, two taken back before the death
        pytest.param("textcontract.inputs._batch_read", "parse_case", 2000, 0.3, 0, id="first"),
        pytest.param("textcontract.engine._stream", "evaluate", 200, 0, 0.005, id="second"),
    ],
)
def test_a_worker_dying_in_either_pass_is_exit_3_with_one_line(
    tmp_path: Path, module: str, name: str, cases: int, first: float, each: float
) -> None:
    batch = tmp_path / "cases.jsonl"
    batch.write_text("\n".join(_cases(cases)) + "\n", encoding="utf-8")
    output = tmp_path / "out.jsonl"
    code, out, err = _run(
        "check", "--batch", str(batch), *CONTRACT, "-f", "jsonl", "-o", str(output),
        "--jobs", "2", script=_dying_in(module, name, first, each),
    )  # fmt: skip
    assert (code, out) == (3, b"")
    lines = err.decode().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(
        "error: a worker process ended unexpectedly (killed, or out of memory); the check stopped"
    )
    assert lines[0].endswith("; run again, or with --jobs 1")
    assert list(tmp_path.iterdir()) == [batch]


_FILE_SIZE_LIMIT = (
    "import resource, signal\n"
    "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
    "resource.setrlimit(resource.RLIMIT_FSIZE, (100, 100))\n"
)


def test_a_failing_write_with_jobs_2_is_exit_2_with_one_line_and_no_partial_file(
    tmp_path: Path,
) -> None:
    batch = tmp_path / "cases.jsonl"
    batch.write_text("\n".join(_cases(70)) + "\n", encoding="utf-8")
    target = tmp_path / "out.jsonl"
    target.write_text("old", encoding="utf-8")
    for output_format in ("jsonl", "text"):
        code, out, err = _run(
            "check", "--batch", str(batch), *CONTRACT, "-f", output_format, "-o", str(target),
            "--jobs", "2", script=_FILE_SIZE_LIMIT,
        )  # fmt: skip
        assert (code, out) == (2, b"")
        assert err.decode() == f"error: {target}: cannot write output: File too large\n"
        assert target.read_text(encoding="utf-8") == "old"
        assert sorted(path.name for path in tmp_path.iterdir()) == ["cases.jsonl", "out.jsonl"]


def test_a_full_stdout_with_jobs_2_is_exit_2_naming_stdout(tmp_path: Path) -> None:
    batch = tmp_path / "cases.jsonl"
    batch.write_text("\n".join(_cases(70)) + "\n", encoding="utf-8")
    with open("/dev/full", "wb") as full:
        completed = subprocess.run(
            [sys.executable, "-m", "textcontract", "check", "--batch", str(batch), *CONTRACT,
             "-f", "jsonl", "--jobs", "2"],
            stdout=full, stderr=subprocess.PIPE, check=False, timeout=120,
        )  # fmt: skip
    assert completed.returncode == 2
    assert completed.stderr == b"error: <stdout>: cannot write output: No space left on device\n"


def _worker_view(state: int, item: int) -> tuple[int, bool, bool, bool]:
    """What a worker sees: whether it is one, and its SIGTERM and SIGINT handlers (this
    process takes its time, so that the worker gets items to do)."""
    if os.getpid() == state:
        time.sleep(0.05)
    return (
        item,
        os.getpid() != state,
        signal.getsignal(signal.SIGTERM) == signal.SIG_DFL,
        signal.getsignal(signal.SIGINT) is signal.SIG_IGN,
    )


def test_a_forked_worker_has_the_signal_handlers_of_a_spawned_one() -> None:
    """Not the run's (a forked worker inherits them): SIGTERM ends a worker, and it ignores
    SIGINT, which the run it works for handles."""
    previous = {number: signal.getsignal(number) for number in (signal.SIGTERM, signal.SIGINT)}
    stop_on_signals()  # as the console script does
    try:
        with Pool[int](2, "check", fork=True) as pool:
            pool.launch()
            pool.start(64)
            seen = list(pool.map(_worker_view, range(64), 1, os.getpid(), lambda: _state))
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
    assert [entry[0] for entry in seen] == list(range(64))
    in_workers = [entry[1:] for entry in seen if entry[1]]
    assert in_workers  # some items were done by the worker
    assert set(in_workers) == {(True, True, True)}


def _state() -> int:
    return -1


def test_workers_are_forked_only_where_that_is_safe() -> None:
    assert start_method(fork=False) == "spawn"
    expected = "fork" if sys.platform.startswith("linux") else "spawn"
    if threading.active_count() == 1:
        assert start_method(fork=True) == expected
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        assert start_method(fork=True) == "spawn"  # a child would inherit its locks
    finally:
        release.set()
        other.join()


@pytest.mark.parametrize("fork", [True, False])
def test_workers_launched_and_not_needed_are_stopped_and_reaped(fork: bool) -> None:
    with Pool[int](2, "check", ("textcontract.engine",), fork=fork) as pool:
        pool.launch()
        processes = list(pool._executor._processes.values())  # type: ignore[union-attr]
        pool.start(5)
        assert pool.workers == 0
    assert len(processes) == 1
    assert all(process.exitcode is not None for process in processes)


def test_spawned_workers_are_launched_first_and_check_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where workers cannot be forked they are spawned, before the heavy imports; the run
    (through the fast path, in this process) writes the bytes of one process."""
    import textcontract._pool as pool_module
    from textcontract.cli._fast import fast_check

    monkeypatch.setattr(pool_module, "start_method", lambda _: "spawn")
    batch = tmp_path / "cases.jsonl"
    batch.write_text("\n".join(_cases(40)) + "\n", encoding="utf-8")
    outputs = []
    for jobs in ("1", "2"):
        target = tmp_path / f"out-{jobs}.jsonl"
        arguments = ["check", "--batch", str(batch), *CONTRACT, "-f", "jsonl", "-o", str(target)]
        assert fast_check([*arguments, "--jobs", jobs]) == 1
        outputs.append(target.read_bytes())
    assert outputs[0] == outputs[1]
    assert outputs[0].count(b"\n") == 40


@given(
    st.integers(min_value=0, max_value=300),
    st.integers(min_value=1, max_value=20),
    st.integers(min_value=1, max_value=4),
    st.booleans(),
)
def test_batches_hold_every_item_in_order_and_shrink_towards_a_known_end(
    count: int, size: int, processes: int, known: bool
) -> None:
    from textcontract._pool import _batched

    batches = list(_batched(range(count), size, count if known else None, processes))
    assert [item for batch in batches for item in batch] == list(range(count))
    assert all(1 <= len(batch) <= size for batch in batches)
    if not known:
        assert all(len(batch) == size for batch in batches[:-1])
        return
    for index, batch in enumerate(batches):
        left = count - sum(len(earlier) for earlier in batches[:index])
        assert len(batch) == max(1, min(size, left // (2 * processes)))


def _slow_in_a_worker(state: int, item: int) -> tuple[int, bool]:
    """0.2 s an item in a worker, 5 ms here (time for the executor to queue batches)."""
    time.sleep(0.2 if os.getpid() != state else 0.005)
    return item, os.getpid() != state


def test_batches_a_forked_worker_has_not_started_are_taken_back_and_skipped() -> None:
    """The worker takes 0.2 s an item, this process 5 ms: when this process runs out of
    items (fewer than its backlog, so that it never waits for the worker before), it takes
    back every batch the worker has not started, even those queued in the worker's pipe;
    the worker skips them, and every item is done once, in order."""
    from textcontract._pool import MIN_ITEMS_FOR_WORKERS

    with Pool[int](2, "check", fork=True) as pool:
        forked = pool.forks
        pool.launch()
        pool.start(MIN_ITEMS_FOR_WORKERS)
        results = list(pool.map(_slow_in_a_worker, range(24), 1, os.getpid(), lambda: _state))
    assert [item for item, _ in results] == list(range(24))
    by_worker = [item for item, in_worker in results if in_worker]
    assert len(by_worker) <= (1 if forked else 3)


def test_a_cancelled_batch_marked_failed_later_raises_nothing() -> None:
    from concurrent.futures import Future

    from textcontract._pool import _cancel

    future: Future[list[int] | None] = Future()
    assert _cancel(future)
    future.set_exception(RuntimeError("a worker died"))  # what the executor does, later
    assert future.cancelled()
    running: Future[list[int] | None] = Future()
    assert running.set_running_or_notify_cancel()
    assert not _cancel(running)
    running.set_exception(RuntimeError("a worker died"))
    assert isinstance(running.exception(), RuntimeError)
