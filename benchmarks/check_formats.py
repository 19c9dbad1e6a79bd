"""What each output format of ``check`` costs on workload W1 run as one batch (SPEC §11).

    python benchmarks/check_formats.py --corpus ../corpus          # about a minute
    python benchmarks/check_formats.py --smoke                     # 60 documents, for CI

The corpus becomes one batch file (``benchmarks/out/w1-batch.jsonl``): a line per W1
document, with W1's surfaces, claim and context (``benchmarks/_w1.py``). Then
``textcontract check --batch FILE --contract benchmarks/w1-contract.yaml --format F``
runs as a fresh process for each format, stdout into a file (a pipe for the text
format's point of view: plain wrapped lines), the formats alternating, ``--repeat``
times; printed are the median wall time, its ratio to ``jsonl`` (SPEC: text at most
1.25×) and peak RSS. ``--jobs 2`` is timed too, and its output compared with ``--jobs 1``.

``--inputs files`` gives the same documents as one JSON file each on the command line with
one ``--context`` (what 0.1 could run: ``--textcontract`` may name any version's script).
"""

from __future__ import annotations

import argparse
import json
import shlex
import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make `benchmarks` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import _corpus
from benchmarks._common import OUT, W1_CONTRACT, median, run_child, table
from benchmarks._w1 import TITLE_CHARS, W1_HISTORY, W1_STATE

FORMATS = ("jsonl", "json", "text", "sarif", "junit", "github")


def write_batch(files: Sequence[str], target: Path) -> int:
    """W1's documents as batch lines; returns the number of bytes written."""
    context = {"states": {"current": W1_STATE}, "history": W1_HISTORY}
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("w", encoding="utf-8") as out:
        for path in files:
            text = Path(path).read_text(encoding="utf-8")
            document = {
                "surfaces": {
                    "title": text[:TITLE_CHARS],
                    "body": {"text": text, "claims": {"order.total": 19.99}},
                }
            }
            line = {"id": path, "document": document, "context": context}
            out.write(json.dumps(line, ensure_ascii=False) + "\n")
    return target.stat().st_size


def write_files(files: Sequence[str], folder: Path) -> list[str]:
    """W1's documents as JSON document files, and their one context: the arguments."""
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    context = folder / "w1.context-for-all.json"
    context.write_text(json.dumps({"states": {"current": W1_STATE}, "history": W1_HISTORY}))
    arguments = ["--context", str(context)]
    for index, path in enumerate(files):
        text = Path(path).read_text(encoding="utf-8")
        surfaces = {
            "title": text[:TITLE_CHARS],
            "body": {"text": text, "claims": {"order.total": 19.99}},
        }
        target = folder / f"{index:05d}.json"
        target.write_text(json.dumps({"surfaces": surfaces}, ensure_ascii=False), encoding="utf-8")
        arguments.append(str(target))
    return arguments


def _run(
    textcontract: str, inputs: Sequence[str], output_format: str, jobs: int = 1
) -> tuple[float, float, int, str]:
    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / "out"
        command = [
            *shlex.split(textcontract), "check", *inputs, "--contract", str(W1_CONTRACT),
            "--format", output_format, "--output", str(target),
        ]  # fmt: skip
        if jobs != 1:
            command += ["--jobs", str(jobs)]
        finished = run_child(command)
        if finished.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(command)} failed:\n{finished.stderr}")
        output = target.read_text(encoding="utf-8")
        return finished.seconds, finished.cpu_seconds, finished.peak_rss_kib, output


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=None)
    parser.add_argument(
        "--textcontract",
        default=str(Path(sys.executable).parent / "textcontract"),
        help="the command to run (split as a shell would)",
    )
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--formats", default=",".join(FORMATS))
    parser.add_argument("--smoke", action="store_true", help="60 documents, one pass")
    parser.add_argument("--inputs", choices=("batch", "files"), default="batch")
    parser.add_argument("--no-jobs", action="store_true", help="skip the --jobs 2 run")
    arguments = parser.parse_args(argv)
    corpus = _corpus.find_corpus(arguments.corpus)
    if corpus is None:
        found = _corpus.synthetic_corpus(OUT / "synthetic", 60)
    else:
        found = _corpus.corpus_files(corpus)
    files = [str(path) for path in (_corpus.spread_slice(found, 60) if arguments.smoke else found)]
    repeat = 1 if arguments.smoke else arguments.repeat
    batch = OUT / "w1-batch.jsonl"
    size = write_batch(files, batch)
    inputs = ["--batch", str(batch)]
    if arguments.inputs == "files":
        inputs = write_files(files, OUT / "w1-files")
    formats = arguments.formats.split(",")
    times: dict[str, list[float]] = {name: [] for name in formats}
    cpu: dict[str, list[float]] = {name: [] for name in formats}
    peaks: dict[str, int] = {}
    outputs: dict[str, str] = {}
    for _ in range(repeat):
        for name in formats:
            seconds, used, peak, outputs[name] = _run(arguments.textcontract, inputs, name)
            times[name].append(seconds)
            cpu[name].append(used)
            peaks[name] = max(peaks.get(name, 0), peak)
    base, base_cpu = median(times[formats[0]]), median(cpu[formats[0]])
    rows = [
        [name, f"{median(times[name]):.2f} s", f"{median(times[name]) / base:.2f}×",
         f"{median(cpu[name]):.2f} s", f"{median(cpu[name]) / base_cpu:.2f}×",
         f"{peaks[name] / 1024:.0f} MiB"]
        for name in formats
    ]  # fmt: skip
    print(f"W1 as {arguments.inputs}: {len(files)} documents, {size / 1e6:.1f} MB, {repeat} passes")
    headers = ["format", "wall", f"vs {formats[0]}", "CPU", f"vs {formats[0]}", "peak RSS"]
    print(table(headers, rows))
    results: dict[str, object] = {
        name: {"seconds": times[name], "cpu_seconds": cpu[name], "peak_kib": peaks[name]}
        for name in formats
    }
    same = True
    if not arguments.no_jobs:
        two, two_cpu, _, parallel = _run(arguments.textcontract, inputs, formats[0], jobs=2)
        same = parallel == outputs[formats[0]]
        print(
            f"--jobs 2, {formats[0]}: {two:.2f} s wall ({base / two:.2f}× faster), "
            f"{two_cpu:.2f} s CPU; same bytes as --jobs 1: {same}"
        )
        results["jobs2"] = {"seconds": two, "cpu_seconds": two_cpu, "same_bytes": same}
    OUT.mkdir(exist_ok=True)
    (OUT / "results-check-formats.json").write_text(json.dumps(results, indent=2) + "\n")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
