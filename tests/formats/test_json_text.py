"""The one JSON writer: whole or streamed, the bytes ``json.dumps(indent=2)`` gives."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from textcontract._engine import engine_json
from textcontract._version import __version__
from textcontract.formats.json_text import dumps_compact, dumps_pretty, write_pretty

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "audit" / "golden-mutations-report.json"

KEYS = st.text(max_size=4) | st.sampled_from(["", '"', "\\", "\n", "é", "\u2028", "\x00", "😀"])
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6)
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.lists(inner, max_size=3).map(tuple)
        | st.dictionaries(KEYS, inner, max_size=4)
    ),
    max_leaves=20,
)


def _streamed(value: Any, draw: Any) -> Any:
    """``value`` with some of its lists (and tuples) turned into one-pass iterators."""
    if isinstance(value, dict):
        return {key: _streamed(item, draw) for key, item in value.items()}
    if isinstance(value, list | tuple):
        items = [_streamed(item, draw) for item in value]
        return iter(items) if draw(st.booleans()) else items
    return value


def _written(value: Any, chunks: list[str] | None = None) -> str:
    parts = [] if chunks is None else chunks
    write_pretty(value, parts.append)
    return "".join(parts)


def _reference(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2, allow_nan=False) + "\n"


@settings(max_examples=300, deadline=None)
@given(VALUES)
def test_the_writer_is_json_dumps(value: Any) -> None:
    assert _written(value) == _reference(value) == dumps_pretty(value)


@settings(max_examples=200, deadline=None)
@given(st.data(), VALUES)
def test_lists_fed_from_iterators_give_the_same_bytes(data: st.DataObject, value: Any) -> None:
    streamed = _streamed(value, data.draw)
    assert _written(streamed) == _reference(value)


ODD_KEYS = (
    st.integers() | st.booleans() | st.none() | st.floats(allow_nan=False, allow_infinity=False)
)


@given(st.dictionaries(ODD_KEYS, SCALARS, max_size=4))
def test_non_string_keys_are_written_as_json_writes_them(value: dict[Any, Any]) -> None:
    assert _written(value) == _reference(value)


def test_an_iterator_is_read_once_and_as_it_is_written() -> None:
    seen: list[int] = []

    def items() -> Iterator[dict[str, int]]:
        for index in range(1000):
            seen.append(index)
            yield {"index": index}

    chunks: list[str] = []
    progress: list[int] = []

    def write(text: str) -> None:
        chunks.append(text)
        progress.append(len(seen))

    write_pretty({"head": 1, "items": items(), "tail": []}, write)
    assert seen == list(range(1000))
    assert len(chunks) > 3  # written in blocks while the iterator still had items to give
    assert progress[0] < 1000
    assert "".join(chunks) == _reference(
        {"head": 1, "items": [{"index": i} for i in range(1000)], "tail": []}
    )


@pytest.mark.parametrize(
    "value", [math.nan, math.inf, -math.inf, {"a": [math.nan]}, {math.inf: 1}, iter([math.nan])]
)
def test_non_finite_numbers_are_refused_like_json(value: Any) -> None:
    with pytest.raises(ValueError, match="not JSON compliant"):
        _written(value)
    if not isinstance(value, Iterator):
        with pytest.raises(ValueError, match="not JSON compliant"):
            dumps_pretty(value)


def test_values_json_cannot_write_are_refused() -> None:
    with pytest.raises(TypeError, match="not JSON serializable"):
        _written({"a": {1, 2}})
    with pytest.raises(TypeError, match="keys must be"):
        _written({(1, 2): 3})


def test_compact_form() -> None:
    assert dumps_compact({"a": [1, "é"], "b": None}) == '{"a":[1,"é"],"b":null}'


def test_the_shipped_corpus_report_is_unchanged() -> None:
    """``textcontract audit fixtures/mutations --format json`` gives the golden bytes.

    The golden copy was first written by 0.1's report writer (which cut pre-rendered text
    at placeholders), then regenerated for the version-2 report (SPEC §17; 0.1's report is
    kept in tests/strength/v1/). The engine version is in it, and in the preflight digest, so
    a new version regenerates it too. If the corpus or the contract is changed on purpose:
    ``textcontract audit fixtures/mutations --format json > tests/audit/golden-…json``.
    """
    ran = subprocess.run(
        [sys.executable, "-m", "textcontract", "audit", "fixtures/mutations", "--format", "json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert ran.returncode in (0, 1), ran.stderr
    golden = GOLDEN.read_text(encoding="utf-8")
    assert f'"version": "{__version__}"' in golden, "regenerate it for this version (above)"
    assert ran.stdout == with_this_engine(golden)


def with_this_engine(report: str) -> str:
    """A pretty-printed report whose ``engine.unicode`` (SPEC §20) is this environment's: the
    golden bytes stay the same under another Python or regex."""
    recorded = json.loads(report)["engine"]

    def block(engine: Any) -> str:
        return json.dumps(engine, ensure_ascii=False, indent=2).replace("\n", "\n  ")

    current = engine_json(recorded.get("icu"))
    written = f'"engine": {block(recorded)}'
    assert written in report, "the report's engine block is not where it is expected"
    return report.replace(written, f'"engine": {block(current)}', 1)
