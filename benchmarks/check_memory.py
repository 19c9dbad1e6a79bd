"""Peak memory of ``textcontract check`` (SPEC §11): one large document, and many small ones.

    python benchmarks/check_memory.py                # about a minute
    python benchmarks/check_memory.py --smoke        # small sizes, for CI: asserts nothing

Every run is a fresh ``textcontract check … --format jsonl`` process (stdout to /dev/null);
its peak RSS is read with ``wait4`` by a small launcher (``benchmarks/_common.run_child``),
so the figure is the command's own, from interpreter start to exit.

- **One document**: a markdown file of ``--sizes`` MiB built from sentences within Latin-1
  (English, German, French), and one from Greek, Russian, Japanese and Chinese sentences
  (CPython stores that text two bytes per character). Printed: peak RSS, bytes per input
  byte over the interpreter's start-up (a run on a tiny document), and the SPEC bound
  (8 B/B + 60 MiB within Latin-1, 12 B/B otherwise).
- **Many documents**: 100 and 10,000 copies of ``fixtures/orders/order-1002.md`` (each
  with its context), checked as one folder, as file arguments and as one ``--batch`` file;
  the ratio of the two peaks (SPEC: at most 1.10).

The contract is ``fixtures/orders/textcontract.yaml`` (eight rules: patterns, links,
tokens). Inputs are written under ``benchmarks/out/memory`` (ignored by git).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make `benchmarks` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._common import OUT, ROOT, Finished, run_child, table
from benchmarks._corpus import _SENTENCES

CONTRACT = ROOT / "fixtures" / "orders" / "textcontract.yaml"
SAMPLE = ROOT / "fixtures" / "orders" / "order-1002.md"
SAMPLE_CONTEXT = ROOT / "fixtures" / "orders" / "order-1002.context.json"
MIB = 1024 * 1024
LATIN1 = ("en", "de", "fr")
WIDE = ("el", "ru", "ja", "zh")


def _text(languages: Sequence[str], size: int) -> str:
    """About ``size`` UTF-8 bytes of paragraphs cycling through the languages' sentences."""
    sentences = [s for language in languages for s in _SENTENCES[language]]
    parts: list[str] = []
    total = 0
    index = 0
    while total < size:
        sentence = sentences[index % len(sentences)]
        piece = sentence + ("\n\n" if index % 7 == 6 else " ")
        parts.append(piece)
        total += len(piece.encode("utf-8"))
        index += 1
    return "".join(parts)


def _command(textcontract: str, *arguments: str | Path) -> list[str]:
    return [textcontract, "check", *map(str, arguments), "--contract", str(CONTRACT)]


def _run(command: Sequence[str], cap: int) -> Finished:
    env = dict(os.environ, TEXTCONTRACT_MAX_INPUT_BYTES=str(cap))
    finished = run_child(command, env=env, stdout_to_null=True)
    if finished.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)} failed ({finished.returncode}):\n{finished.stderr}")
    return finished


def one_document(textcontract: str, sizes: Sequence[int]) -> list[dict[str, object]]:
    folder = OUT / "memory" / "one"
    folder.mkdir(parents=True, exist_ok=True)
    tiny = folder / "tiny.md"
    tiny.write_text("Hello.\n", encoding="utf-8")
    cap = max(sizes) * MIB * 2
    base = _run(_command(textcontract, tiny, "--format", "jsonl"), cap).peak_rss_kib * 1024
    rows: list[dict[str, object]] = []
    for name, languages, per_byte in (("Latin-1", LATIN1, 8), ("wider", WIDE, 12)):
        for size in sizes:
            path = folder / f"{name.lower()}-{size}.md"
            path.write_text(_text(languages, size * MIB), encoding="utf-8")
            length = path.stat().st_size
            peak = _run(_command(textcontract, path, "--format", "jsonl"), cap).peak_rss_kib * 1024
            bound = per_byte * length + 60 * MIB
            rows.append(
                {
                    "text": name,
                    "bytes": length,
                    "peak_mib": round(peak / MIB, 1),
                    "bytes_per_byte": round((peak - base) / length, 2),
                    "bound_mib": round(bound / MIB, 1),
                    "within": peak <= bound,
                }
            )
            path.unlink()
    return rows


def _copies(count: int) -> tuple[Path, Path]:
    """A folder of ``count`` documents with paired contexts, and the same as a batch file."""
    folder = OUT / "memory" / f"many-{count}"
    if folder.exists():
        shutil.rmtree(folder)
    docs = folder / "docs"
    docs.mkdir(parents=True)
    text = SAMPLE.read_text(encoding="utf-8")
    context_text = SAMPLE_CONTEXT.read_text(encoding="utf-8")
    context = json.loads(context_text)
    batch = folder / "batch.jsonl"
    with batch.open("w", encoding="utf-8") as lines:
        for index in range(count):
            (docs / f"order-{index:05d}.md").write_text(text, encoding="utf-8")
            (docs / f"order-{index:05d}.context.json").write_text(context_text, encoding="utf-8")
            line = {"id": f"order-{index:05d}", "document": _body_only(text), "context": context}
            lines.write(json.dumps(line, ensure_ascii=False) + "\n")
    return docs, batch


def _body_only(markdown: str) -> str:
    """The text after the front matter: a batch line's plain-string document."""
    return markdown.split("---\n", 2)[2]


def many_documents(
    textcontract: str, counts: Sequence[int], ways: Sequence[str]
) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    made = {count: _copies(count) for count in counts}
    for way in ways:
        peaks = []
        for count in counts:
            docs, lines = made[count]
            if way == "files":
                arguments: list[str | Path] = sorted(docs.glob("*[0-9].md"))
            elif way == "folder":
                arguments = [docs]
            else:
                arguments = ["--batch", lines]
            finished = _run(_command(textcontract, *arguments, "--format", "jsonl"), 64 * MIB)
            peaks.append(finished.peak_rss_kib * 1024)
            rows.append(
                {
                    "inputs": way,
                    "documents": count,
                    "peak_mib": round(peaks[-1] / MIB, 1),
                    "seconds": round(finished.seconds, 2),
                    "ratio": round(peaks[-1] / peaks[0], 3),
                }
            )
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--textcontract", default=str(Path(sys.executable).parent / "textcontract"))
    parser.add_argument("--sizes", default="16,48", help="MiB per large document (comma list)")
    parser.add_argument("--counts", default="100,10000", help="documents in the many runs")
    parser.add_argument(
        "--ways", default="files,folder,batch", help="how the many documents are given"
    )
    parser.add_argument("--smoke", action="store_true", help="small sizes; asserts nothing")
    arguments = parser.parse_args(argv)
    sizes = [1] if arguments.smoke else [int(s) for s in arguments.sizes.split(",")]
    counts = [10, 40] if arguments.smoke else [int(c) for c in arguments.counts.split(",")]
    one = one_document(arguments.textcontract, sizes)
    print(table(list(one[0]), [list(row.values()) for row in one]))
    print()
    many = many_documents(arguments.textcontract, counts, arguments.ways.split(","))
    print(table(list(many[0]), [list(row.values()) for row in many]))
    OUT.mkdir(exist_ok=True)
    (OUT / "results-check-memory.json").write_text(
        json.dumps({"one_document": one, "many_documents": many}, indent=2) + "\n",
        encoding="utf-8",
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
