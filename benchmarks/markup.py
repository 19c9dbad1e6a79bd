"""Markup views (SPEC §18): W1 read as Markdown, hostile markup, and the parsers' import cost.

    python benchmarks/markup.py --corpus ../corpus   # the figures (docs/performance.md)
    python benchmarks/markup.py --smoke              # CI: a small slice, asserts nothing about time

- ``w1``: W1's files (``*.txt`` of the corpus, or a synthetic one) as Markdown bodies, W1's
  contract as it is (every rule ``read: raw``) against the same contract with every rule that
  reads text set to ``read: [prose]``; the timed region is W1's (read, build, check), each
  engine's passes interleaved, the median taken. Target: prose ≤ 2× raw. Also markdown-it's
  parse of the same bodies alone, and the number of parses per check run.
- ``hostile``: each hostile input in a fresh process (peak RSS from the kernel), at the issue's
  size and twice and four times it: 10,000 nested block quotes and list items, a table of
  20,000 rows, 100,000 unclosed tags and tag starts (HTML and Markdown), comment openers,
  deeply nested emphasis, runs of ``[``, a paragraph of bare-URL triggers; and a 50 MB table.
  Seconds to build the layout and a view of every kind.
- ``imports``: cold-start cost of ``import markdown_it`` and of the plugins, in fresh
  processes, on top of what ``import textcontract.text`` already loads.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make `textcontract` importable from a checkout
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._corpus import corpus_files, find_corpus, spread_slice, synthetic_corpus

HERE = Path(__file__).resolve().parent
W1_CONTRACT = HERE / "w1-contract.yaml"
_TEXT_RULES = ("hedges", "floor", "norepeat", "restate")


def prose_contract() -> str:
    """W1's contract with every rule that reads text set to ``read: [prose]``."""
    lines = []
    for line in W1_CONTRACT.read_text(encoding="utf-8").splitlines():
        if any(f"id: {rule}," in line for rule in _TEXT_RULES):
            line = line.replace("}", ", read: [prose]}")
        elif line.strip() == "id: hedges":
            line += "\n    read: [prose]"
        lines.append(line)
    return "\n".join(lines) + "\n"


def _passes(files: Sequence[Path], contract_text: str) -> Callable[[], int]:
    import textcontract
    from textcontract import Context, Document, Surface

    contract = textcontract.load_contract_text(contract_text)
    context = Context.from_json(
        {
            "states": {"current": {"order.status": "shipped", "order.total": 19.99}},
            "history": ["Thanks for your order."],
        }
    )
    claims = {"order.total": 19.99}

    def one_pass() -> int:
        accepted = 0
        for path in files:
            text = path.read_text(encoding="utf-8")
            document = Document(
                (
                    Surface("title", text[:200]),
                    Surface("body", text, claims=claims, format="markdown"),
                )
            )
            accepted += contract.check(document, context).accepted
        return accepted

    return one_pass


def _parse_only(files: Sequence[Path]) -> Callable[[], int]:
    from textcontract.text.markup._parser import markdown_parser

    parser = markdown_parser()

    def one_pass() -> int:
        return sum(len(parser.parse(path.read_text(encoding="utf-8"))) for path in files)

    return one_pass


def _parses_per_check(files: Sequence[Path], contract_text: str) -> int:
    """How many times one check run parses the body (the Subject's cache is the promise)."""
    import textcontract
    from textcontract import Context, Document, Surface
    from textcontract.text.markup import _markdown

    contract = textcontract.load_contract_text(contract_text)
    text = files[0].read_text(encoding="utf-8")
    document = Document((Surface("title", text[:200]), Surface("body", text, format="markdown")))
    counted = 0
    original = _markdown.markdown_layout

    def counting(source: str) -> object:
        nonlocal counted
        counted += 1
        return original(source)

    _markdown.markdown_layout = counting  # type: ignore[assignment]
    try:
        contract.check(document, Context.from_json({}))
    finally:
        _markdown.markdown_layout = original
    return counted


def section_w1(files: Sequence[Path], repeat: int) -> dict[str, object]:
    raw = _passes(files, W1_CONTRACT.read_text(encoding="utf-8"))
    prose = _passes(files, prose_contract())
    parse = _parse_only(files)
    times: dict[str, list[float]] = {"raw": [], "prose": [], "parse": []}
    raw(), prose(), parse()  # warm: patterns compiled, parser built, files cached
    for _ in range(repeat):
        for name, run in (("raw", raw), ("prose", prose), ("parse", parse)):
            started = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - started)
    found = {name: statistics.median(values) for name, values in times.items()}
    megabytes = sum(path.stat().st_size for path in files) / 1e6
    result: dict[str, object] = {
        "documents": len(files),
        "megabytes": round(megabytes, 2),
        "raw_s": round(found["raw"], 3),
        "prose_s": round(found["prose"], 3),
        "parse_s": round(found["parse"], 3),
        "prose_over_raw": round(found["prose"] / found["raw"], 2),
        "parses_per_check": _parses_per_check(files, prose_contract()),
    }
    print(f"\n## W1 as Markdown: {len(files)} documents, {megabytes:.1f} MB, median of {repeat}")
    for key, value in result.items():
        print(f"  {key}: {value}")
    return result


# name: (format, the text as an expression of n, n at the size)
HOSTILE = {
    "nested-quotes": ("markdown", "'>' * n + ' deep\\n'", 10_000),
    "nested-lists": (
        "markdown",
        "''.join('  ' * min(i, 200) + '- x\\n' for i in range(n))",
        10_000,
    ),
    "table": ("markdown", "'|a|b|\\n|-|-|\\n' + '|x|y|\\n' * n", 20_000),
    "unclosed-tags": ("html", "'<a><b><i>' * (n // 3)", 100_000),
    "unclosed-tag-starts": ("html", "'<a ' * n", 100_000),
    "comment-openers": ("html", "'<!--' * n", 100_000),
    "markdown-unclosed-tags": ("markdown", "'<a><b><i>' * (n // 3)", 100_000),
    "markdown-tag-starts": ("markdown", "'<a ' * n", 100_000),
    "nested-emphasis": ("markdown", "'*' * (n // 2) + 'a' + '*' * (n // 2)", 100_000),
    "link-brackets": ("markdown", "'[' * (n // 2) + 'a'", 100_000),
    "url-triggers": ("markdown", "'http: a@ www ' * (n * 3 // 2)", 100_000),
    # not hostile: many ordinary blocks, to show that time grows with the text
    "many-blocks": (
        "markdown",
        "'# h\\n\\n*a* [b](https://u.example) `c` <i>d</i> www.e.example\\n\\n'"
        " '> q\\n\\n- f\\n\\n' * n",
        10_000,
    ),
}
SERIES = (1, 2, 4)  # each input at its size, twice and four times it: is time linear?
TABLE_50MB = 8_333_333  # rows of "|x|y|\n": a 50 MB table

_HOSTILE_RUN = """
import json, resource, sys, time
from textcontract.text.markup import layout_of
n = {n}
text = {expression}
started = time.perf_counter()
layout = layout_of(text, {format!r})
view = layout.view(["prose", "code", "url", "comment"])
seconds = time.perf_counter() - started
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({{"n": n, "chars": len(text), "seconds": round(seconds, 2),
                  "peak_mib": round(peak), "runs": len(layout.runs),
                  "view_chars": len(view.text)}}))
"""


def _hostile_run(written: str, expression: str, n: int) -> dict[str, object]:
    code = _HOSTILE_RUN.format(n=n, expression=expression, format=written)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=1800
    )
    found: dict[str, object] = json.loads(done.stdout)
    return found


def section_hostile(smoke: bool) -> dict[str, object]:
    """Each input in a fresh process at its size and twice and four times it (smoke: a tenth
    of its size, once), and a 50 MB table (not in smoke)."""
    print("\n## Hostile markup (fresh process each; layout + one view)")
    results: dict[str, object] = {}
    for name, (written, expression, size) in HOSTILE.items():
        sizes = [size // 10] if smoke else [size * factor for factor in SERIES]
        results[name] = [_hostile_run(written, expression, n) for n in sizes]
        line = ", ".join(
            f"{run['chars']:,} chars {run['seconds']} s {run['peak_mib']} MiB"
            for run in results[name]  # type: ignore[attr-defined]
        )
        print(f"  {name}: {line}")
    if not smoke:
        table = HOSTILE["table"]
        results["table-50mb"] = _hostile_run(table[0], table[1], TABLE_50MB)
        print(f"  table-50mb: {results['table-50mb']}")
    return results


def _cold(code: str, runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def section_imports(runs: int) -> dict[str, object]:
    base = "import textcontract.text"
    timings = {
        "text": _cold(base, runs),
        "markdown_it": _cold(base + "; import markdown_it", runs),
        "plugins": _cold(base + "; import markdown_it, mdit_py_plugins.gfm_autolink", runs),
        "parser_built": _cold(
            base
            + "; from textcontract.text.markup._parser import markdown_parser; markdown_parser()",
            runs,
        ),
    }
    result: dict[str, object] = {
        name: round(seconds * 1000, 1) for name, seconds in timings.items()
    }
    print(f"\n## Import cost (ms, median of {runs} fresh processes)")
    for name, value in result.items():
        print(f"  {name}: {value}")
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, help="W1 corpus folder (make_corpus.sh)")
    parser.add_argument("--smoke", action="store_true", help="a small slice of everything")
    parser.add_argument("--repeat", type=int, default=5, help="timed passes per engine")
    parser.add_argument(
        "--only", default="w1,hostile,imports", help="sections to run (comma-separated)"
    )
    options = parser.parse_args(argv)
    corpus = find_corpus(options.corpus)
    with tempfile.TemporaryDirectory() as folder:
        if corpus is None or options.smoke:
            files = synthetic_corpus(Path(folder), count=40 if options.smoke else 300)
        else:
            files = corpus_files(corpus)
        if options.smoke:
            files = spread_slice(files, 40)
        sections = {
            "w1": lambda: section_w1(files, 1 if options.smoke else options.repeat),
            "hostile": lambda: section_hostile(options.smoke),
            "imports": lambda: section_imports(3 if options.smoke else 15),
        }
        results = {name: sections[name]() for name in options.only.split(",")}
    print("\n" + json.dumps(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
