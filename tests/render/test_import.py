"""Jinja2 is optional: ``import textcontract`` never imports it; ``textcontract.render``
without it fails with one line naming the extra."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_BLOCK_JINJA = "import sys; sys.modules['jinja2'] = None; sys.modules['markupsafe'] = None\n"


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
        cwd=ROOT,
    )


def test_importing_textcontract_does_not_import_jinja2() -> None:
    done = _python(
        "import sys, textcontract, textcontract.rules, textcontract.engine, textcontract.cli\n"
        "textcontract.load_contract('fixtures/render/textcontract.yaml')\n"
        "assert 'jinja2' not in sys.modules, 'jinja2 imported'\n"
        "assert 'textcontract.render' not in sys.modules\n"
    )
    assert done.returncode == 0, done.stderr


def test_textcontract_works_without_jinja2() -> None:
    done = _python(
        _BLOCK_JINJA + "import textcontract\n"
        "report = textcontract.load_contract('fixtures/render/textcontract.yaml')"
        ".check({'surfaces': {'body': 'Total: 59.90'}}, {})\n"
        "print(len(report.checks))\n"
    )
    assert done.returncode == 0, done.stderr


def test_importing_render_without_jinja2_names_the_extra_in_one_line() -> None:
    done = _python(_BLOCK_JINJA + "import textcontract.render\n")
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last == (
        "ImportError: textcontract.render needs Jinja2 >= 3.1: pip install 'textcontract[jinja]'"
    )
    message = _python(
        _BLOCK_JINJA
        + "try:\n    import textcontract.render\nexcept ImportError as e:\n    print(str(e))\n"
    )
    assert message.stdout.strip().count("\n") == 0
    assert "textcontract[jinja]" in message.stdout
