"""Benchmarks of textcontract, run side by side with the Python floor and the peer.

    python benchmarks/run.py --corpus ../corpus              # W1, cold start, scaling
    python benchmarks/run.py --corpus ../corpus --only audit --audit-memory
    python benchmarks/run.py --smoke                         # CI: a small slice, < 1 minute

Sections (``--only`` picks some, comma-separated):
- ``w1``: workload W1 through textcontract, the floor and — when a Python with mateprobe is
  given (``--peer-python``) or found — the peer, each in its own process, medians of
  ``--repeat`` passes; docs/s, MB/s, the ratios and each process's peak RSS;
- ``w2``: workload W2 (issue 15): one 50-word ForbiddenPattern rule over W1's files, whole
  ``textcontract check CORPUS --format jsonl`` runs beside the W2 floor (``floor_w2.py``,
  issue 28: its per-document matches must equal textcontract's) and ripgrep and grep when
  installed (``rg -wi -f words``), medians of ``--repeat`` alternating runs, wall and CPU;
- ``cold``: ``textcontract check`` of one small document, process start to exit, against
  the peer's CLI on the same document;
- ``help``: ``textcontract --help`` and every command's ``-h``, process start to exit;
- ``scaling``: cost against document size, rule count, pattern count and corpus size;
- ``audit``: a generated corpus of ``--audit-variants`` variants of W1 documents, audited
  with ``--jobs 1`` and ``--jobs 2``, against plain checks of the same trials; with
  ``--audit-memory``, peak memory of a 100,000-variant against a 1,000-variant audit.

``--smoke`` runs every section on a slice (60 corpus documents, or synthetic multilingual
documents built from the fixtures when there is no corpus) and asserts nothing about
time. Results are printed and written to benchmarks/out/results-<sections>.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make `benchmarks` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import _audit, _cold, _corpus, _scaling, _w1, _w2
from benchmarks._common import HERE, OUT, W1_CONTRACT, WORDS, median, mib, table, words, worker

SECTIONS = ("w1", "w2", "cold", "help", "scaling", "audit")


# --- workers (run in their own interpreter by the sections below) --------------------------


def _run_worker(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    if name == "textcontract":
        files = _read_list(arguments["list"])
        runs, result = _w1.textcontract_runs(files, arguments["contract"], arguments["repeat"])
        return {"runs": runs, "result": result}
    if name == "floor":
        files = _read_list(arguments["list"])
        runs, result = _w1.floor_runs(files, words(), arguments["repeat"])
        return {"runs": runs, "result": result}
    if name == "scaling":
        return _scaling.measure(_read_list(arguments["list"]), arguments["smoke"])
    if name == "plain":
        return _audit.plain_checks(arguments["plain"], arguments["contract"])
    raise SystemExit(f"unknown worker {name!r}")


def _read_list(path: str) -> list[str]:
    return [line for line in Path(path).read_text(encoding="utf-8").splitlines() if line]


# --- environment -------------------------------------------------------------------------


def find_peer(given: Path | None) -> Path | None:
    """A Python that imports mateprobe: ``--peer-python``, $TEXTCONTRACT_PEER_PYTHON,
    ``../peer-venv/bin/python`` beside the checkout, or the interpreter of a ``mateprobe``
    script on PATH."""
    candidates: list[Path] = []
    if given is not None:
        candidates.append(given)
    if os.environ.get("TEXTCONTRACT_PEER_PYTHON"):
        candidates.append(Path(os.environ["TEXTCONTRACT_PEER_PYTHON"]))
    candidates.append(HERE.parent.parent / "peer-venv" / "bin" / "python")
    script = shutil.which("mateprobe")
    if script:
        first = Path(script).read_text(encoding="utf-8", errors="replace").splitlines()[:1]
        if first and first[0].startswith("#!"):
            candidates.append(Path(first[0][2:].strip().split()[0]))
    for candidate in candidates:
        if candidate.exists() and _imports_mateprobe(candidate):
            return candidate
    if given is not None:
        raise SystemExit(f"--peer-python {given}: cannot import mateprobe with it")
    return None


def _imports_mateprobe(python: Path) -> bool:
    probe = subprocess.run(
        [str(python), "-c", "import mateprobe"], capture_output=True, check=False
    )
    return probe.returncode == 0


def _load() -> str:
    """The load averages (1, 5, 15 minutes), to tell a quiet sitting from a busy one."""
    try:
        return " ".join(f"{value:.2f}" for value in os.getloadavg())
    except OSError:
        return "unknown"


def machine() -> dict[str, Any]:
    model = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    versions: dict[str, str] = {}
    from importlib.metadata import PackageNotFoundError, version

    for package in ("textcontract", "regex", "google-re2", "PyYAML", "typer"):
        try:
            versions[package] = version(package)
        except PackageNotFoundError:
            versions[package] = "not installed"
    return {
        "cpus": os.cpu_count(),
        "cpu": model,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "packages": versions,
    }


# --- sections ----------------------------------------------------------------------------


def section_w1(files: Sequence[Path], peer: Path | None, repeat: int) -> dict[str, Any]:
    listing = OUT / "w1-files.txt"
    listing.write_text("".join(f"{f}\n" for f in files), encoding="utf-8")
    megabytes = sum(f.stat().st_size for f in files) / 1e6
    arguments = {"list": str(listing), "repeat": repeat, "contract": str(W1_CONTRACT)}
    finished = {
        "textcontract": worker("textcontract", arguments),
        "floor": worker("floor", arguments),
    }
    if peer is not None:
        finished["mateprobe"] = _w1_peer(peer, listing, repeat)
    results: dict[str, Any] = {"docs": len(files), "megabytes": megabytes}
    for name, done in finished.items():
        reported = done.json_line()
        seconds = median(reported["runs"])
        results[name] = {
            "runs": reported["runs"],
            "median_s": seconds,
            "docs_per_s": len(files) / seconds,
            "mb_per_s": megabytes / seconds,
            "peak_rss_kib": done.peak_rss_kib,
            "result": reported["result"],
        }
    tc, floor = results["textcontract"], results["floor"]
    results["time_vs_floor"] = tc["median_s"] / floor["median_s"]
    if "mateprobe" in results:
        results["throughput_vs_mateprobe"] = tc["docs_per_s"] / results["mateprobe"]["docs_per_s"]
    rows = [
        [
            name,
            f"{r['median_s']:.2f} s",
            f"{r['docs_per_s']:,.0f}",
            f"{r['mb_per_s']:.2f}",
            mib(r["peak_rss_kib"]),
        ]
        for name, r in results.items()
        if isinstance(r, dict)
    ]
    print(f"\n## W1: {len(files)} documents, {megabytes:.1f} MB, median of {repeat}")
    print(table(["engine", "time", "docs/s", "MB/s", "peak RSS"], rows))
    print(f"textcontract time / floor time: {results['time_vs_floor']:.2f} (target <= 1.0)")
    if "throughput_vs_mateprobe" in results:
        print(
            f"textcontract / mateprobe throughput: {results['throughput_vs_mateprobe']:.1f}x "
            "(target >= 5)"
        )
    else:
        print("mateprobe: not found (give --peer-python)")
    print(f"textcontract accepted {tc['result']} of {len(files)} documents")
    return results


def _w1_peer(peer: Path, listing: Path, repeat: int) -> Any:
    from benchmarks._common import run_child

    return run_child([str(peer), HERE / "peer_w1.py", listing, WORDS, str(repeat)])


def section_w2(corpus: Path, files: Sequence[Path], repeat: int) -> dict[str, Any]:
    results = _w2.measure(corpus, files, repeat)
    tools = [name for name in ("textcontract", "floor", "rg", "grep") if name in results]
    print(f"\n## W2: one 50-word ForbiddenPattern rule, {len(files)} files, whole CLI runs")
    print(f"load average before: {_load()}")
    print(
        table(
            ["tool", "median", "runs", "CPU (median)", "hits (documents / files)"],
            [
                [
                    name,
                    f"{results[name]['median_s']:.2f} s",
                    ", ".join(f"{run:.2f}" for run in results[name]["runs"]),
                    f"{results[name]['median_cpu_s']:.2f} s",
                    results[name]["hits"],
                ]
                for name in tools
            ],
        )
    )
    print(
        f"matches: {results['matches']:,} in {results['reports']} documents, the floor's "
        "equal to textcontract's in every document"
    )
    print(
        f"textcontract / floor time: {results['vs_floor']:.2f} (target <= 1.5); "
        f"CPU {results['cpu_vs_floor']:.2f}"
    )
    if "vs_rg" in results:
        print(f"textcontract / rg time: {results['vs_rg']:.2f}")
    else:
        print("rg: not installed")
    if "vs_grep" in results:
        print(f"textcontract / grep time: {results['vs_grep']:.2f}")
    return results


def section_cold(peer: Path | None, runs: int) -> dict[str, Any]:
    results = _cold.measure(peer, runs)
    print(f"\n## Cold start: one small document, --format json, median of {runs}")
    print(f"load average before: {_load()}")
    print(
        table(
            ["command", "median", "min", "CPU (median)", "peak RSS", "exit"],
            [
                [
                    name,
                    f"{r['median_ms']:.0f} ms",
                    f"{r['min_ms']:.0f} ms",
                    f"{r['median_cpu_ms']:.0f} ms",
                    mib(r["peak_rss_kib"]),
                    r["exit"],
                ]
                for name, r in results.items()
            ],
        )
    )
    if "mateprobe" in results:
        mine, theirs = results["textcontract"], results["mateprobe"]
        ratio = mine["median_ms"] / theirs["median_ms"]
        results["ratio_vs_mateprobe"] = ratio
        results["cpu_ratio_vs_mateprobe"] = mine["median_cpu_ms"] / theirs["median_cpu_ms"]
        print(
            f"textcontract / mateprobe cold time: {ratio:.2f} (target <= 1.5); "
            f"CPU {results['cpu_ratio_vs_mateprobe']:.2f}"
        )
    return results


def section_help(runs: int) -> dict[str, Any]:
    results = _cold.measure_help(runs)
    print(f"\n## Help pages: --help and every -h, median of {runs}")
    print(f"load average before: {_load()}")
    print(
        table(
            ["command", "median", "max", "CPU (median)", "exit"],
            [
                [
                    f"textcontract {name}",
                    f"{r['median_ms']:.0f} ms",
                    f"{r['max_ms']:.0f} ms",
                    f"{r['median_cpu_ms']:.0f} ms",
                    r["exit"],
                ]
                for name, r in results.items()
            ],
        )
    )
    slowest = max(r["median_ms"] for r in results.values())
    print(f"slowest help page: {slowest:.0f} ms (target <= 300 ms)")
    return {"pages": results, "slowest_ms": slowest}


def section_scaling(files: Sequence[Path], smoke: bool) -> dict[str, Any]:
    listing = OUT / "scaling-files.txt"
    listing.write_text("".join(f"{f}\n" for f in files), encoding="utf-8")
    results = worker("scaling", {"list": str(listing), "smoke": smoke}).json_line()
    for axis, points in results.items():
        print(f"\n## Scaling: {axis} (median of 3)")
        print(
            table(
                ["point", "docs", "µs/doc", "docs/s", "MB/s"],
                [
                    [
                        p["point"],
                        p["docs"],
                        f"{p['us_per_doc']:,.0f}",
                        f"{p['docs_per_s']:,.0f}",
                        f"{p['mb_per_s']:.2f}",
                    ]
                    for p in points
                ],
            )
        )
    return results


def section_audit(
    files: Sequence[Path], variants: int, memory: bool, smoke: bool
) -> dict[str, Any]:
    sources = _audit.accepted_sources([str(f) for f in files])
    if not sources:
        print("\n## Audit: skipped, W1 accepts none of the documents (no valid baseline)")
        return {"skipped": "no accepted baseline"}
    folder = OUT / f"audit-{variants}"
    plain = _audit.make_corpus(folder, variants, sources)
    _audit.warm_up()
    plain_run = _audit.run_plain(plain, folder)
    checks = plain_run.json_line()["checks"]
    audits = {jobs: _audit.run_audit(folder, jobs) for jobs in (1, 2)}
    summary = _audit.audit_summary(folder, 1)
    results: dict[str, Any] = {
        "variants": variants,
        "baselines_available": len(sources),
        "plain": {"seconds": plain_run.seconds, "checks": checks, "rss": plain_run.peak_rss_kib},
        "audit": {
            jobs: {"seconds": done.seconds, "rss": done.peak_rss_kib}
            for jobs, done in audits.items()
        },
        "summary": summary,
    }
    results["audit_vs_plain"] = audits[1].seconds / plain_run.seconds
    results["jobs2_speedup"] = audits[1].seconds / audits[2].seconds
    print(f"\n## Audit: {variants} variants of W1 documents ({len(sources)} accepted baselines)")
    print(
        table(
            ["run", "wall time", "peak RSS"],
            [
                [
                    f"{checks} plain checks (one process)",
                    f"{plain_run.seconds:.2f} s",
                    mib(plain_run.peak_rss_kib),
                ],
                *[
                    [f"audit --jobs {jobs}", f"{done.seconds:.2f} s", mib(done.peak_rss_kib)]
                    for jobs, done in audits.items()
                ],
            ],
        )
    )
    print(f"audit --jobs 1 / plain checks: {results['audit_vs_plain']:.2f} (target <= 1.3)")
    print(f"--jobs 2 speed-up over --jobs 1: {results['jobs2_speedup']:.2f}x (target >= 1.7)")
    print(f"audit figures: {json.dumps(summary)}")
    if memory:
        small, large = (200, 2_000) if smoke else (1_000, 100_000)
        rss = {}
        for count in (small, large):
            memory_folder = OUT / f"audit-{count}"
            _audit.make_corpus(memory_folder, count, sources, plain_trials=False)
            rss[count] = _audit.run_audit(memory_folder, 1).peak_rss_kib
        results["memory"] = {"small": small, "large": large, "rss": rss}
        results["memory_ratio"] = rss[large] / rss[small]
        print(
            f"peak RSS, {large:,} variants: {mib(rss[large])}; {small:,} variants: "
            f"{mib(rss[small])}; ratio {results['memory_ratio']:.2f} (target <= 1.5)"
        )
    return results


# --- main --------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["worker"]:
        print(json.dumps(_run_worker(arguments[1], json.loads(arguments[2]))))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--corpus", type=Path, help="W1 corpus folder (make_corpus.sh)")
    parser.add_argument("--peer-python", type=Path, help="a Python with mateprobe installed")
    parser.add_argument("--no-peer", action="store_true", help="do not run the peer")
    parser.add_argument("--smoke", action="store_true", help="a small slice of everything")
    parser.add_argument("--only", default=None, help=f"sections, comma-separated: {SECTIONS}")
    parser.add_argument("--repeat", type=int, default=3, help="timed passes per W1 engine")
    parser.add_argument("--cold-runs", type=int, default=15, help="cold-start runs per tool")
    parser.add_argument("--audit-variants", type=int, default=10_000)
    parser.add_argument("--audit-memory", action="store_true", help="1,000 vs 100,000 variants")
    options = parser.parse_args(arguments)

    default_sections = SECTIONS if options.smoke else ("w1", "w2", "cold", "help", "scaling")
    sections = options.only.split(",") if options.only else list(default_sections)
    unknown = set(sections) - set(SECTIONS)
    if unknown:
        parser.error(f"unknown sections: {sorted(unknown)}")
    OUT.mkdir(exist_ok=True)

    corpus = _corpus.find_corpus(options.corpus)
    if corpus is not None and _corpus.corpus_files(corpus):
        files = _corpus.corpus_files(corpus)
        source = f"corpus {corpus}"
        if options.smoke:
            files = _corpus.spread_slice(files, 60)
            source += " (60-document slice)"
    elif options.smoke:
        files = _corpus.synthetic_corpus(OUT / "synthetic", count=60)
        source = "synthetic multilingual documents from the fixtures"
    elif set(sections) <= {"cold", "help"}:  # the fixtures only
        files = []
        source = "the fixtures (no corpus needed)"
    else:
        raise SystemExit(
            "no corpus: build one with ../shared/bench/make_corpus.sh DIR and pass --corpus DIR "
            "(or run --smoke)"
        )
    peer = None if options.no_peer else find_peer(options.peer_python)
    info = machine()
    print("# textcontract benchmarks" + (" (smoke)" if options.smoke else ""))
    print(f"machine: {info['cpus']} CPUs, {info['cpu']}; Python {info['python']}")
    print("packages: " + ", ".join(f"{k} {v}" for k, v in info["packages"].items()))
    print(f"documents: {len(files)} from {source}")
    print(f"peer: {peer if peer is not None else 'none'}")
    if options.smoke:
        print("smoke: small slices check that the benchmarks run; the targets are for full runs")

    results: dict[str, Any] = {"machine": info, "source": source, "smoke": options.smoke}
    repeat = options.repeat
    if "w1" in sections:
        results["w1"] = section_w1(files, peer, repeat)
    if "w2" in sections:
        w2_root = corpus if corpus is not None and not options.smoke else None
        if w2_root is None:  # a slice or synthetic documents: a folder holding just those
            w2_root = _corpus.copied_folder(OUT / "w2-documents", list(files))
        results["w2"] = section_w2(w2_root, files, repeat)
    if "cold" in sections:
        results["cold"] = section_cold(peer, 5 if options.smoke else options.cold_runs)
    if "help" in sections:
        results["help"] = section_help(3 if options.smoke else options.cold_runs)
    if "scaling" in sections:
        results["scaling"] = section_scaling(files, options.smoke)
    if "audit" in sections:
        variants = 40 if options.smoke else options.audit_variants
        results["audit"] = section_audit(
            files, variants, options.audit_memory or options.smoke, options.smoke
        )
    name = "results-smoke.json" if options.smoke else f"results-{'-'.join(sections)}.json"
    (OUT / name).write_text(json.dumps(results, indent=1, default=str) + "\n", encoding="utf-8")
    print(f"\nresults written to {OUT / name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
