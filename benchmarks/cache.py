"""The audit cache (SPEC §13) and sharded audits (SPEC §16), measured as whole CLI runs.

    python benchmarks/cache.py --corpus ../corpus        # the figures (a few minutes)
    python benchmarks/cache.py --smoke                   # CI: a small corpus, asserts nothing

The corpus is benchmarks/_audit.py's generated one (10,000 variants of W1 documents, ten per
case) audited with the ten rules of benchmarks/cache-contract.yaml. Each run is
``textcontract audit DIR --format json --output F`` in a fresh process with its bytecode
cached (as after ``pip install``), wall time from start to exit:

- ``no cache``: without ``--cache``;
- ``cold``: ``--cache`` into an empty folder (SPEC §13's "cold": the cache is written);
- ``unchanged``: the same command again;
- ``one rule changed``: after adding a word to the ForbiddenPattern rule ``hedges``
  (and, as a second figure, after changing the threshold of MinimumTokens ``floor``);
- ``shards``: ``--shard K/2`` twice (no cache) and ``merge``, one after the other.

Targets: unchanged ≤ 0.2× cold; one rule changed ≤ 0.4× cold. Every cached report must equal
the uncached one apart from its ``cache`` block, and the merged report must equal it byte for
byte; the script checks both and stops if not. Medians of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make `benchmarks` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import _audit, _corpus
from benchmarks._cold import cold_environment
from benchmarks._common import HERE, OUT, Finished, run_child

CONTRACT = HERE / "cache-contract.yaml"
_HEDGE_LIST_END = "'\\betc\\b']"
_HEDGE_LIST_MORE = "'\\betc\\b', '\\bzq{n}\\b']"


def _textcontract(*arguments: str | Path) -> list[str]:
    script = Path(sys.executable).parent / "textcontract"
    head = [str(script)] if script.exists() else [sys.executable, "-m", "textcontract"]
    return [*head, *map(str, arguments)]


def _audit_run(folder: Path, output: Path, *extra: str | Path) -> Finished:
    command = _textcontract("audit", folder, "--format", "json", "--output", output, *extra)
    done = run_child(command, env=cold_environment())
    if done.returncode not in (0, 1):
        raise SystemExit(f"audit failed ({done.returncode}):\n{done.stderr}")
    return done


def _without_cache(path: Path) -> str:
    report = json.loads(path.read_text(encoding="utf-8"))
    report.pop("cache", None)
    return json.dumps(report, ensure_ascii=False, indent=2) + "\n"


def _timed(repeat: int, run: Callable[[], Finished], reset: Callable[[], None]) -> float:
    seconds = []
    for _ in range(repeat):
        reset()
        seconds.append(run().seconds)
    return statistics.median(seconds)


def _sources(smoke: bool, corpus: Path | None) -> list[tuple[str, str]]:
    found = _corpus.find_corpus(corpus)
    if found is not None and _corpus.corpus_files(found):
        files = _corpus.corpus_files(found)
    elif smoke:
        files = _corpus.synthetic_corpus(OUT / "synthetic", count=60)
    else:
        raise SystemExit("no corpus: pass --corpus DIR (../shared/bench/make_corpus.sh) or --smoke")
    return _audit.accepted_sources([str(f) for f in files])


def _edit(contract: Path, old: str, new: str) -> None:
    text = contract.read_text(encoding="utf-8")
    if old not in text:
        raise SystemExit(f"{contract} does not hold {old!r}")
    contract.write_text(text.replace(old, new, 1), encoding="utf-8")


def measure(variants: int, repeat: int, smoke: bool, corpus: Path | None) -> dict[str, Any]:
    folder = OUT / f"cache-{variants}"
    _audit.make_corpus(folder, variants, _sources(smoke, corpus), plain_trials=False)
    contract = folder / "contract.yaml"
    shutil.copyfile(CONTRACT, contract)
    cache, out = OUT / f"cache-{variants}-dir", OUT / f"cache-{variants}.json"
    _audit.warm_up()
    plain_out = OUT / f"cache-{variants}-plain.json"
    times: dict[str, float] = {}
    times["no cache"] = _timed(repeat, lambda: _audit_run(folder, plain_out), lambda: None)
    plain = plain_out.read_text(encoding="utf-8")

    def empty() -> None:
        shutil.rmtree(cache, ignore_errors=True)

    def cached() -> Finished:
        done = _audit_run(folder, out, "--cache", cache)
        if _without_cache(out) != plain:
            raise SystemExit("a cached report differs from the uncached one")
        return done

    times["cold"] = _timed(repeat, cached, empty)
    cached()  # the cache as the last cold run left it
    times["unchanged"] = _timed(repeat, cached, lambda: None)
    changes = [
        (
            "one rule changed (hedges: one more word)",
            _HEDGE_LIST_END,
            "'\\betc\\b', '\\bzq{n}\\b']",
        ),
        ("one rule changed (floor: minimum 10 -> {n})", "minimum: 10,", "minimum: {n},"),
    ]
    original = CONTRACT.read_text(encoding="utf-8")
    expected = {"text": plain}
    for name, old, new in changes:
        edits = iter(range(11, 11 + repeat))

        def change(old: str = old, new: str = new, edits: Any = edits) -> None:
            contract.write_text(original, encoding="utf-8")
            _edit(contract, old, new.format(n=next(edits)))
            _audit_run(folder, plain_out)  # the uncached report of the edited contract
            expected["text"] = plain_out.read_text(encoding="utf-8")

        def edited() -> Finished:
            done = _audit_run(folder, out, "--cache", cache)
            if _without_cache(out) != expected["text"]:
                raise SystemExit("a cached report differs from the uncached one")
            return done

        times[name.format(n="N")] = _timed(repeat, edited, change)
        contract.write_text(original, encoding="utf-8")
        _audit_run(folder, out, "--cache", cache)  # back to the original's results
    times["2 shards + merge"] = _shards(folder, plain)
    return {"variants": variants, "seconds": times, "cache_bytes": _size(cache)}


def _shards(folder: Path, plain: str) -> float:
    total = 0.0
    parts = []
    for index in (1, 2):
        part = OUT / f"cache-part-{index}.json"
        total += _audit_run(folder, part, "--shard", f"{index}/2").seconds
        parts.append(part)
    merged = OUT / "cache-merged.json"
    done = run_child(_textcontract("merge", *parts, "--output", merged), env=cold_environment())
    if merged.read_text(encoding="utf-8") != plain:
        raise SystemExit("the merged report differs from the unsharded one")
    return total + done.seconds


def _size(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--corpus", type=Path, help="W1 corpus folder")
    parser.add_argument("--variants", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--smoke", action="store_true")
    options = parser.parse_args(argv)
    OUT.mkdir(exist_ok=True)
    variants, repeat = (200, 1) if options.smoke else (options.variants, options.repeat)
    results = measure(variants, repeat, options.smoke, options.corpus)
    seconds = results["seconds"]
    cold = seconds["cold"]
    print(f"# audit cache, {variants:,} variants, 10 rules (median of {repeat})")
    for name, value in seconds.items():
        ratio = "" if name == "no cache" else f"  {value / cold:.2f}x cold"
        print(f"{name:45} {value:7.2f} s{ratio}")
    print(f"cache folder: {results['cache_bytes'] / 2**20:.1f} MiB")
    print("targets: unchanged <= 0.2x cold, one rule changed <= 0.4x cold")
    name = "cache-smoke.json" if options.smoke else "cache.json"
    (OUT / name).write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
