"""Meta-tests: the public surface and the architecture rule of ``textcontract.strength``."""

from __future__ import annotations

import ast
from pathlib import Path

import textcontract.strength as strength

PACKAGE = Path(strength.__file__).parent
ALLOWED_IMPORTS = (
    "textcontract.errors",
    "textcontract.canonical",
    "textcontract.fields",
    "textcontract._version",
    "textcontract._engine",
    "textcontract.model",
    "textcontract.strength",
)
"""Ground and model only: never text, rules, engine, contract, audit, nor the JSON/YAML readers."""
FILE_MODULES = {"io", "os", "pathlib", "shutil", "tempfile", "glob", "mmap"}
FILE_METHODS = {"open", "read_text", "read_bytes", "write_text", "write_bytes", "iterdir", "glob"}


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


def _file_access(path: Path) -> set[str]:
    """Every way ``path`` could read or write a file: file modules, ``open()``, path methods."""
    found = {f"import {module}" for module in _imported_modules(path) if module in FILE_MODULES}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        if isinstance(node.func, ast.Name) and node.func.id == "open":
            found.add(f"line {node.lineno}: open()")
        if isinstance(node.func, ast.Attribute) and node.func.attr in FILE_METHODS:
            found.add(f"line {node.lineno}: .{node.func.attr}()")
    return found


def test_strength_reads_no_files() -> None:
    """Files are read by :mod:`textcontract.strength_files`; strength scores what it is given."""
    offending = {
        f"{path.name}: {found}" for path in PACKAGE.glob("*.py") for found in _file_access(path)
    }
    assert offending == set()


def test_the_file_rule_sees_a_file_read(tmp_path: Path) -> None:
    module = tmp_path / "reads.py"
    module.write_text("import pathlib\nopen('x')\npathlib.Path('y').read_text()\n")
    assert _file_access(module) == {"import pathlib", "line 2: open()", "line 3: .read_text()"}


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
