"""``textcontract.audit`` exports exactly its ``__all__``, imports no CLI or renderer, and its
rooms (reading → results → running) import one way, through their faces."""

from __future__ import annotations

import ast
import inspect
import subprocess
import sys
from pathlib import Path

import pytest

import textcontract.audit


def test_all_names_the_public_api() -> None:
    exported = {
        name
        for name, value in vars(textcontract.audit).items()
        if not name.startswith("_") and not inspect.ismodule(value)
    }
    assert set(textcontract.audit.__all__) == exported
    assert textcontract.audit.__all__ == sorted(textcontract.audit.__all__)


def test_the_library_imports_neither_the_cli_nor_scipy_up_front() -> None:
    script = (
        "import sys, textcontract.audit\n"
        "loaded = [m for m in sys.modules if m.startswith(('textcontract.cli', 'scipy', "
        "'textcontract.formats'))]\n"
        "print(loaded)\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert completed.stdout.strip() == "[]"


_LAYERS = ("reading", "results", "running")
"""The audit's rooms, ground first: each imports only rooms before it, and only their face."""


def _audit_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        and node.module is not None
        and node.module.startswith("textcontract.audit.")
    ]


@pytest.mark.parametrize("room", _LAYERS)
def test_audit_rooms_import_one_way_and_only_faces(room: str) -> None:
    package = Path(textcontract.audit.__file__).parent
    allowed = _LAYERS[: _LAYERS.index(room)]
    wrong = []
    for path in sorted((package / room).glob("*.py")):
        for module in _audit_imports(path):
            parts = module.split(".")
            other = parts[2]
            if other == room:
                continue
            if other not in allowed or len(parts) > 3:
                wrong.append(f"{path.name}: {module}")
    assert wrong == []


def test_outside_rooms_import_the_audit_face_only() -> None:
    package = Path(textcontract.audit.__file__).parent.parent
    wrong = [
        f"{path.relative_to(package)}: {module}"
        for path in sorted(package.rglob("*.py"))
        if "audit" not in path.relative_to(package).parts
        for module in _audit_imports(path)
    ]
    assert wrong == []
