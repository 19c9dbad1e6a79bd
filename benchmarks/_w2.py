"""Workload W2: one ForbiddenPattern rule of W1's 50 words over W1's files, whole CLI runs.

``textcontract check CORPUS --contract w2.yaml --format jsonl`` (every ``*.txt`` file of the
corpus is one document with one ``body`` surface), against **the W2 floor**
(``benchmarks/floor_w2.py``: one Python process that reads the files, builds both SPEC §4
profiles with the standard library and searches with an RE2 literal set and ``regex``), and
against ripgrep and GNU grep searching the same files for the same words, case-insensitive,
whole words (SPEC §16: ``rg -wi -f words``). Each tool runs as a fresh process, process start
to exit, stdout into a file, with bytecode cached as after ``pip install`` (one warm-up run
each first); the tools alternate, ``repeat`` times, and medians of wall and CPU time (user +
system) are reported.

Hit counts: the documents textcontract rejects, the floor's documents with a hit, and the
files rg and grep name with ``-l``, counted in one more (untimed) run each. The floor's
per-document match counts must equal textcontract's ``matches`` (the run stops otherwise);
rg and grep need not agree: textcontract matches the words on NFKC-casefolded,
accent-folded text (``TRÈS`` folds to ``tres``), they on the bytes with their own case
rules, so their counts are printed side by side.
"""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks._cold import cold_environment
from benchmarks._common import HERE, OUT, WORDS, median, run_child, words

FLOOR = HERE / "floor_w2.py"


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


def floor_command(corpus: Path) -> list[str]:
    return [sys.executable, str(FLOOR), str(corpus), str(WORDS)]


def _rejected(jsonl: str) -> int:
    count = 0
    for line in jsonl.splitlines():
        report = json.loads(line)
        if any(check["status"] == "violated" for check in report["checks"]):
            count += 1
    return count


def textcontract_matches(jsonl: str) -> dict[str, int]:
    """Each document's pattern matches, as textcontract reports them (by source)."""
    found: dict[str, int] = {}
    for line in jsonl.splitlines():
        report = json.loads(line)
        found[report["source"]] = sum(c["metrics"].get("matches", 0) for c in report["checks"])
    return found


def floor_matches(output: str) -> dict[str, int]:
    """Each document's matches as the floor prints them (``HITS<TAB>PATH`` lines)."""
    found: dict[str, int] = {}
    for line in output.splitlines():
        hits, path = line.split("\t", 1)
        found[path] = int(hits)
    return found


def check_same_matches(textcontract: dict[str, int], floor: dict[str, int]) -> None:
    """Stop unless the floor found what textcontract found, document by document."""
    if textcontract == floor:
        return
    differ = sorted(
        path
        for path in textcontract.keys() | floor.keys()
        if textcontract.get(path) != floor.get(path)
    )
    shown = ", ".join(f"{p}: {textcontract.get(p)} vs {floor.get(p)}" for p in differ[:5])
    raise SystemExit(
        f"W2: the floor's matches differ from textcontract's in {len(differ)} "
        f"documents (textcontract vs floor): {shown}"
    )


def _listed(command: list[str]) -> int:
    """Files a peer names with ``-l`` added (its hit count)."""
    finished = run_child([command[0], "-l", *command[1:]])
    return len([line for line in finished.stdout.splitlines() if line])


def measure(corpus: Path, files: Sequence[Path], repeat: int) -> dict[str, Any]:
    contract = write_contract(OUT / "w2-contract.yaml")
    commands = {
        "textcontract": textcontract_command(corpus, contract),
        "floor": floor_command(corpus),
        **peer_commands(corpus),
    }
    runs: dict[str, list[float]] = {name: [] for name in commands}
    cpu: dict[str, list[float]] = {name: [] for name in commands}
    outputs: dict[str, str] = {}
    env = cold_environment()  # bytecode cached, as after pip install
    for command in commands.values():  # warm-up: bytecode caches, page cache
        run_child(command, env=env, stdout_to_null=True)
    for _ in range(repeat):
        for name, command in commands.items():
            finished = run_child(command, env=env)
            if finished.returncode not in (0, 1):  # 1: a rejection, or no match for the peers
                raise SystemExit(f"{' '.join(command)} failed:\n{finished.stderr}")
            runs[name].append(finished.seconds)
            cpu[name].append(finished.cpu_seconds)
            outputs[name] = finished.stdout
    matches = textcontract_matches(outputs["textcontract"])
    floor = floor_matches(outputs["floor"])
    check_same_matches(matches, floor)
    results: dict[str, Any] = {
        "docs": len(files),
        "reports": len(matches),
        "matches": sum(matches.values()),
    }
    for name, command in commands.items():
        if name == "textcontract":
            hits = _rejected(outputs[name])
        elif name == "floor":
            hits = sum(1 for count in floor.values() if count)
        else:
            hits = _listed(command)
        results[name] = {
            "runs": runs[name],
            "median_s": median(runs[name]),
            "cpu_runs": cpu[name],
            "median_cpu_s": median(cpu[name]),
            "hits": hits,
        }
    for name in commands:
        if name != "textcontract":
            mine, theirs = results["textcontract"], results[name]
            results[f"vs_{name}"] = mine["median_s"] / theirs["median_s"]
            results[f"cpu_vs_{name}"] = mine["median_cpu_s"] / theirs["median_cpu_s"]
    return results
