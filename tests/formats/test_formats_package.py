"""Renderers render: ``textcontract.formats`` imports no engine code (only the model and the
ground modules), and the CI formats need neither rich nor the ``jinja`` extra."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import textcontract.formats

PACKAGE = Path(textcontract.formats.__file__).parent
ALLOWED = (
    "textcontract.formats",
    "textcontract.model",
    "textcontract.canonical",
    "textcontract._version",
)
CI_FORMATS = (
    "sarif",
    "check_junit",
    "audit_junit",
    "github",
    "check_markdown",
    "audit_markdown",
    "audit_html",
)


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.append(node.module)
        elif isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
    return found


@pytest.mark.parametrize("path", sorted(PACKAGE.glob("*.py")), ids=lambda p: p.name)
def test_a_format_imports_only_formats_model_and_ground(path: Path) -> None:
    wrong = [
        module
        for module in _imports(path)
        if module.startswith("textcontract") and not module.startswith(ALLOWED)
    ]
    assert wrong == []


def test_the_ci_formats_load_neither_rich_nor_jinja() -> None:
    script = (
        "import sys\n"
        + "".join(f"import textcontract.formats.{name}\n" for name in CI_FORMATS)
        + "print(sorted(m for m in sys.modules if m.startswith(('rich', 'jinja2'))))\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert completed.stdout.strip() == "[]"
