"""Optional extras are never imported by ``import textcontract`` (nor by its CLI's check)."""

from __future__ import annotations

import subprocess
import sys

import pytest

HEAVY = ("dask", "distributed", "pandas", "pyarrow", "numpy", "jinja2")


@pytest.mark.parametrize(
    "statement",
    [
        "import textcontract",
        "import textcontract; textcontract.load_contract",
        "import textcontract.audit",
        "import textcontract.dask",  # the adapter imports dask only when a function runs
    ],
)
def test_no_optional_extra_is_imported(statement: str) -> None:
    probe = f"{statement}\nimport sys\nprint(sorted(m for m in {HEAVY!r} if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
