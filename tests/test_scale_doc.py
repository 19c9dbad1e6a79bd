"""docs/scale.md's recipes print what the page shows.

Its console blocks run in order, as a user would type them, in one scratch copy of the
shipped ``fixtures/`` (later blocks read the parts earlier ones wrote): each command's output
(stdout and stderr together) must be the lines the page shows under it, and its exit code
the one its ``# exit N`` comment names (0 without one). The Dask example runs as a script
on the LocalCluster it starts and must print the page's ``prints`` block.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.doc_examples import (
    command_environment,
    console_commands,
    exit_code_named,
    fenced_blocks,
)

ROOT = Path(__file__).resolve().parents[1]
PAGE = (ROOT / "docs" / "scale.md").read_text(encoding="utf-8")
CONSOLE_BLOCKS = fenced_blocks(PAGE, "console")


def _expected_exit(command: str) -> int:
    return exit_code_named(command) or 0


def _scratch(tmp_path: Path) -> Path:
    for name in ("mutations", "orders", "production", "preflight"):
        shutil.copytree(ROOT / "fixtures" / name, tmp_path / name)
    return tmp_path


RUN_BLOCKS = [block for block in CONSOLE_BLOCKS if "pip install" not in block]


def test_the_page_has_the_recipes_this_file_runs() -> None:
    commands = [command for block in RUN_BLOCKS for command, _ in console_commands(block)]
    assert any("--cache" in command for command in commands)
    assert any("--shard" in command for command in commands)
    assert sum(command.startswith("textcontract merge") for command in commands) >= 5
    assert any(_expected_exit(command) == 4 for command in commands)
    assert any(_expected_exit(command) == 5 for command in commands)


def test_every_console_block_prints_what_the_page_shows(tmp_path: Path) -> None:
    folder = _scratch(tmp_path)
    env = command_environment()
    for block in RUN_BLOCKS:
        for command, expected in console_commands(block):
            completed = subprocess.run(
                ["bash", "-c", command],
                cwd=folder,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                check=False,
                timeout=300,
            )
            assert (command, completed.stdout) == (command, expected)
            assert (command, completed.returncode) == (command, _expected_exit(command))


def _dask_example() -> tuple[str, str]:
    """The page's Python block and the ``prints`` text block after it."""
    found = re.search(
        r"^```python\n(.*?)^```$\n\nprints\n\n^```text\n(.*?)^```$",
        PAGE,
        re.MULTILINE | re.DOTALL,
    )
    assert found is not None
    return found.group(1), found.group(2)


@pytest.mark.dask_cluster
def test_the_dask_example_prints_what_the_page_shows(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    source, expected = _dask_example()
    folder = _scratch(tmp_path)
    script = folder / "example.py"
    script.write_text(source, encoding="utf-8")
    completed = subprocess.run(
        [sys.executable, str(script)],
        cwd=folder,
        env=command_environment(),
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout == expected
