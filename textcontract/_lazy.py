"""Package attributes imported on first access (PEP 562).

``import textcontract`` and ``import textcontract.testing`` load nothing but this: the pytest
plugin (registered for every project that installs textcontract) costs other test suites
nothing at start-up, and ``pytest --cov`` sees textcontract's modules imported after
measuring begins.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_exports"]


def lazy_exports(
    package: str, exports: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for ``package``, whose name ``N`` lives in ``exports[N]``.

    A resolved name is stored in the package's namespace, so it is looked up once.
    """

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *exports})

    return __getattr__, __dir__
