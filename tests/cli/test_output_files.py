"""``--output FILE``: checked before anything runs, written atomically with ordinary modes,
through symlinks, directly into FIFOs and devices, and failing with one line and no trace."""

from __future__ import annotations

import errno
import json
import os
import stat
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from textcontract.cli import app
from textcontract.cli._fast import fast_check

runner = CliRunner()
REPO = Path(__file__).resolve().parents[2]
ORDERS = REPO / "fixtures" / "orders"
SHIPPED = REPO / "fixtures" / "mutations"


def _check(*extra: str) -> list[str]:
    return [
        "check",
        str(ORDERS / "order-1001.md"),
        "--context",
        str(ORDERS / "order-1001.context.json"),
        "--contract",
        str(ORDERS / "textcontract.yaml"),
        "--format",
        "json",
        *extra,
    ]


def _process(
    *args: str, stdout: int | None = subprocess.PIPE, preexec: str = ""
) -> subprocess.CompletedProcess[str]:
    """``textcontract ARGS`` in a real process, after running ``preexec`` (Python) in it."""
    script = f"{preexec}\nfrom textcontract.cli import main\nmain()\n"
    return subprocess.run(
        [sys.executable, "-c", script, *args],
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
        timeout=120,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )


@pytest.fixture
def umask() -> Iterator[int]:
    """Run with umask 027 (and put the old one back)."""
    old = os.umask(0o027)
    try:
        yield 0o027
    finally:
        os.umask(old)


# -- refused before anything runs -----------------------------------------------------------

# Every command that takes --output, with inputs that do not exist: an output problem must be
# reported before any input is read.
_COMMANDS = {
    "check": ["check", "absent.md", "--contract", "absent.yaml", "--format", "json"],
    "check-text": ["check", "absent.md", "--contract", "absent.yaml"],
    "audit": ["audit", "absent-dir", "--format", "json"],
    "score": ["score", "--record", "r.json", "--probe", "p.json", "--policy", "pol.yaml"],
    "aggregate-strength": ["aggregate-strength", "a.json", "--policy", "pol.yaml"],
    "compare": ["compare", "a.json", "b.json"],
    "rules": ["rules"],
    "schema": ["schema"],
    "test": ["test", "absent.yaml"],
    "lint": ["lint", "absent.yaml"],
}


def _targets(tmp_path: Path) -> dict[str, tuple[str, str]]:
    (tmp_path / "folder").mkdir()
    return {
        "dot": (".", ".: cannot write output: it is a folder"),
        "folder": (
            str(tmp_path / "folder"),
            f"{tmp_path}/folder: cannot write output: it is a folder",
        ),
        "missing-folder": (
            str(tmp_path / "nope" / "x.json"),
            f"{tmp_path}/nope/x.json: cannot write output: "
            f"the folder '{tmp_path}/nope' does not exist",
        ),
    }


@pytest.mark.parametrize("target", ["dot", "folder", "missing-folder"])
@pytest.mark.parametrize("command", sorted(_COMMANDS))
def test_an_unwritable_output_is_an_input_error_before_anything_runs(
    command: str, target: str, tmp_path: Path
) -> None:
    output, message = _targets(tmp_path)[target]
    arguments = [*_COMMANDS[command], "--output", output]
    result = runner.invoke(app, arguments)
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", f"error: {message}\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder"]


def test_the_fast_path_checks_the_output_first_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert fast_check([*_COMMANDS["check"], "--output", str(tmp_path)]) == 2
    assert capsys.readouterr() == ("", f"error: {tmp_path}: cannot write output: it is a folder\n")


def test_a_real_process_with_output_dot_exits_2_with_one_line() -> None:
    for arguments in (_check("--output", "."), ["audit", str(SHIPPED), "-f", "json", "-o", "."]):
        completed = _process(*arguments)
        assert (completed.returncode, completed.stdout) == (2, "")
        assert completed.stderr == "error: .: cannot write output: it is a folder\n"


# -- permissions ----------------------------------------------------------------------------


def test_a_new_output_file_gets_0666_minus_the_umask(tmp_path: Path, umask: int) -> None:
    target = tmp_path / "report.json"
    result = runner.invoke(app, _check("--output", str(target)))
    assert result.exit_code == 0, result.stderr
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask == 0o640
    assert json.loads(target.read_text(encoding="utf-8"))["accepted"] is True


def test_a_replaced_output_file_keeps_its_mode(tmp_path: Path, umask: int) -> None:
    del umask
    target = tmp_path / "report.json"
    target.write_text("old", encoding="utf-8")
    target.chmod(0o604)
    assert runner.invoke(app, _check("--output", str(target))).exit_code == 0
    assert stat.S_IMODE(target.stat().st_mode) == 0o604
    assert target.read_text(encoding="utf-8").startswith("{")
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]


# -- symlinks, FIFOs and devices ------------------------------------------------------------


def test_a_symlink_is_written_through_and_stays_a_link(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    real = tmp_path / "real" / "report.json"
    real.write_text("old", encoding="utf-8")
    real.chmod(0o600)
    link = tmp_path / "link.json"
    link.symlink_to(Path("real") / "report.json")
    assert runner.invoke(app, _check("--output", str(link))).exit_code == 0
    assert link.is_symlink()
    assert os.readlink(link) == "real/report.json"
    assert json.loads(real.read_text(encoding="utf-8"))["accepted"] is True
    assert stat.S_IMODE(real.stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.json", "real"]
    assert [p.name for p in (tmp_path / "real").iterdir()] == ["report.json"]


def test_a_dangling_symlink_creates_its_target(tmp_path: Path) -> None:
    link = tmp_path / "link.json"
    link.symlink_to("made.json")
    assert runner.invoke(app, _check("--output", str(link))).exit_code == 0
    assert link.is_symlink()
    assert json.loads((tmp_path / "made.json").read_text(encoding="utf-8"))["accepted"] is True


def test_a_fifo_is_written_into_not_replaced(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    completed = _process(*_check("--output", str(fifo)))
    reader.join(timeout=30)
    assert completed.returncode == 0, completed.stderr
    assert json.loads(received[0])["accepted"] is True
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["pipe"]


def test_a_device_is_written_into_not_replaced() -> None:
    before = os.stat("/dev/null")
    completed = _process(*_check("--output", "/dev/null"))
    assert (completed.returncode, completed.stdout, completed.stderr) == (0, "", "")
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode)
    assert (after.st_ino, after.st_rdev) == (before.st_ino, before.st_rdev)


# -- write failures -------------------------------------------------------------------------

# RLIMIT_FSIZE makes any write past the limit fail with EFBIG (SIGXFSZ ignored, as
# CPython does by default); the limit is set inside the child process only.
_FILE_SIZE_LIMIT = (
    "import resource, signal\n"
    "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
    "resource.setrlimit(resource.RLIMIT_FSIZE, (100, 100))\n"
)


def test_a_file_size_limit_is_exit_2_with_one_line_and_no_partial_file(tmp_path: Path) -> None:
    target = tmp_path / "report.json"
    target.write_text("old report", encoding="utf-8")
    for arguments in (
        _check("--output", str(target)),
        ["audit", str(SHIPPED), "--format", "json", "--output", str(target)],
        ["audit", str(SHIPPED), "--output", str(target)],
    ):
        completed = _process(*arguments, preexec=_FILE_SIZE_LIMIT)
        assert (completed.returncode, completed.stdout) == (2, "")
        assert completed.stderr == f"error: {target}: cannot write output: File too large\n"
        assert target.read_text(encoding="utf-8") == "old report"
        assert [p.name for p in tmp_path.iterdir()] == ["report.json"]


def test_a_full_disk_at_fsync_is_exit_2_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(handle: int) -> None:
        del handle
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    target = tmp_path / "report.json"
    result = runner.invoke(app, _check("--output", str(target)))
    assert (result.exit_code, result.stderr) == (
        2,
        f"error: {target}: cannot write output: No space left on device\n",
    )
    assert list(tmp_path.iterdir()) == []


def test_a_full_stdout_is_exit_2_naming_stdout() -> None:
    with open("/dev/full", "w", encoding="utf-8") as full:
        completed = subprocess.run(
            [sys.executable, "-m", "textcontract", *_check()],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
            timeout=60,
        )
    assert completed.returncode == 2
    assert completed.stderr == "error: <stdout>: cannot write output: No space left on device\n"


@pytest.mark.parametrize(
    "arguments",
    [
        pytest.param(["schema"], id="json"),
        pytest.param(_check()[:-2], id="text-through-rich"),
        pytest.param(["audit", str(SHIPPED)], id="audit-text"),
    ],
)
def test_a_closed_stdout_pipe_ends_quietly_with_141(arguments: list[str]) -> None:
    with subprocess.Popen(
        [sys.executable, "-m", "textcontract", *arguments],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as process:
        assert process.stdout is not None
        process.stdout.close()  # the reader is gone before anything is written: `| true`
        _, err = process.communicate(timeout=60)
    assert (process.returncode, err) == (141, b"")


def test_dev_stdout_redirected_to_a_file_is_written_into_not_replaced(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    target.write_text("", encoding="utf-8")
    inode = target.stat().st_ino
    with open(target, "a", encoding="utf-8") as stream:
        stream.write("first line\n")
        stream.flush()
        completed = subprocess.run(
            [sys.executable, "-m", "textcontract", *_check("--output", "/dev/stdout")],
            stdout=stream,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
            timeout=60,
        )
    assert (completed.returncode, completed.stderr) == (0, "")
    assert target.stat().st_ino == inode
    first, report = target.read_text(encoding="utf-8").split("\n", 1)
    assert first == "first line"
    assert json.loads(report)["accepted"] is True
