"""How a run ends: signals (SIGINT, SIGTERM, SIGKILL), dead workers and internal errors,
tested with real processes (and through CliRunner where a process is not needed)."""

from __future__ import annotations

import fcntl
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import ClassVar, cast

import pytest
from typer.testing import CliRunner

from tests.audit.audit_builders import REFUND, REWORD, case_text, preserve, violation, write_corpus
from textcontract._pool import Pool, _results, _Sent, _signals_held, watch_parent
from textcontract.cli import app
from textcontract.cli._fast import fast_check
from textcontract.errors import InternalError

runner = CliRunner()
REPO = Path(__file__).resolve().parents[2]
ORDERS = REPO / "fixtures" / "orders"
_MAIN = "from textcontract.cli import main\nmain()\n"


@pytest.fixture(scope="module")
def big_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A corpus that takes a few seconds with --jobs 3, so that it is running when signalled."""
    cases = {
        f"c{i:04d}.yaml": case_text(violation("v1", REFUND) + preserve("p1", REWORD), f"c{i:04d}")
        for i in range(3000)
    }
    return write_corpus(tmp_path_factory.mktemp("big"), cases)


def _stat_fields(pid: int) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as stream:
            text = stream.read()
    except OSError:
        return None
    return text.rsplit(")", 1)[1].split()  # state, ppid, ...


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat_fields(int(entry))
            if fields is not None and int(fields[1]) == pid:
                found.append(int(entry))
    return found


def _workers(pid: int) -> list[int]:
    workers = []
    for child in _children(pid):
        try:
            with open(f"/proc/{child}/cmdline", "rb") as stream:
                if b"spawn_main" in stream.read():
                    workers.append(child)
        except OSError:
            continue
    return workers


def _alive(pid: int) -> bool:
    fields = _stat_fields(pid)
    return fields is not None and fields[0] != "Z"  # a zombie has ended


def _wait_for(condition: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def _start_audit(
    corpus: Path, *extra: str, group: bool = False
) -> tuple[subprocess.Popen[bytes], list[int]]:
    """``audit --jobs 3`` in a real process (leading a process group of its own with
    ``group``, as a terminal's foreground job does), once its two workers are running."""
    process = subprocess.Popen(
        [sys.executable, "-c", _MAIN, "audit", str(corpus), "-f", "json", "--jobs", "3", *extra],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=group,
    )
    assert _wait_for(lambda: len(_workers(process.pid)) == 2, 60), "the workers never started"
    return process, _workers(process.pid)


def _finish(process: subprocess.Popen[bytes], seconds: float = 60) -> bytes:
    """stderr once ``process`` ended; a process that hangs is killed and fails the test."""
    try:
        _, err = process.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        pytest.fail(f"the process did not end within {seconds} s")
    return err


pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


def test_workers_die_with_a_killed_parent(big_corpus: Path) -> None:
    process, workers = _start_audit(big_corpus)
    with process:
        process.kill()
        process.wait(timeout=30)
        assert _wait_for(lambda: not any(_alive(w) for w in workers), 5), "workers outlived it"
        assert process.stderr is not None
        # returns once no worker holds the pipe open any more, nor multiprocessing's
        # resource tracker, which unlinks the semaphores of the workers' queues: quietly
        assert process.stderr.read() == b""


def test_sigterm_ends_the_run_with_143_and_cleans_up(big_corpus: Path, tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    process, workers = _start_audit(big_corpus, "--output", str(report))
    with process:
        process.terminate()
        err = _finish(process)
    assert (process.returncode, err) == (143, b"terminated\n")
    assert _wait_for(lambda: not any(_alive(w) for w in workers), 5)
    assert list(tmp_path.iterdir()) == []


def test_sigint_ends_the_run_with_130(big_corpus: Path) -> None:
    process, workers = _start_audit(big_corpus)
    with process:
        process.send_signal(signal.SIGINT)
        err = _finish(process)
    assert (process.returncode, err) == (130, b"interrupted\n")
    assert _wait_for(lambda: not any(_alive(w) for w in workers), 5)


def test_ctrl_c_at_a_terminal_stops_the_run_not_its_workers(big_corpus: Path) -> None:
    """Ctrl-C reaches every process of the foreground group: the workers ignore it (no
    KeyboardInterrupt of theirs), and the run they work for stops them."""
    process, workers = _start_audit(big_corpus, group=True)
    with process:
        os.killpg(process.pid, signal.SIGINT)
        err = _finish(process)
    assert (process.returncode, err) == (130, b"interrupted\n")
    assert _wait_for(lambda: not any(_alive(w) for w in workers), 5)


def _signal_state(state: int, item: int) -> tuple[int, str, str]:
    """Where it runs: the process, and the signals it blocks and ignores (/proc's masks)."""
    del state, item
    with open("/proc/self/status", encoding="ascii") as stream:
        found = dict(line.split(":", 1) for line in stream if line.startswith("Sig"))
    return os.getpid(), found["SigBlk"].strip(), found["SigIgn"].strip()


_SIGNALS_AT_START = """
import json, os, signal, sys
import multiprocessing.popen_spawn_posix as spawn
from textcontract._pool import Pool
from tests.cli.test_processes import _signal_state, _parent_state

def mask():
    return sorted(signal.pthread_sigmask(signal.SIG_BLOCK, []))

held = []
launch = spawn.Popen._launch
def launched(self, process):
    held.append(mask())
    return launch(self, process)
spawn.Popen._launch = launched
with Pool(3) as pool:
    pool.start(64)
    found = pool.map(_signal_state, range(64), 1, 0, lambda: _parent_state)
    workers = sorted({state[1:] for state in found if state[0] != os.getpid()})
print(json.dumps({"held": held, "workers": workers, "after": mask()}))
"""


def test_workers_start_with_the_stopping_signals_held_and_then_ignore_ctrl_c() -> None:
    """In a fresh interpreter (multiprocessing's resource tracker not yet running: started
    on demand, it would let the signals through): each worker is spawned with SIGINT and
    SIGTERM blocked, so a signal then never meets a half-started worker; once started, a
    worker blocks nothing and ignores SIGINT; this process blocks nothing after."""
    completed = subprocess.run(
        [sys.executable, "-c", _SIGNALS_AT_START],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        cwd=REPO,
    )
    found = json.loads(completed.stdout)
    assert found["held"] == [[signal.SIGINT, signal.SIGTERM]] * 2
    sigint = 1 << (signal.SIGINT - 1)
    masks = [(int(blocked, 16), int(ignored, 16) & sigint) for blocked, ignored in found["workers"]]
    assert masks == [(0, sigint)]
    assert found["after"] == []


def test_where_signals_cannot_be_held_workers_start_all_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delattr(signal, "pthread_sigmask")  # as on a system without it
    with _signals_held():
        pass
    with Pool[int](2) as pool:
        pool.start(64)
        found = list(pool.map(_kill_nobody, range(64), 4, 0, lambda: _parent_state))
    assert found == list(range(64))


def _kill_nobody(state: int, item: int) -> int:
    del state
    return item


def test_a_killed_worker_is_exit_3_with_one_line(big_corpus: Path) -> None:
    process, workers = _start_audit(big_corpus)
    with process:
        os.kill(workers[0], signal.SIGKILL)
        err = _finish(process)
    assert process.returncode == 3
    lines = err.decode().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(
        "error: a worker process ended unexpectedly (killed, or out of memory); the audit stopped"
    )
    assert lines[0].endswith("; run again, or with --jobs 1")


def _kill_this_worker(state: int, item: int) -> int:
    if os.getpid() != state:  # in a worker: die as if the OOM killer came
        os.kill(os.getpid(), signal.SIGKILL)
    return item


def test_a_dead_worker_is_an_internal_error_of_the_pool() -> None:
    parent = os.getpid()
    with Pool[int](2) as pool:
        pool.start(100)
        with pytest.raises(InternalError, match="a worker process ended unexpectedly"):
            list(pool.map(_kill_this_worker, range(100), 1, parent, lambda: _parent_state))


def _parent_state() -> int:
    return -1  # a worker's state: never this process's pid


class _DeadProcess:
    exitcode = -9


class _ExecutorWithADeadWorker:
    _processes: ClassVar[dict[int, _DeadProcess]] = {1: _DeadProcess()}


def test_a_wait_for_a_result_notices_a_dead_worker_the_executor_missed() -> None:
    # A worker that dies holding a queue lock leaves the executor blind; the wait looks.
    never: Future[list[int] | None] = Future()
    executor = cast(ProcessPoolExecutor, _ExecutorWithADeadWorker())
    with pytest.raises(BrokenProcessPool, match="a worker process died"):
        _results(_Sent(never, [1], 1), executor)


def test_exit_does_not_wait_for_a_stuck_thread_the_command_left() -> None:
    script = (
        "import sys, threading\n"
        "from textcontract.cli import _leave, _threads\n"
        "running = _threads()\n"
        "threading.Thread(target=threading.Event().wait).start()  # never ends\n"
        "print('leaving', flush=True)\n"
        "_leave(3, running)\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False
    )
    assert (completed.returncode, completed.stdout, completed.stderr) == (3, "leaving\n", "")


def test_exit_without_a_stuck_thread_is_a_normal_exit() -> None:
    # threading imported only by the command (typer loads it): the main thread is not stuck,
    # so the interpreter exits as usual and runs its exit handlers.
    script = (
        "import atexit, sys\n"
        "from textcontract.cli import _leave, _threads\n"
        "running = _threads()\n"
        "import threading\n"
        "atexit.register(print, 'exit handlers ran')\n"
        "_leave(3, running)\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False
    )
    assert (completed.returncode, completed.stdout) == (3, "exit handlers ran\n")


def test_the_portable_parent_watch_ends_an_orphan() -> None:
    # A child without a parent-death signal, watched by polling only; its parent is killed.
    # The child says its pid once it watches: on a busy machine its imports can outlast any
    # fixed pause, and a parent killed before the watch starts leaves it watching pid 1.
    orphan = (
        "import os, time\n"
        "from textcontract._pool import watch_parent\n"
        "watch_parent(os.getppid(), 0.05)\n"
        "print(os.getpid(), flush=True)\n"
        "time.sleep(60)\n"
    )
    parent = (
        "import subprocess, sys, time\n"
        f"child = subprocess.Popen([sys.executable, '-c', {orphan!r}])\n"
        "time.sleep(60)\n"
    )
    with subprocess.Popen([sys.executable, "-c", parent], stdout=subprocess.PIPE) as process:
        assert process.stdout is not None
        child = int(process.stdout.readline())
        assert _alive(child)
        process.kill()
        process.wait(timeout=30)
    assert _wait_for(lambda: not _alive(child), 5), "the orphan kept running"


def test_watch_parent_returns_a_daemon_thread() -> None:
    watcher = watch_parent(os.getppid(), 0.05)
    assert watcher.daemon
    assert watcher.is_alive()


# -- internal errors and Ctrl-C without a process -------------------------------------------


def _check_arguments() -> list[str]:
    return [
        "check",
        str(ORDERS / "order-1001.md"),
        "--contract",
        str(ORDERS / "textcontract.yaml"),
        "--format",
        "json",
    ]


def _raise(error: BaseException) -> Callable[..., object]:
    def raising(*args: object, **kwargs: object) -> object:
        del args, kwargs
        raise error

    return raising


def test_an_internal_error_is_exit_3_with_a_traceback_on_both_routes(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import textcontract.engine._stream as stream

    monkeypatch.setattr(stream, "evaluate", _raise(RuntimeError("a bug")))
    result = runner.invoke(app, [*_check_arguments()[:-1], "text"])
    assert result.exit_code == 3
    assert result.stderr.startswith("internal error (a bug in textcontract; please report it):\n")
    assert "Traceback (most recent call last):" in result.stderr
    assert result.stderr.endswith("RuntimeError: a bug\n")
    assert fast_check(_check_arguments()) == 3
    err = capsys.readouterr().err
    assert err.startswith("internal error (a bug in textcontract; please report it):\n")
    assert err.endswith("RuntimeError: a bug\n")


def test_an_internal_error_in_a_real_process_is_exit_3() -> None:
    boom = (
        "import textcontract.engine._stream as m\n"
        "def boom(*args, **kwargs): raise RuntimeError('a bug')\n"
        "m.evaluate = boom\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", boom + _MAIN, *_check_arguments()],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert (completed.returncode, completed.stdout) == (3, "")
    assert completed.stderr.startswith("internal error (a bug in textcontract; please report it):")
    assert completed.stderr.endswith("RuntimeError: a bug\n")


def test_ctrl_c_is_exit_130_on_both_routes(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import textcontract.engine._stream as stream

    monkeypatch.setattr(stream, "evaluate", _raise(KeyboardInterrupt()))
    result = runner.invoke(app, _check_arguments())
    assert (result.exit_code, result.stdout, result.stderr) == (130, "", "interrupted\n")
    assert fast_check(_check_arguments()) == 130
    assert capsys.readouterr() == ("", "interrupted\n")


def test_ctrl_c_in_a_real_check_process_is_exit_130(tmp_path: Path) -> None:
    # The check is made to wait, so that the signal comes while it runs.
    slow = (
        "import time, textcontract.engine._stream as m\n"
        "original = m.evaluate\n"
        "def slow(*args, **kwargs):\n"
        "    print('running', flush=True)\n"
        "    time.sleep(60)\n"
        "m.evaluate = slow\n"
    )
    report = tmp_path / "report.json"
    with subprocess.Popen(
        [sys.executable, "-c", slow + _MAIN, *_check_arguments(), "--output", str(report)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as process:
        assert process.stdout is not None
        assert process.stdout.readline() == b"running\n"
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    assert (process.returncode, out, err) == (130, b"", b"interrupted\n")
    assert list(tmp_path.iterdir()) == []


def test_a_temporary_file_a_killed_check_left_is_removed_by_the_next_run(tmp_path: Path) -> None:
    """SIGKILL leaves ``.OUT.<hex>.tmp`` beside OUT (nothing can clean up after it); the
    next run that writes OUT removes it, and only it."""
    report = tmp_path / "report.json"
    report.write_text("old", encoding="utf-8")
    slow = (
        "import time, textcontract.engine._stream as m\n"
        "def slow(*args, **kwargs):\n"
        "    print('running', flush=True)\n"
        "    time.sleep(60)\n"
        "m.evaluate = slow\n"
    )
    arguments = [*_check_arguments(), "--output", str(report)]
    with subprocess.Popen(
        [sys.executable, "-c", slow + _MAIN, *arguments], stdout=subprocess.PIPE
    ) as process:
        assert process.stdout is not None
        assert process.stdout.readline() == b"running\n"
        process.kill()
    assert len(list(tmp_path.glob(".report.json.*.tmp"))) == 1
    assert report.read_text(encoding="utf-8") == "old"
    completed = subprocess.run(
        [sys.executable, "-c", _MAIN, *arguments], capture_output=True, check=False, timeout=60
    )
    assert (completed.returncode, completed.stderr) == (0, b"")
    assert list(tmp_path.iterdir()) == [report]
    assert json.loads(report.read_text(encoding="utf-8"))["source"].endswith("order-1001.md")


def test_a_staging_folder_a_killed_audit_left_is_removed_by_the_next_run(tmp_path: Path) -> None:
    """SIGKILL leaves ``.DIR.<hex>.tmp``, the staging folder of ``--artifacts DIR``, held
    locked while the run lived; the next run that puts a set in DIR removes it."""
    artifacts = tmp_path / "artifacts"
    stalled = (  # the report is rendered after the set is staged and before it is put in place
        "import time, textcontract.cli._audit as m\n"
        "def stalled(*args, **kwargs):\n"
        "    print('staged', flush=True)\n"
        "    time.sleep(60)\n"
        "m._render = stalled\n"
    )
    arguments = ["audit", str(REPO / "fixtures" / "mutations"), "--artifacts", str(artifacts)]
    with subprocess.Popen(
        [sys.executable, "-c", stalled + _MAIN, *arguments], stdout=subprocess.PIPE
    ) as process:
        assert process.stdout is not None
        assert process.stdout.readline() == b"staged\n"
        (staging,) = tmp_path.glob(".artifacts.*.tmp")
        assert _held_by_another_process(staging)
        process.kill()
    assert not _held_by_another_process(staging)
    assert [path.name for path in tmp_path.iterdir()] == [staging.name]
    completed = subprocess.run(
        [sys.executable, "-c", _MAIN, *arguments], capture_output=True, check=False, timeout=60
    )
    assert (completed.returncode, completed.stderr) == (0, b"")
    assert [path.name for path in tmp_path.iterdir()] == ["artifacts"]
    # one folder per case with an admitted probe (order-1002 has none)
    assert sorted(path.name for path in artifacts.iterdir()) == [
        "order-1001",
        "order-2001",
        "order-2002",
    ]


def _held_by_another_process(folder: Path) -> bool:
    handle = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(handle)
    return False


# -- signals at random moments of start-up ------------------------------------------------------

_RUNS = 50
_LATEST = 0.6
"""Signals come 0 to this many seconds after the process starts: in the interpreter's
start-up, the imports, typer's parsing, reading the corpus, or the audit itself."""


def _console_script() -> Path:
    script = Path(sys.executable).with_name("textcontract")
    if not script.exists():
        pytest.skip("the textcontract console script is not installed beside this python")
    return script


def _catches_sigterm(pid: int) -> bool:
    """Whether the process has its own SIGTERM handler now: whether textcontract's entry
    point has started (until then the interpreter's defaults hold)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as stream:
            caught = next(line for line in stream if line.startswith("SigCgt:"))
    except (OSError, StopIteration):
        return True  # ended already: hold it to what a run that started must do
    return bool(int(caught.split()[1], 16) >> (signal.SIGTERM - 1) & 1)


def _before_the_entry_point(signum: int, code: int, err: bytes) -> bool:
    """What a signal may do before the entry point runs, where Python's defaults hold:
    SIGTERM kills the process; SIGINT raises KeyboardInterrupt in the interpreter's
    start-up (ended by the signal, or exit 1 when it came while ``site`` was imported)."""
    if code == -signum:
        return True
    return (
        signum == signal.SIGINT
        and code == 1
        and err.rstrip().rstrip(b":").endswith(b"KeyboardInterrupt")  # "…Interrupt: " too
        and b"textcontract/cli/__init__.py" not in err
    )


def test_signals_at_random_moments_of_start_up_end_the_run_as_documented(
    tmp_path: Path,
) -> None:
    """``audit fixtures/mutations --output OUT`` signalled with SIGINT or SIGTERM at a
    seeded random moment of its first 0.6 s, 50 times. Once textcontract's entry point runs
    (the process catches SIGTERM, read from /proc just before the signal is sent) a run
    ends with 130 or 143 and one line, or — the signal came after the run was over — as an
    undisturbed run does; before, Python's defaults hold. Always: no traceback from
    textcontract, OUT is the old file or the undisturbed run's, nothing else is left."""
    script = _console_script()
    arguments = [str(script), "audit", str(REPO / "fixtures" / "mutations"), "-f", "json"]
    output = tmp_path / "audit.json"
    undisturbed = subprocess.run(
        [*arguments, "--output", str(output)], capture_output=True, check=False, timeout=120
    )
    assert (undisturbed.returncode, undisturbed.stderr) == (0, b"")
    new = output.read_bytes()
    rng = random.Random(29)
    seen: dict[str, int] = {}
    for run in range(_RUNS):
        signum = rng.choice([signal.SIGINT, signal.SIGTERM])
        output.write_bytes(b"old")
        with subprocess.Popen(
            [*arguments, "--output", str(output)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        ) as process:
            time.sleep(rng.uniform(0, _LATEST))
            started = _catches_sigterm(process.pid)
            process.send_signal(signum)
            err = _finish(process)
        code = process.returncode
        word = b"interrupted\n" if signum == signal.SIGINT else b"terminated\n"
        stopped = (code, err) == (128 + signum, word)
        finished = (code, err) == (0, b"")
        where = f"run {run}: {signal.Signals(signum).name}, exit {code}: {err[-600:]!r}"
        assert (
            stopped or finished or (not started and _before_the_entry_point(signum, code, err))
        ), where
        assert output.read_bytes() in (b"old", new), where
        assert list(tmp_path.iterdir()) == [output], where
        kind = "stopped" if stopped else "finished" if finished else "before the entry point"
        seen[kind] = seen.get(kind, 0) + 1
    assert seen.get("stopped", 0) >= _RUNS // 2, seen  # most signals came while it ran


_SIGNAL_INSIDE = {
    # the handler's exception raised in a class body's __set_name__: Python wraps it
    "wrapped": (
        "class Named:\n"
        "    def __set_name__(self, owner, name):\n"
        "        os.kill(os.getpid(), signal.SIGTERM)\n"
        "        time.sleep(5)\n"
        "def command(arguments):\n"
        "    class Owner:\n"
        "        x = Named()\n"
        "    return 0\n"
    ),
    # raised in a __del__: Python prints 'Exception ignored' and goes on
    "dropped": (
        "class Dropper:\n"
        "    def __del__(self):\n"
        "        os.kill(os.getpid(), signal.SIGTERM)\n"
        "def command(arguments):\n"
        "    Dropper()\n"
        "    for _ in range(500):\n"
        "        time.sleep(0.01)\n"
        "    print('went on')\n"
        "    return 0\n"
    ),
}


@pytest.mark.parametrize("where", sorted(_SIGNAL_INSIDE))
def test_a_signal_whose_exception_python_wraps_or_drops_still_ends_the_run(where: str) -> None:
    """Where Python does not let the handler's exception through as it is (a class body's
    ``__set_name__`` wraps it, a ``__del__`` drops it), the run still ends with 143 and the
    one line, promptly, and without a traceback."""
    script = (
        "import os, signal, sys, time\n"
        "import textcontract.cli as cli\n" + _SIGNAL_INSIDE[where] + "cli._command = command\n"
        "sys.argv = ['textcontract']\n"
        "cli.main()\n"
    )
    started = time.monotonic()
    completed = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, check=False, timeout=60
    )
    assert (completed.returncode, completed.stderr, completed.stdout) == (143, b"terminated\n", b"")
    assert time.monotonic() - started < 4  # not after the five seconds the command would take
