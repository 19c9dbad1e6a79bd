"""Workload W1 through the peer, mateprobe 0.1.0a4, run by the peer's own interpreter.

Usage: PEER_PYTHON benchmarks/peer_w1.py LIST WORDS REPEAT — LIST holds one document path per
line. Same workload and timed region as benchmarks/_w1.py (read, build, check per document);
prints one JSON line. Needs only the standard library and mateprobe.
"""

from __future__ import annotations

import json
import sys
import time

from mateprobe.engine import evaluate
from mateprobe.model import Claim, Context, Document, Surface
from mateprobe.rules import (
    DeclaredClaimsConsistent,
    ForbiddenPattern,
    LexicalRestatement,
    MinimumTokens,
    NoRepeatedText,
    RequiredFact,
)


def main(list_path: str, words_path: str, repeat: int) -> None:
    with open(list_path, encoding="utf-8") as stream:
        files = [line.rstrip("\n") for line in stream if line.strip()]
    with open(words_path, encoding="utf-8") as stream:
        words = [w.strip() for w in stream if w.strip()]
    context = Context(
        states={"current": {"order.status": "shipped", "order.total": 19.99}},
        history=("Thanks for your order.",),
    )
    rules = (
        RequiredFact("status", "order.status", "shipped"),
        DeclaredClaimsConsistent("claims", ("body",)),
        ForbiddenPattern("hedges", tuple(rf"\b{w}\b" for w in words), ("body",)),
        MinimumTokens("floor", ("body",), 10, 6),
        NoRepeatedText("norepeat", ("body",)),
        LexicalRestatement("restate", "title", "body"),
    )
    claims = (Claim("order.total", 19.99),)
    runs: list[float] = []
    accepted = 0
    for _ in range(repeat):
        started = time.perf_counter()
        accepted = 0
        for path in files:
            with open(path, encoding="utf-8") as stream:
                text = stream.read()
            document = Document(
                (Surface("title", text[:200]), Surface("body", text, claims=claims))
            )
            accepted += evaluate(document, context, rules).accepted
        runs.append(time.perf_counter() - started)
    print(json.dumps({"runs": runs, "result": accepted}))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
