"""The atomic writers in this process: write failures, special files, stdout and the
exit-code mapping (sets of files: test_file_set.py)."""

from __future__ import annotations

import errno
import fcntl
import io
import os
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import textcontract.cli._left_behind as left_behind
from textcontract import cli
from textcontract.cli import main
from textcontract.cli._atomic import check_output_file, write_atomic
from textcontract.cli._errors import failure_exit_code
from textcontract.cli._output import emit, emit_rendered
from textcontract.cli._signals import Interrupted, Stopped, Terminated, settle, stop_on_signals
from textcontract.errors import InputError

# -- single files, in this process ----------------------------------------------------------


def _no_access(path: object, mode: int) -> bool:
    del path, mode
    return False


def _under_file_size_limit(code: str, tmp_path: Path) -> str:
    """Run ``code`` in a child whose writes past 4 KiB fail with EFBIG (SIGXFSZ ignored).

    A child, not this process: under the limit pytest's own output (a log file in CI) and
    coverage's data file would fail to be written too.
    """
    script = (
        "import resource, signal, sys\n"
        "from pathlib import Path\n"
        "from textcontract.cli._atomic import atomic_file\n"
        "from textcontract.cli._file_set import staged_file_set\n"
        "from textcontract.errors import InputError\n"
        "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (4096, resource.getrlimit("
        "resource.RLIMIT_FSIZE)[1]))\n"
        f"root = Path({str(tmp_path)!r})\n"
        "try:\n" + "".join(f"    {line}\n" for line in code.splitlines()) + ""
        "except InputError as error:\n"
        "    print(error)\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    return completed.stdout.strip()


def test_a_large_write_past_the_limit_fails_naming_the_file(tmp_path: Path) -> None:
    message = _under_file_size_limit(
        'with atomic_file(root / "out.json") as sink:\n    sink.write("x" * 100_000)', tmp_path
    )
    assert message == f"{tmp_path / 'out.json'}: cannot write output: File too large"
    assert list(tmp_path.iterdir()) == []


def test_a_set_file_past_the_limit_fails_naming_it(tmp_path: Path) -> None:
    message = _under_file_size_limit(
        'with staged_file_set(root / "set", "the set") as files:\n'
        '    files.write("a/b.json", "x" * 100_000)',
        tmp_path,
    )
    assert message == f"{tmp_path}/set/a/b.json: cannot write the set: File too large"
    assert list(tmp_path.iterdir()) == []


def test_a_device_and_a_fifo_are_written_into(tmp_path: Path) -> None:
    write_atomic(Path("/dev/null"), "nothing")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    write_atomic(fifo, "through the pipe")
    reader.join(timeout=10)
    assert received == [b"through the pipe"]
    assert stat.S_ISFIFO(fifo.stat().st_mode)


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        pytest.param("socket", "it is a socket", id="socket"),
        pytest.param("file-as-folder", "Not a directory", id="parent-is-a-file"),
        pytest.param("unwritable", "the folder '{folder}' is not writable", id="unwritable"),
    ],
)
def test_unwritable_targets_are_named_before_writing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, make: str, reason: str
) -> None:
    target = tmp_path / "out.json"
    server = socket.socket(socket.AF_UNIX)
    try:
        if make == "socket":
            server.bind(str(target))
        elif make == "file-as-folder":
            (tmp_path / "file").write_text("x", encoding="utf-8")
            target = tmp_path / "file" / "out.json"
        else:  # as root every folder is writable: say what a read-only one would
            monkeypatch.setattr(os, "access", _no_access)
        with pytest.raises(InputError) as caught:
            check_output_file(target)
        assert str(caught.value) == (
            f"{target}: cannot write output: {reason.format(folder=tmp_path)}"
        )
    finally:
        server.close()


def test_a_temporary_name_in_use_is_not_reused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tokens = iter([b"\0" * 6, b"\0" * 6, b"\1" * 6])
    monkeypatch.setattr(os, "urandom", lambda size: next(tokens) if size == 6 else b"")
    taken = tmp_path / f".out.json.{'00' * 6}.tmp"
    taken.write_text("someone else's", encoding="utf-8")
    with open(taken, "rb") as writing:
        fcntl.flock(writing.fileno(), fcntl.LOCK_EX)  # a live run's, as it writes
        write_atomic(tmp_path / "out.json", "mine")
    assert (tmp_path / "out.json").read_text(encoding="utf-8") == "mine"
    assert taken.read_text(encoding="utf-8") == "someone else's"


# -- stdout and the exit-code mapping -------------------------------------------------------


class _FailingStdout(io.StringIO):
    """A stdout whose writes fail with ``error`` (rich asks for a real descriptor too)."""

    def __init__(self, error: OSError, descriptor: int) -> None:
        super().__init__()
        self._error = error
        self._descriptor = descriptor

    def write(self, text: str) -> int:
        del text
        raise self._error

    def fileno(self) -> int:
        return self._descriptor


def test_a_failing_stdout_is_an_input_error_and_a_closed_one_stays_a_broken_pipe(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with open(os.devnull, "w", encoding="utf-8") as devnull:
        full = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        monkeypatch.setattr(sys, "stdout", _FailingStdout(full, devnull.fileno()))
        with pytest.raises(InputError, match="<stdout>: cannot write output: No space left"):
            emit("x", None)
        with pytest.raises(InputError, match="<stdout>: cannot write output: No space left"):
            emit_rendered(lambda console: console.print("x"), None)
        closed = BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))
        monkeypatch.setattr(sys, "stdout", _FailingStdout(closed, devnull.fileno()))
        with pytest.raises(BrokenPipeError):
            emit("x", None)
        with pytest.raises(BrokenPipeError):
            emit_rendered(lambda console: console.print("x"), None)


def test_signals_and_closed_pipes_map_to_their_exit_codes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert failure_exit_code(Terminated()) == 143
    assert failure_exit_code(Interrupted()) == 130
    assert failure_exit_code(KeyboardInterrupt()) == 130
    assert failure_exit_code(BrokenPipeError()) == 141
    assert capsys.readouterr().err == "terminated\ninterrupted\ninterrupted\n"


@pytest.mark.parametrize(
    ("first", "raised"),
    [(signal.SIGTERM, Terminated), (signal.SIGINT, Interrupted)],
    ids=["sigterm", "sigint"],
)
def test_the_first_signal_stops_the_run_and_later_ones_are_dropped(
    first: signal.Signals, raised: type[Stopped]
) -> None:
    stop_on_signals()
    with pytest.raises(raised):
        _signal_and_wait(first)
    for later in (signal.SIGINT, signal.SIGTERM):  # while the run unwinds: nothing
        os.kill(os.getpid(), later)
        time.sleep(0.01)


def test_a_signal_ignored_at_start_stays_ignored() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a background job's
    stop_on_signals()
    assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    settle()
    assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(0.01)


def _signal_and_wait(signum: int) -> None:
    os.kill(os.getpid(), signum)
    time.sleep(5)  # the handler raises long before this ends


@pytest.mark.parametrize(
    ("stop", "code", "word"),
    [
        pytest.param(Terminated(), 143, "terminated", id="stopped-outside-a-command"),
        pytest.param(KeyboardInterrupt(), 130, "interrupted", id="ctrl-c-before-the-handler"),
    ],
)
def test_main_ends_a_run_stopped_outside_a_command_with_its_status(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    stop: BaseException,
    code: int,
    word: str,
) -> None:
    """Raised while typer imports or parses (no command wraps it), and after the run
    the signals change nothing."""

    def stopped(arguments: list[str]) -> object:
        del arguments
        raise stop

    monkeypatch.setattr(cli, "_command", stopped)
    with pytest.raises(SystemExit) as exited:
        main()
    assert exited.value.code == code
    assert capsys.readouterr() == ("", word + "\n")
    assert signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL
    os.kill(os.getpid(), signal.SIGTERM)  # dropped: the run is over
    time.sleep(0.01)


def test_a_word_with_no_stderr_to_say_it_on_still_gives_the_status(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class Closed(io.StringIO):
        def write(self, text: str) -> int:
            raise ValueError(f"I/O operation on closed file: {text!r}")

    monkeypatch.setattr(sys, "stderr", Closed())
    assert Interrupted().end() == 130


def test_main_runs_a_typer_command_and_exits_with_its_code(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["textcontract", "rules", "--format", "json"])
    with pytest.raises(SystemExit) as exited:
        main()
    assert exited.value.code == 0
    assert '"rule_types"' in capsys.readouterr().out


# -- what killed runs left beside an output file ----------------------------------------------


def test_a_write_removes_what_killed_runs_left_and_nothing_else(tmp_path: Path) -> None:
    """Beside ``out.json``: a killed run's temporary file (removed), one a live run holds
    locked, and files that only look alike — another output's, a name that is not hex, a
    link, a folder, a FIFO (all kept)."""
    left = tmp_path / ".out.json.0123456789ab.tmp"
    left.write_text("killed", encoding="utf-8")
    live = tmp_path / ".out.json.aaaaaaaaaaaa.tmp"
    kept = [
        live,
        tmp_path / ".other.json.0123456789ab.tmp",
        tmp_path / ".out.json.0123456789AB.tmp",
        tmp_path / ".out.json.0123456789a.tmp",
        tmp_path / "out.json.0123456789ab.tmp",
    ]
    for path in kept:
        path.write_text("kept", encoding="utf-8")
    (tmp_path / ".out.json.bbbbbbbbbbbb.tmp").symlink_to(left)
    (tmp_path / ".out.json.cccccccccccc.tmp").mkdir()
    os.mkfifo(tmp_path / ".out.json.dddddddddddd.tmp")
    names = {path.name for path in tmp_path.iterdir()} - {left.name}
    with open(live, "rb") as writing:
        fcntl.flock(writing.fileno(), fcntl.LOCK_EX)  # as the run writing it holds it
        write_atomic(tmp_path / "out.json", "new")
    assert {path.name for path in tmp_path.iterdir()} == names | {"out.json"}
    assert (tmp_path / "out.json").read_text(encoding="utf-8") == "new"


def test_a_temporary_file_taken_before_it_was_locked_gets_another_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run clearing what killed runs left can find a new temporary file in the instant
    between its creation and its lock, and remove it: the writer then makes another."""
    flock = fcntl.flock
    made: list[str] = []

    def after_a_clearing_run(handle: int, operation: int) -> None:
        if operation == fcntl.LOCK_EX and not made:
            (found,) = tmp_path.glob(".out.json.*.tmp")
            made.append(found.name)
            found.unlink()
        flock(handle, operation)

    monkeypatch.setattr(fcntl, "flock", after_a_clearing_run)
    write_atomic(tmp_path / "out.json", "new")
    assert made
    assert [path.name for path in tmp_path.iterdir()] == ["out.json"]


def test_without_flock_or_a_listing_nothing_beside_the_output_is_removed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where there is no ``flock`` a live run's file cannot be told from a dead run's, and
    where the folder cannot be listed nothing is found: the output is written all the same."""
    left = tmp_path / ".out.json.0123456789ab.tmp"
    left.write_text("killed", encoding="utf-8")
    monkeypatch.setattr(left_behind, "fcntl", None)
    write_atomic(tmp_path / "out.json", "new")
    monkeypatch.undo()

    def unlistable(path: object) -> object:
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)

    monkeypatch.setattr(os, "scandir", unlistable)
    write_atomic(tmp_path / "out.json", "newer")
    assert sorted(path.name for path in tmp_path.iterdir()) == [left.name, "out.json"]
    assert (tmp_path / "out.json").read_text(encoding="utf-8") == "newer"


def test_a_left_file_replaced_while_it_is_looked_at_is_not_removed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between opening a left file and removing it, another file took its name (a live
    run's new one): it is left alone."""
    left = tmp_path / ".out.json.0123456789ab.tmp"
    left.write_text("killed", encoding="utf-8")
    flock = fcntl.flock

    def swapped(handle: int, operation: int) -> None:
        flock(handle, operation)
        if operation & fcntl.LOCK_NB and left.exists():
            left.unlink()
            left.write_text("a live run's", encoding="utf-8")

    monkeypatch.setattr(fcntl, "flock", swapped)
    write_atomic(tmp_path / "out.json", "new")
    assert left.read_text(encoding="utf-8") == "a live run's"
