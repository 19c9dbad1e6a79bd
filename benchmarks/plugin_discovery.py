"""What finding rule plugins costs a cold start, with and without ``importlib.metadata``.

    python benchmarks/plugin_discovery.py [--runs 40]

Each variant runs in a fresh interpreter (bytecode cached, as after ``pip install``),
alternating, and the medians are printed:

- ``python``: an empty interpreter, the floor;
- ``builtins``: the registry of the built-in rule types only, no plugin lookup at all;
- ``default_registry``: the registry as shipped — the ``entry_points.txt`` pre-check of
  ``textcontract/_plugins.py`` (shared with the operators), then ``importlib.metadata`` only
  if it could matter;
- ``entry_points``: the built-ins plus ``importlib.metadata.entry_points(group=...)``
  asked every time, as a registry without the pre-check would;
- ``check``: ``textcontract check`` of the orders fixture, ``--format json``.

docs/performance.md records what each lookup adds to a cold ``check``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make `benchmarks` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._cold import cold_environment, textcontract_command
from benchmarks._common import median

_BUILTINS = (
    "from textcontract.rules import BUILTIN_TYPES, Registry; "
    "Registry(('builtin', t) for t in BUILTIN_TYPES)"
)
_SHIPPED = "from textcontract.rules import default_registry; default_registry()"
_ENTRY_POINTS = (
    _BUILTINS + "; from importlib.metadata import entry_points; "
    "list(entry_points(group='textcontract.rules'))"
)


def _variants() -> dict[str, list[str]]:
    python = [sys.executable, "-c"]
    return {
        "python": [*python, "pass"],
        "builtins": [*python, _BUILTINS],
        "default_registry": [*python, _SHIPPED],
        "entry_points": [*python, _ENTRY_POINTS],
        "check": textcontract_command(),
    }


def _seconds(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, env=env, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40)
    runs = parser.parse_args().runs
    env = cold_environment()
    variants = _variants()
    for command in variants.values():  # warm-up: compile and cache the bytecode
        _seconds(command, env)
    times: dict[str, list[float]] = {name: [] for name in variants}
    for _ in range(runs):
        for name, command in variants.items():
            times[name].append(_seconds(command, env))
    medians = {name: median(values) * 1000 for name, values in times.items()}
    for name, value in medians.items():
        print(f"{name:>16}: {value:7.1f} ms (median of {runs})")
    for name in ("default_registry", "entry_points"):
        extra = medians[name] - medians["builtins"]
        share = extra / medians["check"] * 100
        print(f"{name} adds {extra:.1f} ms to the built-ins, {share:.1f}% of a cold check")


if __name__ == "__main__":
    main()
