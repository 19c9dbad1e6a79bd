"""The speed targets of issue 15 that are not W1 or W2 (those are in run.py).

    python benchmarks/scale_targets.py --corpus ../corpus        # a few minutes
    python benchmarks/scale_targets.py --smoke                   # 60 documents, one pass

- ``rules``: 1,000 one-word ForbiddenPattern rules against one rule holding the same 1,000
  words, checking W1's documents (W1's surfaces) in one process, median of ``--repeat``
  passes each, the two contracts alternating; timed for ``check`` alone, then (one pass) for
  ``check`` and the report's JSONL line (1,000 rules make a report of 2,000 checks per
  document, one rule a report of 2).
  The words are W1's 50 and 950 rarer words of the corpus, so some of them match.
- ``cold``: ``textcontract check`` of one small document (fixtures/orders/order-1001.md,
  ``--format json``), process start to exit, with a contract of one ForbiddenPattern rule of
  5,000 ``\\bword\\b`` patterns against the same rule with one pattern; bytecode cached, two
  warm-up runs, runs alternating, median of ``--cold-runs``.
- ``jobs``: ``textcontract check --batch`` of W1 (benchmarks/out/w1-batch.jsonl, the file
  check_formats.py writes) ``--format jsonl`` with ``--jobs 1`` and ``--jobs 2``,
  alternating, median of ``--repeat``; the two outputs compared byte for byte.

Figures are printed and written to benchmarks/out/results-scale.json.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import regex

if __package__ in (None, ""):  # run as a script: make `benchmarks` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import _cold, _corpus
from benchmarks._common import OUT, W1_CONTRACT, median, run_child, table, words
from benchmarks._scaling import _rare_words
from benchmarks._w1 import TITLE_CHARS, W1_HISTORY, W1_STATE
from benchmarks.check_formats import write_batch

_WORD = regex.compile(r"\b[a-z]{4,}\b")


def _contract(rules: list[dict[str, Any]], name: str) -> str:
    return json.dumps({"textcontract": 1, "id": name, "version": 1, "rules": rules})


def one_word_rules(chosen: Sequence[str]) -> str:
    rules = [
        {"id": f"no-{index:04d}", "type": "ForbiddenPattern", "patterns": [rf"\b{word}\b"]}
        for index, word in enumerate(chosen)
    ]
    return _contract(rules, "one-word-rules")


def one_rule(chosen: Sequence[str]) -> str:
    rule = {"id": "no-words", "type": "ForbiddenPattern", "patterns": [rf"\b{w}\b" for w in chosen]}
    return _contract([rule], "one-rule")


def _pass(contract: Any, texts: Sequence[str], serialize: bool) -> float:
    from textcontract import Context, Document, Surface

    context = Context.from_json({"states": {"current": W1_STATE}, "history": W1_HISTORY})
    claims = {"order.total": 19.99}
    started = time.perf_counter()
    for text in texts:
        document = Document(
            (Surface("title", text[:TITLE_CHARS]), Surface("body", text, claims=claims))
        )
        report = contract.check(document, context)
        if serialize:
            report.to_json(indent=None)  # the line `--format jsonl` writes
    return time.perf_counter() - started


def section_rules(files: Sequence[Path], repeat: int) -> dict[str, Any]:
    import textcontract

    texts = [path.read_text(encoding="utf-8") for path in files]
    base = words()
    chosen = base + _rare_words(texts, 1000 - len(base), set(base))
    contracts = {
        "1,000 one-word rules": textcontract.load_contract_text(one_word_rules(chosen)),
        "one rule of 1,000 words": textcontract.load_contract_text(one_rule(chosen)),
    }
    results: dict[str, Any] = {"docs": len(texts), "words": len(chosen)}
    for serialize in (False, True):
        label = "check + JSONL line" if serialize else "check"
        runs: dict[str, list[float]] = {name: [] for name in contracts}
        for contract in contracts.values():  # warm-up: builds the prefilters
            _pass(contract, texts[:20], serialize)
        for _ in range(1 if serialize else repeat):
            for name, contract in contracts.items():
                runs[name].append(_pass(contract, texts, serialize))
        many, one = (median(runs[name]) for name in contracts)
        results[label] = {"runs": runs, "ratio": many / one}
    violated = {
        name: sum(
            1
            for text in texts
            if not contract.check(
                textcontract.Document.from_text(text), textcontract.Context.from_json({})
            ).accepted
        )
        for name, contract in contracts.items()
    }
    results["rejected"] = violated
    return results


def print_rules(results: dict[str, Any]) -> None:
    print(f"\n## {results['words']:,} words as one-word rules or one rule, {results['docs']} docs")
    rows = []
    for label in ("check", "check + JSONL line"):
        for name, runs in results[label]["runs"].items():
            rows.append([label, name, f"{median(runs):.2f} s", ", ".join(f"{r:.2f}" for r in runs)])
    print(table(["timed", "contract", "median", "runs"], rows))
    print(f"1,000 rules / one rule, check: {results['check']['ratio']:.2f} (target <= 2)")
    print(f"1,000 rules / one rule, check + JSONL: {results['check + JSONL line']['ratio']:.2f}")
    print(f"documents rejected (body only): {results['rejected']}")


def _many_words(files: Sequence[Path], count: int) -> list[str]:
    counts: collections.Counter[str] = collections.Counter()
    for path in files:
        counts.update(_WORD.findall(path.read_text(encoding="utf-8").lower()))
    found = [word for word, _ in counts.most_common(count)]
    return found + [f"zzq{index:05d}word" for index in range(count - len(found))]


def section_cold(files: Sequence[Path], runs: int) -> dict[str, Any]:
    chosen = _many_words(files, 5000)
    folder = OUT / "cold-patterns"
    folder.mkdir(parents=True, exist_ok=True)
    contracts = {
        "1 pattern": folder / "one-pattern.yaml",
        "5,000 patterns": folder / "5000-patterns.yaml",
    }
    contracts["1 pattern"].write_text(one_rule(chosen[:1]), encoding="utf-8")
    contracts["5,000 patterns"].write_text(one_rule(chosen), encoding="utf-8")
    env = _cold.cold_environment()
    head = _cold.textcontract_command()
    position = head.index("--contract")
    commands = {
        name: [*head[: position + 1], str(path), *head[position + 2 :]]
        for name, path in contracts.items()
    }
    times: dict[str, list[float]] = {name: [] for name in commands}
    exits: dict[str, int] = {}
    for attempt in range(runs + 2):
        for name, command in commands.items():
            finished = run_child(command, env=env, stdout_to_null=True)
            exits[name] = finished.returncode
            if attempt >= 2:  # two warm-up runs write the bytecode cache
                times[name].append(finished.seconds * 1000)
    results: dict[str, Any] = {
        name: {"runs_ms": times[name], "median_ms": median(times[name]), "exit": exits[name]}
        for name in commands
    }
    results["added_ms"] = results["5,000 patterns"]["median_ms"] - results["1 pattern"]["median_ms"]
    return results


def print_cold(results: dict[str, Any]) -> None:
    print("\n## Cold check of one document: one rule of 5,000 patterns vs 1 pattern")
    rows = [
        [name, f"{r['median_ms']:.0f} ms", f"{min(r['runs_ms']):.0f} ms", r["exit"]]
        for name, r in results.items()
        if isinstance(r, dict)
    ]
    print(table(["contract", "median", "min", "exit"], rows))
    print(f"added by 5,000 patterns: {results['added_ms']:.0f} ms (target < 1,000 ms)")


def _batch_run(batch: Path, jobs: int) -> tuple[float, float, str]:
    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / "out.jsonl"
        script = Path(sys.executable).parent / "textcontract"
        command = [
            str(script), "check", "--batch", str(batch), "--contract", str(W1_CONTRACT),
            "--format", "jsonl", "--output", str(target), "--jobs", str(jobs),
        ]  # fmt: skip
        finished = run_child(command)
        if finished.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(command)} failed:\n{finished.stderr}")
        return finished.seconds, finished.cpu_seconds, target.read_text(encoding="utf-8")


def section_jobs(files: Sequence[Path], repeat: int) -> dict[str, Any]:
    batch = OUT / "w1-batch.jsonl"
    write_batch([str(path) for path in files], batch)
    wall: dict[int, list[float]] = {1: [], 2: []}
    cpu: dict[int, list[float]] = {1: [], 2: []}
    outputs: dict[int, str] = {}
    for _ in range(repeat):
        for jobs in (1, 2):
            seconds, used, outputs[jobs] = _batch_run(batch, jobs)
            wall[jobs].append(seconds)
            cpu[jobs].append(used)
    return {
        "docs": len(files),
        "wall": wall,
        "cpu": cpu,
        "speedup": median(wall[1]) / median(wall[2]),
        "same_bytes": outputs[1] == outputs[2],
    }


def print_jobs(results: dict[str, Any]) -> None:
    print(f"\n## check --batch of W1 ({results['docs']} documents) --format jsonl")
    rows = [
        [
            f"--jobs {jobs}",
            f"{median(results['wall'][jobs]):.2f} s",
            ", ".join(f"{r:.2f}" for r in results["wall"][jobs]),
            f"{median(results['cpu'][jobs]):.2f} s",
        ]
        for jobs in (1, 2)
    ]
    print(table(["run", "median wall", "runs", "CPU (median)"], rows))
    print(f"--jobs 2 speed-up: {results['speedup']:.2f}x (target >= 1.7 on an idle machine)")
    print(f"same bytes: {results['same_bytes']}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--corpus", type=Path, default=None)
    parser.add_argument("--only", default="rules,cold,jobs")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cold-runs", type=int, default=9)
    parser.add_argument("--smoke", action="store_true", help="60 documents, one pass")
    arguments = parser.parse_args(argv)
    corpus = _corpus.find_corpus(arguments.corpus)
    if corpus is None:
        files = _corpus.synthetic_corpus(OUT / "synthetic", 60)
    else:
        files = _corpus.corpus_files(corpus)
    if arguments.smoke:
        files = _corpus.spread_slice(files, 60)
    repeat = 1 if arguments.smoke else arguments.repeat
    OUT.mkdir(exist_ok=True)
    results: dict[str, Any] = {}
    sections = arguments.only.split(",")
    if "rules" in sections:
        results["rules"] = section_rules(files, repeat)
        print_rules(results["rules"])
    if "cold" in sections:
        results["cold"] = section_cold(files, 3 if arguments.smoke else arguments.cold_runs)
        print_cold(results["cold"])
    if "jobs" in sections:
        results["jobs"] = section_jobs(files, repeat)
        print_jobs(results["jobs"])
    (OUT / "results-scale.json").write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
