"""Reading a documentation page's examples, for the tests that run them as written."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

_EXIT = re.compile(r"#\s*exit (\d+)\b[^\n]*$")


def fenced_blocks(page: str, language: str) -> list[str]:
    """The bodies of the page's fenced blocks of ``language``, in order."""
    return re.findall(rf"^```{language}\n(.*?)^```$", page, re.MULTILINE | re.DOTALL)


def console_commands(block: str) -> list[tuple[str, str]]:
    """``(command, expected output)`` for every ``$ command`` line of a console block; a
    command line ending in ``\\`` goes on to the next line, as in a shell."""
    pairs: list[tuple[str, str]] = []
    continued = False
    for line in block.splitlines(keepends=True):
        if continued:
            pairs[-1] = (pairs[-1][0] + "\n" + line.rstrip("\n"), "")
        elif line.startswith("$ "):
            pairs.append((line[2:].rstrip("\n"), ""))
        elif pairs:
            pairs[-1] = (pairs[-1][0], pairs[-1][1] + line)
            continue
        else:
            continue
        continued = pairs[-1][0].endswith("\\")
    return pairs


def exit_code_named(command: str) -> int | None:
    """The exit code a command's ``# exit N`` comment names, if it has one."""
    found = _EXIT.search(command)
    return int(found.group(1)) if found else None


def shown_as(expected: str, printed: str) -> bool:
    """Whether ``printed`` is what a page shows as ``expected``, where ``…`` stands for any
    text left out (lines or part of one), as doctest's ELLIPSIS does."""
    pattern = ".*?".join(re.escape(piece) for piece in expected.split("…"))
    return re.fullmatch(pattern, printed, re.DOTALL) is not None


def command_environment() -> dict[str, str]:
    """The environment a page's commands run in: 80 columns, this Python's scripts first,
    no GitHub step summary."""
    env = dict(os.environ, COLUMNS="80")
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    env.pop("GITHUB_STEP_SUMMARY", None)
    return env
