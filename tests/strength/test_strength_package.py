"""Meta-tests: the public surface and the architecture rule of ``textcontract.strength``."""

from __future__ import annotations

import ast
from pathlib import Path

import textcontract.strength as strength

PACKAGE = Path(strength.__file__).parent
ALLOWED_IMPORTS = (
    "textcontract.errors",
    "textcontract.canonical",
    "textcontract._files",
    "textcontract._json",
    "textcontract._yaml",
    "textcontract._version",
    "textcontract.model",
    "textcontract.strength",
)


def _imported_modules(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            found.append(node.module)
    return found


def test_all_lists_exactly_the_public_names() -> None:
    public = {
        name
        for name, value in vars(strength).items()
        if not name.startswith("_")
        and getattr(value, "__module__", "").startswith(strength.__name__)
    }
    constants = {name for name in vars(strength) if name.isupper()}
    assert set(strength.__all__) == public | constants
    assert sorted(strength.__all__) == sorted(set(strength.__all__))
    for name in strength.__all__:
        assert hasattr(strength, name), name


def test_strength_imports_only_the_allowed_ground() -> None:
    offending = {
        f"{path.name}: {module}"
        for path in PACKAGE.glob("*.py")
        for module in _imported_modules(path)
        if module.startswith("textcontract") and not module.startswith(ALLOWED_IMPORTS)
    }
    assert offending == set()


def test_library_code_neither_prints_nor_exits() -> None:
    for path in PACKAGE.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        calls = {
            node.func.id
            for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        }
        assert not calls & {"print", "exit", "quit"}, path.name
        assert "sys" not in _imported_modules(path), path.name
