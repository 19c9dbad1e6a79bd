"""``textcontract.audit`` exports exactly its ``__all__``, and imports no CLI or renderer."""

from __future__ import annotations

import inspect
import subprocess
import sys

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
