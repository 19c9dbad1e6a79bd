"""Shared plumbing: paths, child processes with their peak memory, medians, tables."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = HERE / "out"  # ignored by git
W1_CONTRACT = HERE / "w1-contract.yaml"
WORDS = HERE / "words.txt"
RUN = HERE / "run.py"


def words() -> list[str]:
    return [w.strip() for w in WORDS.read_text(encoding="utf-8").splitlines() if w.strip()]


def median(values: Sequence[float]) -> float:
    return statistics.median(values)


@dataclass(frozen=True)
class Finished:
    """A child process that ran to its end: what it printed, how long, how much memory."""

    stdout: str
    stderr: str
    returncode: int
    seconds: float
    peak_rss_kib: int
    cpu_seconds: float = 0.0
    """User and system time of the process and the children it waited for."""

    def json_line(self) -> dict[str, Any]:
        """The last line of stdout, read as a JSON object (what workers report)."""
        if self.returncode != 0:
            raise RuntimeError(f"worker failed ({self.returncode}):\n{self.stderr}")
        line = self.stdout.strip().splitlines()[-1]
        loaded = json.loads(line)
        assert isinstance(loaded, dict)
        return loaded


# Launches the measured command and reports its wall time and peak RSS. The launcher is a
# small interpreter (no site, no imports beyond os/sys/time/json): a process's ru_maxrss
# starts at the high-water mark of the process it was forked from, so forking the command
# straight from this (larger) benchmark process would report this process's size.
_LAUNCHER = """
import json, os, sys, time
report, command = sys.argv[1], sys.argv[2:]
started = time.perf_counter()
pid = os.fork()
if pid == 0:
    try:
        os.execvp(command[0], command)
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
seconds = time.perf_counter() - started
code = os.waitstatus_to_exitcode(status)
with open(report, "w") as stream:
    cpu = usage.ru_utime + usage.ru_stime
    json.dump({"seconds": seconds, "cpu": cpu, "maxrss": usage.ru_maxrss, "code": code}, stream)
sys.exit(code if 0 <= code < 256 else 1)
"""


def run_child(
    command: Sequence[str | Path],
    *,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    stdout_to_null: bool = False,
) -> Finished:
    """Run ``command`` to completion: its output, wall time (fork to exit) and peak RSS."""
    with (
        tempfile.TemporaryFile("w+") as out,
        tempfile.TemporaryFile("w+") as err,
        tempfile.NamedTemporaryFile("r", suffix=".json") as report,
    ):
        subprocess.run(
            [sys.executable, "-I", "-S", "-c", _LAUNCHER, report.name, *map(str, command)],
            stdout=subprocess.DEVNULL if stdout_to_null else out,
            stderr=err,
            env=dict(env) if env is not None else None,
            cwd=cwd,
            check=False,
        )
        measured = json.loads(Path(report.name).read_text(encoding="utf-8"))
        out.seek(0)
        err.seek(0)
        return Finished(
            out.read(),
            err.read(),
            int(measured["code"]),
            float(measured["seconds"]),
            int(measured["maxrss"]),
            float(measured.get("cpu", 0.0)),
        )


def worker(
    name: str,
    arguments: Mapping[str, Any],
    python: str | Path | None = None,
    env: Mapping[str, str] | None = None,
) -> Finished:
    """Run one of run.py's workers in a fresh interpreter."""
    interpreter = str(python or sys.executable)
    return run_child([interpreter, RUN, "worker", name, json.dumps(dict(arguments))], env=env)


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A plain text table (also valid Markdown)."""
    cells = [[str(cell) for cell in row] for row in rows]
    widths = [max(len(h), *(len(r[i]) for r in cells)) for i, h in enumerate(headers)]

    def line(values: Sequence[str]) -> str:
        return "| " + " | ".join(v.ljust(w) for v, w in zip(values, widths, strict=True)) + " |"

    rule = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    return "\n".join([line(headers), rule, *(line(r) for r in cells)])


def mib(kib: int) -> str:
    return f"{kib / 1024:.0f} MiB"
