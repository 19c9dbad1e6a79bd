"""Meta-tests: the public face of ``textcontract.render`` and its place in the architecture."""

from __future__ import annotations

import ast
from pathlib import Path

import textcontract.render as render_package

PACKAGE = Path(render_package.__file__).parent
# render/ produces Documents: it stands on the model and the ground, nothing else of ours.
ALLOWED = ("textcontract.errors", "textcontract.model", "textcontract.render")
THIRD_PARTY = ("jinja2", "markupsafe")


def _imports(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            found.append(node.module)
    return found


def test_render_imports_only_model_and_ground() -> None:
    offending = {
        f"{path.name}: {module}"
        for path in PACKAGE.glob("*.py")
        for module in _imports(path)
        if module.startswith("textcontract") and not module.startswith(ALLOWED)
    }
    assert offending == set()


def test_nothing_outside_render_imports_jinja2() -> None:
    root = PACKAGE.parent
    offending = {
        str(path.relative_to(root))
        for path in root.rglob("*.py")
        if PACKAGE not in path.parents
        for module in _imports(path)
        if module.startswith(THIRD_PARTY) or module.startswith("textcontract.render")
    }
    assert offending == set()


def test_public_face() -> None:
    assert render_package.__all__ == [
        "ClaimExtension",
        "RenderError",
        "claim",
        "claims_environment",
        "environment",
        "render",
        "render_async",
    ]
    for name in render_package.__all__:
        assert getattr(render_package, name).__module__.startswith("textcontract.render")


def test_library_code_neither_prints_nor_exits() -> None:
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in {"print", "exit", "quit"}, path.name
