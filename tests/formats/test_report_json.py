"""``check --format json|jsonl`` put together from per-report texts: the bytes of json.dumps."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from textcontract.formats.report_json import json_document, json_item, jsonl_line, write_texts

KEYS = st.text(max_size=4) | st.sampled_from(["", '"', "\\", "\n", "\r\n", "é", "\u2028"])
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**20), max_value=10**20)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6)
    | st.sampled_from(["\n", "a\nb", "  \n  ", "\\n", "\u2029"])
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4),
    max_leaves=20,
)
REPORTS = st.lists(st.dictionaries(KEYS, VALUES, max_size=5), max_size=5)


class _Report:
    """Stands in for a Report: all the renderers use is ``to_dict()``."""

    def __init__(self, value: dict[str, Any]) -> None:
        self.value = value

    def to_dict(self) -> dict[str, Any]:
        return self.value


def _joined(texts: list[str], array: bool) -> str:
    parts: list[str] = []
    write_texts(texts, array, parts.append)
    return "".join(parts)


@settings(max_examples=300)
@given(REPORTS)
def test_the_array_of_items_is_what_json_dumps_writes(reports: list[dict[str, Any]]) -> None:
    texts = [json_item(_Report(report)) for report in reports]  # type: ignore[arg-type]
    expected = json.dumps(reports, ensure_ascii=False, indent=2, allow_nan=False) + "\n"
    assert _joined(texts, array=True) == expected


@settings(max_examples=200)
@given(REPORTS)
def test_lines_and_one_document_are_what_json_dumps_writes(reports: list[dict[str, Any]]) -> None:
    lines = [jsonl_line(_Report(report)) for report in reports]  # type: ignore[arg-type]
    compact = [json.dumps(r, ensure_ascii=False, separators=(",", ":")) for r in reports]
    assert _joined(lines, array=False) == "".join(line + "\n" for line in compact)
    for report in reports:
        document = json_document(_Report(report))  # type: ignore[arg-type]
        assert document == json.dumps(report, ensure_ascii=False, indent=2) + "\n"


def test_an_empty_array_and_a_one_item_array() -> None:
    assert _joined([], array=True) == "[]\n"
    item = json_item(_Report({"a": [1, {"b": "x\ny"}]}))  # type: ignore[arg-type]
    assert _joined([item], array=True) == (
        '[\n  {\n    "a": [\n      1,\n      {\n        "b": "x\\ny"\n      }\n    ]\n  }\n]\n'
    )
