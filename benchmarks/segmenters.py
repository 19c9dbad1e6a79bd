"""The ``icu`` segmenter against the default word tokens on W1's Japanese and Chinese documents.

    python benchmarks/segmenters.py [--corpus DIR] [--repeat 7]   # W1's ja/ and zh/ files
    python benchmarks/segmenters.py --smoke                       # CI: synthetic ja/zh text

SPEC §19's target: a token rule with ``segmenter: icu`` costs at most 2x the default segmenter
on the same documents. Timed region, as W1's (``benchmarks/_w1.py``): per document, read the
file, build W1's document (``title`` = the first 200 characters, ``body`` = all of it), check.
Two contracts are timed, each with the default segmenter and with ``tokens: {segmenter: icu}``:

- ``rule``: W1's token rule alone (``MinimumTokens`` on ``body``, minimum 10, 6 distinct);
- ``w1``: W1's whole contract (six rules, three of which read tokens).

The passes alternate (default, icu, default, …) after one warm-up pass of each, so a busy
machine slows both alike; the medians and their ratio are printed. Then the token counts:
how many documents the default segmenter refuses (``UNSUPPORTED_SCRIPT``) and how many tokens
ICU finds in them. docs/performance.md records the figures.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make `benchmarks` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._common import OUT, W1_CONTRACT
from benchmarks._corpus import find_corpus, synthetic_corpus
from benchmarks._w1 import TITLE_CHARS, W1_HISTORY, W1_STATE

LANGUAGES = ("ja", "zh")
RULE = """\
textcontract: 1
id: w1-token-rule
rules:
  - {id: floor, type: MinimumTokens, surfaces: [body], minimum: 10, minimum_unique: 6}
"""
ICU_HEADER = "tokens: {segmenter: icu}\n"


def _with_icu(source: str) -> str:
    return source.replace("rules:", ICU_HEADER + "rules:", 1)


def _files(corpus: Path | None, smoke: bool) -> tuple[dict[str, list[Path]], str]:
    """The documents of each language, and where they come from."""
    if corpus is not None and not smoke:
        found = {language: sorted((corpus / language).glob("**/*.txt")) for language in LANGUAGES}
        if any(found.values()):
            return found, f"W1's ja/ and zh/ documents ({corpus})"
    synthetic = OUT / "synthetic"
    synthetic_corpus(synthetic, count=48)
    found = {language: sorted((synthetic / language).glob("*.txt")) for language in LANGUAGES}
    return found, "synthetic ja/zh documents (benchmarks/_corpus.py)"


def _pass(contract: Any, files: Sequence[Path]) -> Callable[[], list[Any]]:
    from textcontract import Context, Document, Surface

    context = Context.from_json({"states": {"current": W1_STATE}, "history": W1_HISTORY})
    claims = {"order.total": 19.99}

    def run() -> list[Any]:
        reports = []
        for path in files:
            text = path.read_text(encoding="utf-8")
            document = Document(
                (Surface("title", text[:TITLE_CHARS]), Surface("body", text, claims=claims))
            )
            reports.append(contract.check(document, context))
        return reports

    return run


def _timed(run: Callable[[], list[Any]]) -> tuple[float, float]:
    """Wall and CPU seconds of one pass (CPU time is what a busy machine distorts least)."""
    wall, cpu = time.perf_counter(), time.process_time()
    run()
    return time.perf_counter() - wall, time.process_time() - cpu


def _compare(name: str, source: str, files: Sequence[Path], repeat: int) -> dict[str, Any]:
    import textcontract

    default = _pass(textcontract.load_contract_text(source), files)
    icu = _pass(textcontract.load_contract_text(_with_icu(source)), files)
    default(), icu()  # warm-up: ICU's dictionaries load on first use
    times: dict[str, list[tuple[float, float]]] = {"default": [], "icu": []}
    for _ in range(repeat):
        times["default"].append(_timed(default))
        times["icu"].append(_timed(icu))
    found: dict[str, Any] = {}
    for clock, index in (("wall", 0), ("cpu", 1)):
        medians = {
            key: statistics.median(t[index] for t in values) for key, values in times.items()
        }
        ratio = medians["icu"] / medians["default"]
        found[clock] = {"seconds": medians, "ratio": ratio}
        print(
            f"{name:>5} {clock:>4}: default {medians['default']:.3f} s, icu {medians['icu']:.3f} s:"
            f" {ratio:.2f}x (target <= 2x; median of {repeat}, interleaved)"
        )
    return found


def _token_counts(by_language: dict[str, list[Path]]) -> dict[str, Any]:
    """Per language: documents the default refuses, and ICU's token counts on them."""
    import textcontract

    found: dict[str, Any] = {}
    for language, files in by_language.items():
        default = _pass(textcontract.load_contract_text(RULE), files)()
        icu = _pass(textcontract.load_contract_text(_with_icu(RULE)), files)()
        counts = [
            icu_report.checks[0].metrics["tokens"]
            for default_report, icu_report in zip(default, icu, strict=True)
            if default_report.checks[0].code == "UNSUPPORTED_SCRIPT"
        ]
        total = len(files)
        found[language] = {"documents": total, "refused": len(counts), "icu_tokens": counts}
        if counts:
            print(
                f"{language}: {len(counts)} of {total} documents UNSUPPORTED_SCRIPT by default;"
                f" ICU tokens: {sum(counts):,} in all, min {min(counts):,},"
                f" median {statistics.median(counts):,.0f}, max {max(counts):,}"
            )
        else:
            print(f"{language}: none of {total} documents UNSUPPORTED_SCRIPT by default")
    return found


def main(arguments: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=None)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--smoke", action="store_true", help="synthetic documents, 2 passes")
    options = parser.parse_args(arguments)
    OUT.mkdir(exist_ok=True)
    by_language, source = _files(find_corpus(options.corpus), options.smoke)
    files = [path for language in LANGUAGES for path in by_language[language]]
    repeat = 2 if options.smoke else options.repeat
    megabytes = sum(path.stat().st_size for path in files) / 1e6
    print(f"# segmenters: {len(files)} documents, {megabytes:.2f} MB, {source}")
    return {
        "rule": _compare("rule", RULE, files, repeat),
        "w1": _compare("w1", W1_CONTRACT.read_text(encoding="utf-8"), files, repeat),
        "tokens": _token_counts(by_language),
    }


if __name__ == "__main__":
    main()
