"""text/markup knows strings only: it imports no room above text, and no parser up front."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import textcontract.text.markup as markup

PACKAGE = Path(markup.__file__).parent
ALLOWED = ("textcontract.text", "markdown_it", "mdit_py_plugins")


def test_markup_imports_strings_only() -> None:
    for path in sorted(PACKAGE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            for name in names:
                if name.startswith("textcontract") or name.split(".")[0] in (
                    "markdown_it",
                    "mdit_py_plugins",
                ):
                    assert name.startswith(ALLOWED), f"{path.name} imports {name}"


def test_importing_markup_loads_no_parser() -> None:
    script = (
        "import json, sys, textcontract.text.markup\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith(('markdown_it', "
        "'mdit_py_plugins', 'html.parser')))))\n"
    )
    found = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert json.loads(found.stdout) == []
