"""``textcontract.mutate`` exports its ``__all__``, stands beside the audit (imports only rooms
below it), and ``import textcontract`` does not import it."""

from __future__ import annotations

import ast
import inspect
import subprocess
import sys
from pathlib import Path

import textcontract.mutate

PACKAGE = Path(textcontract.mutate.__file__).parent
_ALLOWED = (
    "textcontract._plugins",
    "textcontract._version",
    "textcontract._yaml",
    "textcontract._json",
    "textcontract.canonical",
    "textcontract.errors",
    "textcontract.fields",
    "textcontract.model",
    "textcontract.text",
    "textcontract.rules",
    "textcontract.contract",
    "textcontract.engine",
    "textcontract.mutate",
)


def test_all_names_the_public_api() -> None:
    exported = {
        name
        for name, value in vars(textcontract.mutate).items()
        if not name.startswith("_") and not inspect.ismodule(value)
    }
    assert set(textcontract.mutate.__all__) == exported


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.append(node.module)
        elif isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
    return [name for name in found if name.startswith("textcontract")]


def test_mutate_imports_only_the_rooms_below_it() -> None:
    wrong = [
        f"{path.name}: {module}"
        for path in sorted(PACKAGE.glob("*.py"))
        for module in _imports(path)
        if not module.startswith(_ALLOWED)
        or (module.startswith("textcontract.rules.") or module.startswith("textcontract.text."))
    ]
    assert wrong == []


def test_no_other_room_of_the_library_imports_mutate() -> None:
    root = PACKAGE.parent
    wrong = [
        str(path.relative_to(root))
        for path in sorted(root.rglob("*.py"))
        if "mutate" not in path.relative_to(root).parts
        and path.name != "_mutate.py"
        and any(module.startswith("textcontract.mutate") for module in _imports(path))
    ]
    assert wrong == []


def test_import_textcontract_does_not_import_mutate() -> None:
    script = (
        "import sys, textcontract, textcontract.audit\n"
        "textcontract.load_contract('fixtures/orders/textcontract.yaml')\n"
        "print([m for m in sys.modules if m.startswith('textcontract.mutate')])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        cwd=PACKAGE.parents[1],
    )
    assert done.stdout.strip() == "[]"


def test_every_operator_module_documents_its_validity() -> None:
    for operator in textcontract.mutate.BUILTIN_OPERATORS:
        module = sys.modules[operator.__module__]
        doc = module.__doc__ or ""
        assert doc.startswith(f"{operator.name}:"), operator.name
        assert "Valid by construction" in doc, operator.name
        assert "Where it is not" in doc, operator.name
        assert Path(module.__file__ or "").stem == operator.name.replace("-", "_")
