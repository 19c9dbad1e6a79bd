"""How the cost of a W1 check grows: document size, rule count, pattern count, corpus size.

Three points per axis, each the median of three timed passes in one process:
- document size: documents of about 1 KB, 10 KB and 100 KB cut from the corpus text;
- rule count: W1's six rules, then the same rules twice and four times (new ids);
- pattern count: W1 with 50, 200 and 800 forbidden words (the extra words are rare words of
  the corpus itself, so some of them match);
- corpus size: a quarter, half and all of the documents.
"""

from __future__ import annotations

import collections
import copy
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import regex
import yaml

from benchmarks._common import W1_CONTRACT, median, words
from benchmarks._w1 import TITLE_CHARS, W1_HISTORY, W1_STATE

_ASCII_WORD = regex.compile(r"\b[a-z]{6,}\b")


def _contract_text(rules_factor: int = 1, word_list: Sequence[str] | None = None) -> str:
    base = yaml.safe_load(W1_CONTRACT.read_text(encoding="utf-8"))
    rules: list[dict[str, Any]] = []
    for copy_index in range(rules_factor):
        for rule in base["rules"]:
            rule = copy.deepcopy(rule)
            if copy_index:
                rule["id"] = f"{rule['id']}-{copy_index}"
            if rule["type"] == "ForbiddenPattern" and word_list is not None:
                rule["patterns"] = [rf"\b{word}\b" for word in word_list]
            rules.append(rule)
    base["rules"] = rules
    return str(yaml.safe_dump(base, sort_keys=False, allow_unicode=True, width=10_000))


def _check_all(contract: Any, texts: Sequence[str]) -> float:
    from textcontract import Context, Document, Surface

    context = Context.from_json({"states": {"current": W1_STATE}, "history": W1_HISTORY})
    claims = {"order.total": 19.99}
    runs = []
    for _ in range(3):
        started = time.perf_counter()
        for text in texts:
            document = Document(
                (Surface("title", text[:TITLE_CHARS]), Surface("body", text, claims=claims))
            )
            contract.check(document, context)
        runs.append(time.perf_counter() - started)
    return median(runs)


def _point(label: str, seconds: float, texts: Sequence[str]) -> dict[str, Any]:
    megabytes = sum(len(t.encode("utf-8")) for t in texts) / 1e6
    return {
        "point": label,
        "docs": len(texts),
        "seconds": seconds,
        "us_per_doc": seconds / len(texts) * 1e6,
        "docs_per_s": len(texts) / seconds,
        "mb_per_s": megabytes / seconds,
    }


def _rare_words(texts: Sequence[str], count: int, exclude: set[str]) -> list[str]:
    counts = collections.Counter(
        word for text in texts for word in _ASCII_WORD.findall(text.lower())
    )
    ranked = [w for w, n in counts.most_common() if n >= 2 and w not in exclude]
    rare = sorted(ranked[len(ranked) // 2 :][:count])  # from the less frequent half
    # A small corpus has too few: pad with words that never occur.
    return rare + [f"zzq{index:04d}word" for index in range(count - len(rare))]


def measure(files: Sequence[str], smoke: bool) -> dict[str, list[dict[str, Any]]]:
    import textcontract

    texts = [Path(f).read_text(encoding="utf-8") for f in files]
    w1 = textcontract.load_contract_text(_contract_text())
    results: dict[str, list[dict[str, Any]]] = {}

    joined = "\n\n".join(texts)
    budget = 400_000 if smoke else 3_000_000  # characters per point
    size_points = []
    for size in (1_000, 10_000, 100_000):
        count = max(3, budget // size)
        pieces = [joined[(i * size) % max(1, len(joined) - size) :][:size] for i in range(count)]
        size_points.append(_point(f"{size // 1000} KB", _check_all(w1, pieces), pieces))
    results["document size"] = size_points

    results["rule count"] = [
        _point(
            f"{6 * factor} rules",
            _check_all(textcontract.load_contract_text(_contract_text(factor)), texts),
            texts,
        )
        for factor in (1, 2, 4)
    ]

    base_words = words()
    extra = _rare_words(texts, 800, set(base_words))
    pattern_points = []
    for count in (50, 200, 800):
        chosen = (base_words + extra)[:count]
        contract = textcontract.load_contract_text(_contract_text(1, chosen))
        pattern_points.append(_point(f"{len(chosen)} patterns", _check_all(contract, texts), texts))
    results["pattern count"] = pattern_points

    corpus_points = []
    for share in (4, 2, 1):
        subset = texts[: max(1, len(texts) // share)]
        corpus_points.append(_point(f"{len(subset)} docs", _check_all(w1, subset), subset))
    results["corpus size"] = corpus_points
    return results
