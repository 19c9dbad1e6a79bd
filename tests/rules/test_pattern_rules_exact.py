"""Pattern rules through the engine: the prefilter, accent folding and the time budget give the
results the definitions give (issue 10, defects 1, 5 and 13)."""

from __future__ import annotations

import math
import threading
import time
from pathlib import Path

import pytest
import regex

import textcontract
from textcontract import Context, Document, Report, Status
from textcontract.rules import _patterns


def _contract(tmp_path: Path, rules: str) -> textcontract.Contract:
    path = tmp_path / "contract.yaml"
    path.write_text(f"textcontract: 1\nid: exact\nrules:\n{rules}", encoding="utf-8")
    return textcontract.load_contract(path)


def _check(contract: textcontract.Contract, text: str) -> Report:
    return contract.check(Document.from_text(text), Context.from_json({}))


@pytest.mark.parametrize(
    "patterns",
    [
        pytest.param(["dear {a|b} customer", "\\bzzz1\\b", "\\bzzz2\\b"], id="three-no-prefilter"),
        pytest.param(
            ["dear {a|b} customer", "\\bzzz1\\b", "\\bzzz2\\b", "\\bzzz3\\b"], id="four-prefilter"
        ),
    ],
)
def test_brace_read_as_a_literal_does_not_hide_a_match(
    tmp_path: Path, patterns: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_patterns, "PREFILTER_AFTER", 0)  # the prefilter from the first text
    quoted = ", ".join(f"'{pattern}'" for pattern in patterns)
    contract = _contract(
        tmp_path, f"  - {{id: no-dear, type: ForbiddenPattern, patterns: [{quoted}]}}\n"
    )
    (check,) = _check(contract, "Dear {a friend").checks
    assert (check.status, check.code) == (Status.VIOLATED, "FORBIDDEN_PATTERN")
    assert check.evidence[0]["normalized"] == "dear {a"
    assert check.evidence[0]["match"] == "Dear {a"


def test_katakana_pattern_matches_under_accent_folding(tmp_path: Path) -> None:
    contract = _contract(
        tmp_path, "  - {id: no-refund, type: ForbiddenPattern, patterns: [リファンド]}\n"
    )
    (check,) = _check(contract, "全額リファンドします").checks
    assert check.status is Status.VIOLATED
    assert list(check.evidence) == [
        {
            "pattern": "リファンド",
            "span": [2, 7],
            "match": "リファンド",
            "normalized": "リファンド",
            "excerpt": "全額リファンドします",
            "location": {"surface": "body", "offsets": [2, 7], "start": [1, 3], "end": [1, 8]},
        }
    ]


def test_accents_on_latin_are_still_folded(tmp_path: Path) -> None:
    contract = _contract(
        tmp_path, "  - {id: no-refund, type: ForbiddenPattern, patterns: [rembourse]}\n"
    )
    (check,) = _check(contract, "Nous vous REMBOURSÉ").checks
    assert check.status is Status.VIOLATED
    assert check.evidence[0]["normalized"] == "rembourse"
    assert check.evidence[0]["match"] == "REMBOURSÉ"


# --- the time budget with threads ---------------------------------------------------------

_SLOW = regex.compile(r"(a|aa)+$")


def _search_cost(length: int) -> float:
    """Thread CPU seconds of one search of the slow pattern on ``length`` a's and a "!"."""
    text = "a" * length + "!"
    started = time.thread_time()
    _SLOW.search(text)
    return time.thread_time() - started


def _calibrated_length() -> tuple[int, float]:
    """A text length whose search costs this thread 15-60 ms of CPU (median of three)."""
    length = 16
    while True:
        cost = sorted(_search_cost(length) for _ in range(3))[1]
        if cost >= 0.015 or length >= 40:
            return length, cost
        length += 1


def _timeouts(contract: textcontract.Contract, text: str, threads: int, rounds: int) -> list[str]:
    codes: list[str] = []
    barrier = threading.Barrier(threads)
    lock = threading.Lock()

    def work() -> None:
        barrier.wait()
        for _ in range(rounds):
            (check,) = _check(contract, text).checks
            with lock:
                codes.append(check.code)

    workers = [threading.Thread(target=work) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert len(codes) == threads * rounds
    return [code for code in codes if code == "PATTERN_TIMEOUT"]


def test_other_threads_do_not_spend_a_checks_budget(tmp_path: Path) -> None:
    """A search that fits its budget alone fits it with three other threads searching.

    The budget is 2.5 times what the search costs this thread; with four threads sharing the
    CPUs, process CPU time runs about four times faster than one thread's, so a budget
    measured on the process clock ran out every time.
    """
    length, cost = _calibrated_length()
    timeout_ms = max(10, math.ceil(cost * 2500))
    contract = _contract(
        tmp_path,
        f"  - {{id: slow, type: ForbiddenPattern, timeout_ms: {timeout_ms}, "
        "patterns: ['(a|aa)+$']}\n",
    )
    text = "a" * length + "!"
    assert _timeouts(contract, text, threads=1, rounds=2) == []
    assert _timeouts(contract, text, threads=4, rounds=3) == []
