"""Writing the CI formats (SPEC §12): where their text goes, and GitHub's job summary.

The formats render into a ``write`` callable (``cli._output.output_sink``: ``--output``
replaced atomically, else standard output). With ``--format github`` a Markdown summary is
appended to the file ``GITHUB_STEP_SUMMARY`` names, when it names one.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from textcontract.errors import InputError

__all__ = ["STEP_SUMMARY", "Write", "append_step_summary"]

STEP_SUMMARY = "GITHUB_STEP_SUMMARY"

Write = Callable[[str], object]


def append_step_summary(markdown: str) -> None:
    """Append ``markdown`` to the job summary file, when ``GITHUB_STEP_SUMMARY`` names one."""
    path = os.environ.get(STEP_SUMMARY, "")
    if not path:
        return
    try:
        with open(path, "a", encoding="utf-8", newline="\n") as summary:
            summary.write(markdown if markdown.endswith("\n") else markdown + "\n")
    except OSError as exc:
        raise InputError.at(
            f"cannot append the job summary: {exc.strerror or exc}", f"{STEP_SUMMARY}={path}"
        ) from None
