"""The README's examples run as written: its Python blocks, and its console blocks' output."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.doc_examples import command_environment, console_commands, fenced_blocks
from textcontract.testing import ContractFixture

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
PYTHON_BLOCKS = fenced_blocks(README, "python")
CONSOLE_BLOCKS = fenced_blocks(README, "console")


def test_the_readme_has_the_examples_this_file_runs() -> None:
    assert len(PYTHON_BLOCKS) >= 3
    assert len(CONSOLE_BLOCKS) >= 4


@pytest.mark.parametrize("block", PYTHON_BLOCKS, ids=lambda block: block.split("\n", 1)[0])
def test_every_python_block_runs_as_written(
    block: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(ROOT)
    namespace: dict[str, object] = {"__name__": "readme"}
    exec(compile(block, "README.md", "exec"), namespace)
    for name, value in namespace.items():
        if name.startswith("test_") and callable(value):
            value(ContractFixture())  # a pytest example: it holds with the fixture's object
    if "report" in namespace and "rendered" in namespace:
        out = capsys.readouterr().out
        assert '"accepted": true' in out
        assert '"source": "order-1001"' in out


@pytest.mark.parametrize(
    ("command", "expected"),
    [pair for block in CONSOLE_BLOCKS for pair in console_commands(block)],
    ids=lambda value: value[:60],
)
def test_every_console_block_shows_what_the_command_prints(command: str, expected: str) -> None:
    completed = subprocess.run(
        ["bash", "-c", command],
        cwd=ROOT,
        env=command_environment(),
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert completed.stderr == ""
    assert completed.stdout == expected


def test_the_readme_runs_the_tests_with_the_workers_ci_uses() -> None:
    """The development command and `.ci/run` start pytest alike: ``-q -n N``, the same N."""
    ci_script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    pytest_run = re.compile(r"-m pytest -q -n (\S+)")
    in_readme = pytest_run.findall(README)
    in_ci = pytest_run.findall(ci_script)
    assert len(in_readme) == len(in_ci) == 1
    assert in_readme == in_ci
