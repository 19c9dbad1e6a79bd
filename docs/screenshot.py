"""Regenerate the README's picture of the HTML audit report (docs/audit-report.png).

Audits the shipped corpus (``fixtures/mutations``) into a self-contained HTML report, opens
it in Debian's headless Chromium through the same DevTools client the tests use, shows only
the undetected faults (a click on that filter, as a reader would) and saves the screenshot::

    python docs/screenshot.py            # from the repository root
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.formats.chromium import chromium_path, launch  # noqa: E402

TARGET = ROOT / "docs" / "audit-report.png"
WIDTH, HEIGHT = 1200, 2600


def main() -> int:
    executable = chromium_path()
    if executable is None:
        print("needs Debian's chromium: apt-get install -y chromium", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as folder:
        page_file = Path(folder) / "audit.html"
        subprocess.run(
            [
                sys.executable,
                "-m",
                "textcontract",
                "audit",
                "fixtures/mutations",
                "--format",
                "html",
                "--output",
                str(page_file),
            ],
            cwd=ROOT,
            check=True,
        )
        with launch(executable) as browser:
            page = browser.page
            page.call(
                "Emulation.setDeviceMetricsOverride",
                width=WIDTH,
                height=HEIGHT,
                deviceScaleFactor=1,
                mobile=False,
            )
            page.open(page_file.as_uri())
            page.click('#filters button[data-filter="undetected"]')
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(TARGET, WIDTH, HEIGHT)
            problems = page.problems()
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1
    print(f"wrote {TARGET.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
