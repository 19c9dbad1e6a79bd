"""Session fixtures for the CI format tests: one headless Chromium, one SARIF Multitool.

Both are real programs, used as people use them. Outside CI a missing one skips the tests
that need it, with a reason that says how to get it; under CI (``CI`` set, as ``.ci/run``
runs) it fails them, since ``.ci/run`` installs both.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.formats.chromium import Browser, Page, chromium_path, launch

ROOT = Path(__file__).resolve().parents[2]
MULTITOOL_PACKAGE = "@microsoft/sarif-multitool@5.7.0"


def _missing(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI must have it: .ci/run installs it)")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    executable = chromium_path()
    if executable is None:
        _missing("Debian's chromium is not installed (apt-get install -y chromium)")
    assert executable is not None
    with launch(executable) as running:
        yield running


@pytest.fixture
def page(browser: Browser) -> Page:
    return browser.page


def _multitool_in(prefix: Path) -> Path:
    return prefix / "node_modules" / ".bin" / "sarif-multitool"


@pytest.fixture(scope="session")
def sarif_multitool() -> Path:
    """The SARIF Multitool from the npm cache ``.ci/run`` fills (installed there if absent)."""
    prefix = Path(os.environ.get("TEXTCONTRACT_NPM_CACHE", ROOT / ".ci" / "npm"))
    tool = _multitool_in(prefix)
    if tool.exists():
        return tool
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        _missing("node and npm are needed to install the SARIF Multitool")
    assert npm is not None
    subprocess.run(
        [npm, "install", "--prefix", str(prefix), "--no-audit", "--no-fund", MULTITOOL_PACKAGE],
        check=True,
        capture_output=True,
        timeout=600,
    )
    return tool
