"""What a command line imports (SPEC §21 "Help is instant", issue 28): help pages load no
library code, no YAML or regex reader and no pydantic; a plain ``check`` loads neither the
CLI framework nor the rooms and modules it does not use. Module sets, never times: the
times are benchmarks/run.py's (``--only help,cold``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from textcontract.cli._app import COMMAND_MODULES

ORDERS = Path(__file__).resolve().parents[2] / "fixtures" / "orders"

# What no help page needs: the library's rooms (the command modules import them when their
# command runs), the readers of contracts and patterns, and typer's optional helpers.
_NOT_FOR_HELP = (
    "regex",
    "yaml",
    "re2",
    "rich",
    "pydantic",
    "pydantic_core",
    "jinja2",
    "textcontract.audit",
    "textcontract.contract",
    "textcontract.engine",
    "textcontract.inputs",
    "textcontract.model",
    "textcontract.rules",
    "textcontract.strength",
    "textcontract.text",
    "textcontract.mutate",
    "textcontract.authoring",
    "textcontract.lineage",
)

# What a plain ``check`` of one short document with the json format never uses: among them
# the prefilter's RE2 and pattern reader (built once a contract has searched enough text),
# the schema, the rule packs' resource reader, did-you-mean (for misspellings only), shutil
# with its compressors (the text format's terminal width) and the lineage reader (for a
# contract with ``lineage:``).
_NOT_FOR_CHECK = (
    "re2",
    "textcontract.text._regex_literals",
    "textcontract.contract._jsonschema",
    "textcontract.contract._lineage",
    "importlib.resources",
    "tempfile",
    "difflib",
    "shutil",
    "bz2",
    "lzma",
    "typer",
    "click",
    "rich",
    "pydantic",
    "jinja2",
    "multiprocessing",
    "concurrent",
    "textcontract.audit",
    "textcontract.strength",
    "textcontract.mutate",
    "textcontract.authoring",
    "textcontract.lineage",
    "textcontract.render",
    "textcontract.cli._app",
    "textcontract.formats.report_text",
)


def _within(modules: set[str], roots: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if any(m == r or m.startswith(r + ".") for r in roots))


def _imported(arguments: list[str]) -> tuple[set[str], subprocess.CompletedProcess[str]]:
    """The modules ``python -X importtime -m textcontract ARGUMENTS`` imports."""
    completed = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "textcontract", *arguments],
        capture_output=True,
        text=True,
        check=False,
    )
    modules = {
        line.split("|")[2].strip()
        for line in completed.stderr.splitlines()
        if line.startswith("import time:") and "self [us]" not in line
    }
    return modules, completed


# Runs every help page in one interpreter, in turn, and prints what each one imported.
_EVERY_PAGE = """
import contextlib, io, json, sys
from textcontract.cli import main
imported = {}
for arguments in json.loads(sys.argv[1]):
    sys.argv = ["textcontract", *arguments]
    before = set(sys.modules)
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            main()
        except SystemExit:
            pass
    imported[" ".join(arguments)] = sorted(set(sys.modules) - before)
print(json.dumps(imported))
"""


def test_the_help_page_imports_no_library_code() -> None:
    modules, completed = _imported(["--help"])
    assert completed.returncode == 0
    assert "Commands:" in completed.stdout
    assert _within(modules, _NOT_FOR_HELP) == []


def test_every_command_help_imports_no_library_code() -> None:
    pages = [["-h"], ["-V"], *([command, "-h"] for command in sorted(COMMAND_MODULES))]
    pages.append(["check", "--version"])
    completed = subprocess.run(
        [sys.executable, "-c", _EVERY_PAGE, json.dumps(pages)],
        capture_output=True,
        text=True,
        check=True,
    )
    imported: dict[str, list[str]] = json.loads(completed.stdout.splitlines()[-1])
    assert sorted(imported) == sorted(" ".join(page) for page in pages)
    found = {page: _within(set(modules), _NOT_FOR_HELP) for page, modules in imported.items()}
    assert found == {page: [] for page in imported}


def test_a_plain_check_imports_only_what_it_uses() -> None:
    modules, completed = _imported(
        [
            "check",
            str(ORDERS / "order-1001.md"),
            "--context",
            str(ORDERS / "order-1001.context.json"),
            "--contract",
            str(ORDERS / "textcontract.yaml"),
            "--format",
            "json",
        ]
    )
    assert completed.returncode == 0, completed.stderr[-2000:]
    assert json.loads(completed.stdout)["accepted"] is True
    assert _within(modules, _NOT_FOR_CHECK) == []
    assert {"textcontract.cli._fast", "textcontract.engine", "regex", "yaml"} <= modules
