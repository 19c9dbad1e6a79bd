"""Hostile batches, as real processes meet them (SPEC §22): a device named as the batch,
``/dev/zero`` and endless pipes on standard input or a process substitution, and a copy of
a piped batch that cannot be written (a real ``ulimit -f``, a full tmpfs). Each ends with
exit 2 and one line, within seconds, with nothing left in the temporary folder."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONTRACT = str(ROOT / "fixtures" / "orders" / "textcontract.yaml")
_STOPPED = (
    "a batch read from a pipe or standard input is held to the input size cap of {cap} as a "
    "whole, and this line passes it (set TEXTCONTRACT_MAX_INPUT_BYTES to raise it, or pass "
    "the batch as a regular file)"
)
_NO_COPY = (
    "cannot copy the batch to a temporary file: {reason} (pass the batch as a regular file, "
    "which is not copied, or set TMPDIR to a folder with room)"
)

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux devices")


def _check(
    batch: str,
    temporary: Path,
    *,
    stdin: int | None = None,
    data: bytes | None = None,
    shell: str | None = None,
    cap: str | None = None,
) -> tuple[int, str]:
    """``check --batch BATCH`` in a real process, its temporary folder ``temporary``;
    ``shell`` runs it under bash (``ulimit``, process substitution) with that prefix."""
    env = {**os.environ, "TMPDIR": str(temporary)}
    env.pop("TEXTCONTRACT_MAX_INPUT_BYTES", None)
    if cap is not None:
        env["TEXTCONTRACT_MAX_INPUT_BYTES"] = cap
    command = [sys.executable, "-m", "textcontract", "check", "--batch", batch, "-c", CONTRACT]
    if shell is not None:
        command = ["bash", "-c", f"{shell} exec {' '.join(command[:5])} {batch} -c {CONTRACT}"]
    completed = subprocess.run(
        command,
        stdin=stdin,
        input=data,
        capture_output=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert completed.returncode != 2 or completed.stdout == b""
    assert list(temporary.iterdir()) == []  # the copy is never left behind
    return completed.returncode, completed.stderr.decode()


def _cases(count: int) -> bytes:
    line = {"id": "", "document": "Your order #1001 has shipped. " * 8}
    return b"".join(
        json.dumps({**line, "id": f"c{index:05d}"}).encode() + b"\n" for index in range(count)
    )


def test_a_device_named_as_the_batch_is_refused_unopened(tmp_path: Path) -> None:
    assert _check("/dev/zero", tmp_path) == (
        2,
        "error: /dev/zero: cannot read file: it is a device, not a regular file\n",
    )


def test_dev_zero_on_standard_input_stops_at_the_cap(tmp_path: Path) -> None:
    with open("/dev/zero", "rb") as zero:
        code, err = _check("-", tmp_path, stdin=zero.fileno())
    assert (code, err) == (2, f"error: <stdin>:1: {_STOPPED.format(cap='64 MiB')}\n")


def test_an_endless_process_substitution_stops_at_the_cap(tmp_path: Path) -> None:
    code, err = _check("<(yes | tr -d '\\n')", tmp_path, shell="set -o pipefail;", cap="1M")
    assert code == 2
    assert re.fullmatch(rf"error: /dev/fd/\d+:1: {re.escape(_STOPPED.format(cap='1 MiB'))}\n", err)


def test_a_copy_past_the_file_size_limit_is_exit_2_with_one_line(tmp_path: Path) -> None:
    """A real ``ulimit -f``: the copy's writes fail with EFBIG (Python ignores SIGXFSZ)."""
    code, err = _check("-", tmp_path, data=_cases(2000), shell="ulimit -f 64;")
    assert code == 2
    reason = re.escape(_NO_COPY.format(reason="File too large"))
    assert re.fullmatch(rf"error: <stdin>:\d+: {reason}\n", err), err


@pytest.fixture
def small_tmpfs(tmp_path: Path) -> Iterator[Path]:
    """A 256 KiB tmpfs, where this machine lets the tests mount one (root, CAP_SYS_ADMIN)."""
    folder = tmp_path / "tmpfs"
    folder.mkdir()
    mount = shutil.which("mount")
    if mount is None or os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root and mount(8)")
    mounted = subprocess.run(
        [mount, "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(folder)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=True)


def test_a_copy_on_a_full_tmpfs_is_exit_2_with_one_line(small_tmpfs: Path) -> None:
    code, err = _check("-", small_tmpfs, data=_cases(2000))
    assert code == 2
    reason = re.escape(_NO_COPY.format(reason="No space left on device"))
    assert re.fullmatch(rf"error: <stdin>:\d+: {reason}\n", err), err


def test_a_piped_batch_within_the_limits_is_checked(tmp_path: Path) -> None:
    code, err = _check("-", tmp_path, data=_cases(40), shell="ulimit -f 64;")
    assert (code, err) == (1, "")  # checked (the document lacks what the contract asks)


def test_endless_bad_lines_are_read_no_further_than_a_thousand(tmp_path: Path) -> None:
    code, err = _check("<(yes)", tmp_path, shell="")
    lines = err.splitlines()
    assert code == 2
    assert len(lines) == 1001
    assert re.fullmatch(r"error: /dev/fd/\d+:1:1: invalid JSON: Expecting value", lines[0])
    assert lines[-1].endswith(
        ": the batch was read no further after 1000 refused lines (fix these and run again)"
    )
