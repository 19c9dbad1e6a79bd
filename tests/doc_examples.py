"""Reading a documentation page's examples, for the tests that run them as written."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path


def fenced_blocks(page: str, language: str) -> list[str]:
    """The bodies of the page's fenced blocks of ``language``, in order."""
    return re.findall(rf"^```{language}\n(.*?)^```$", page, re.MULTILINE | re.DOTALL)


def console_commands(block: str) -> list[tuple[str, str]]:
    """``(command, expected output)`` for every ``$ command`` line of a console block."""
    pairs: list[tuple[str, str]] = []
    for line in block.splitlines(keepends=True):
        if line.startswith("$ "):
            pairs.append((line[2:].rstrip("\n"), ""))
        elif pairs:
            pairs[-1] = (pairs[-1][0], pairs[-1][1] + line)
    return pairs


def command_environment() -> dict[str, str]:
    """The environment a page's commands run in: 80 columns, this Python's scripts first,
    no GitHub step summary."""
    env = dict(os.environ, COLUMNS="80")
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    env.pop("GITHUB_STEP_SUMMARY", None)
    return env
