"""Workload W1 through textcontract, and the floor: the least work any correct engine does.

Timed region, the same for textcontract, the floor and the peer (``peer_w1.py``): for each
document, read its file, build the inputs, and run the check (or the floor's work). The
contract (or compiled patterns) and the context are built once, before timing. Each run
reports its seconds; the caller takes the median.

W1's document per file: surface ``title`` = its first 200 characters, surface ``body`` =
all of it with the claim ``order.total = 19.99``; context ``{"order.status": "shipped",
"order.total": 19.99}`` with history ``["Thanks for your order."]``.
"""

from __future__ import annotations

import time
import unicodedata
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import regex

W1_STATE: dict[str, Any] = {"order.status": "shipped", "order.total": 19.99}
W1_HISTORY = ["Thanks for your order."]
TITLE_CHARS = 200


def _read(path: str) -> str:
    with open(path, encoding="utf-8") as stream:
        return stream.read()


def _timed_runs(one_pass: Callable[[], int], repeat: int) -> tuple[list[float], int]:
    runs: list[float] = []
    result = 0
    for _ in range(repeat):
        started = time.perf_counter()
        result = one_pass()
        runs.append(time.perf_counter() - started)
    return runs, result


def textcontract_runs(
    files: Sequence[str], contract_path: str, repeat: int
) -> tuple[list[float], int]:
    """W1 through ``textcontract``; the result is the number of accepted documents."""
    import textcontract
    from textcontract import Context, Document, Surface

    contract = textcontract.load_contract(Path(contract_path))
    context = Context.from_json({"states": {"current": W1_STATE}, "history": W1_HISTORY})
    claims = {"order.total": 19.99}

    def one_pass() -> int:
        accepted = 0
        for path in files:
            text = _read(path)
            document = Document(
                (Surface("title", text[:TITLE_CHARS]), Surface("body", text, claims=claims))
            )
            accepted += contract.check(document, context).accepted
        return accepted

    return _timed_runs(one_pass, repeat)


# --- the floor ---------------------------------------------------------------------------
# Per document: read; the `text` profile (NFKC, casefold, NFC) of body and title once; the
# `folded` profile of the body once (NFD, drop Mn, NFC); word tokens of body and title once;
# one search per word pattern on the folded body. No engine can do less and stay correct.

_TOKEN = regex.compile(r"\w+(?:['’]\w+)*")
_MARKS = regex.compile(r"\p{Mn}+")


def _text_profile(raw: str) -> str:
    return unicodedata.normalize("NFC", unicodedata.normalize("NFKC", raw).casefold())


def _folded_profile(text: str) -> str:
    return unicodedata.normalize("NFC", _MARKS.sub("", unicodedata.normalize("NFD", text)))


def _word_tokens(text: str) -> list[str]:
    return [token for token in _TOKEN.findall(text) if any(c.isalpha() for c in token)]


def floor_runs(
    files: Sequence[str], word_list: Sequence[str], repeat: int
) -> tuple[list[float], int]:
    """The floor's work on every document; the result is a checksum of what it computed."""
    patterns = [regex.compile(rf"\b{word}\b", regex.IGNORECASE) for word in word_list]

    def one_pass() -> int:
        checksum = 0
        for path in files:
            body = _read(path)
            title = body[:TITLE_CHARS]
            text_body, text_title = _text_profile(body), _text_profile(title)
            folded_body = _folded_profile(text_body)
            checksum += len(set(_word_tokens(text_body))) + len(set(_word_tokens(text_title)))
            for pattern in patterns:
                if pattern.search(folded_body, timeout=1.0):
                    checksum += 1
        return checksum

    return _timed_runs(one_pass, repeat)
