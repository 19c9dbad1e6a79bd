"""The "icu4py is not installed" path, simulated (not a test module)."""

from __future__ import annotations

import sys

import pytest

ICU4PY_MODULES = ("icu4py", "icu4py.breakers", "icu4py._version")


def hide_icu4py(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``import icu4py`` and its modules fail, as where the ``icu`` extra is missing."""
    for name in ICU4PY_MODULES:
        monkeypatch.setitem(sys.modules, name, None)


HIDE_ICU4PY_SCRIPT = f"import sys\nfor name in {ICU4PY_MODULES!r}:\n    sys.modules[name] = None\n"
"""The same, as the first lines of a ``python -c`` script."""
