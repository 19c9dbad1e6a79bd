"""Every Python example of docs/renderers.md runs, in order, as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "renderers.md"
_BLOCK = re.compile(r"^```python\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def test_renderers_doc_has_examples_of_each_renderer() -> None:
    text = DOC.read_text(encoding="utf-8")
    blocks = _BLOCK.findall(text)
    assert len(blocks) >= 5
    joined = "\n".join(blocks)
    for needed in ("render(", "def compose(", "llm_rewrite", "search: true"):
        assert needed in joined


def test_renderers_doc_examples_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    namespace: dict[str, object] = {"__name__": "renderers_doc"}
    for index, block in enumerate(_BLOCK.findall(DOC.read_text(encoding="utf-8"))):
        code = compile(block, f"docs/renderers.md[python block {index}]", "exec")
        exec(code, namespace)
