"""Workload W2: one ForbiddenPattern rule of W1's 50 words over W1's files, whole CLI runs.

``textcontract check CORPUS --contract w2.yaml --format jsonl`` (every ``*.txt`` file of the
corpus is one document with one ``body`` surface), against ripgrep and GNU grep searching
the same files for the same words, case-insensitive, whole words (SPEC §16: ``rg -wi -f
words``). Each tool runs as a fresh process, process start to exit, stdout into a file; the
tools alternate, ``repeat`` times, and medians are reported.

Hit counts: the documents textcontract rejects, and the files rg and grep name with
``-l``, counted in one more (untimed) run each. They need not be equal: textcontract
matches the words on NFKC-casefolded, accent-folded text (``TRÈS`` folds to ``tres``), the
others on the bytes with their own case rules, so their counts are printed side by side.
"""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks._common import OUT, WORDS, median, run_child, words


def write_contract(target: Path) -> Path:
    """The W2 contract: one rule, W1's 50 words as ``\\bword\\b``, every surface."""
    rule = {"id": "hedges", "type": "ForbiddenPattern", "patterns": [rf"\b{w}\b" for w in words()]}
    contract = {"textcontract": 1, "id": "w2", "version": 1, "rules": [rule]}
    target.write_text(json.dumps(contract, indent=1) + "\n", encoding="utf-8")  # JSON is YAML
    return target


def textcontract_command(corpus: Path, contract: Path) -> list[str]:
    script = Path(sys.executable).parent / "textcontract"
    head = [str(script)] if script.exists() else [sys.executable, "-m", "textcontract"]
    return [*head, "check", str(corpus), "--contract", str(contract), "--format", "jsonl"]


def peer_commands(corpus: Path) -> dict[str, list[str]]:
    """The installed peers and their W2 commands (rg as SPEC §16 words it)."""
    commands: dict[str, list[str]] = {}
    if shutil.which("rg"):
        commands["rg"] = ["rg", "-wi", "-f", str(WORDS), "-g", "*.txt", str(corpus)]
    if shutil.which("grep"):
        commands["grep"] = ["grep", "-rwi", "-f", str(WORDS), "--include=*.txt", str(corpus)]
    return commands


def _rejected(jsonl: str) -> int:
    count = 0
    for line in jsonl.splitlines():
        report = json.loads(line)
        if any(check["status"] == "violated" for check in report["checks"]):
            count += 1
    return count


def _listed(command: list[str]) -> int:
    """Files a peer names with ``-l`` added (its hit count)."""
    finished = run_child([command[0], "-l", *command[1:]])
    return len([line for line in finished.stdout.splitlines() if line])


def measure(corpus: Path, files: Sequence[Path], repeat: int) -> dict[str, Any]:
    contract = write_contract(OUT / "w2-contract.yaml")
    commands = {"textcontract": textcontract_command(corpus, contract), **peer_commands(corpus)}
    runs: dict[str, list[float]] = {name: [] for name in commands}
    output = ""
    for _ in range(repeat):
        for name, command in commands.items():
            finished = run_child(command)
            if finished.returncode not in (0, 1):  # 1: a rejection, or no match for the peers
                raise SystemExit(f"{' '.join(command)} failed:\n{finished.stderr}")
            runs[name].append(finished.seconds)
            if name == "textcontract":
                output = finished.stdout
    reports = output.count("\n")
    results: dict[str, Any] = {"docs": len(files), "reports": reports}
    for name, command in commands.items():
        hits = _rejected(output) if name == "textcontract" else _listed(command)
        results[name] = {"runs": runs[name], "median_s": median(runs[name]), "hits": hits}
    for name in commands:
        if name != "textcontract":
            results[f"vs_{name}"] = results["textcontract"]["median_s"] / results[name]["median_s"]
    return results
