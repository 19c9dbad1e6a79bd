"""A fast path for the hot command: ``textcontract check …``.

Starting typer (with click, pydantic and rich) costs more than loading a contract and
checking a document, so :func:`main` first offers the arguments to :func:`fast_check`.
It accepts only plain invocations — ``check``, document paths (files, folders, ``-`` for
standard input), ``--context``, ``--contract``/``-c``, ``--format``/``-f`` (one of the
formats), ``--output``/``-o``, ``--batch``, ``--stdin-format`` (``plain``, ``markdown``,
``html`` or ``json``), ``--baseline``, ``--exclude`` (repeatable), ``--sarif-output`` and
``--jobs``/``-j`` (a positive number) each with a value (``--name value`` or
``--name=value``), and the flags ``--verbose``/``-v`` and ``--quiet``/``-q`` — and runs the
same :func:`~textcontract.cli._check_run.run_check` the typer command runs (rich is
imported only to print text to a terminal). Anything else (help, another command, an
unknown or malformed option, a value that starts with ``-``, an output path ending in
``/``) returns ``None`` and typer parses the command line as always: the hand-over is for
parsing only.
Once the fast path has taken the command, it runs it once, and a failure is reported by
:func:`~textcontract.cli._errors.failure_exit_code`, the same function the typer commands
use — a command is never run twice (a contract given as ``<(cat c.yaml)`` can be read
only once). ``--batch -`` reads the batch from standard input.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textcontract.cli._check_run import CheckRequest

__all__ = ["fast_check", "parse_request"]

_LONG = {
    "--baseline": "baseline",
    "--batch": "batch",
    "--context": "context",
    "--contract": "contract",
    "--exclude": "exclude",
    "--format": "format",
    "--jobs": "jobs",
    "--output": "output",
    "--sarif-output": "sarif-output",
    "--stdin-format": "stdin-format",
}
_SHORT = {"-c": "contract", "-f": "format", "-j": "jobs", "-o": "output"}
_FLAGS = {"--verbose": "verbose", "-v": "verbose", "--quiet": "quiet", "-q": "quiet"}
_FORMATS = ("text", "json", "jsonl", "sarif", "junit", "github")
_STDIN_FORMATS = ("plain", "markdown", "html", "json")
_STDIN = "-"


def _plain_values(options: dict[str, str]) -> bool:
    """Whether every value is one typer would take as it is (else typer says why not)."""
    if options.get("format", "text") not in _FORMATS:
        return False
    if options.get("stdin-format", "markdown") not in _STDIN_FORMATS:
        return False
    jobs = options.get("jobs", "1")
    if not (jobs.isascii() and jobs.isdigit() and int(jobs) >= 1):
        return False
    return not any(options.get(name, "").endswith("/") for name in ("output", "sarif-output"))


def _option(argument: str, rest: Iterator[str]) -> tuple[str, str] | None:
    """``(name, value)`` of an option with a value, taking the value from ``rest`` unless it
    is inline (``--name=value``); None for anything typer must parse."""
    name, equals, inline = argument.partition("=")
    if name in _LONG and equals:
        value: str | None = inline
    elif name in _LONG or (argument in _SHORT and not equals):
        value = next(rest, None)
    else:
        return None  # --help, --, unknown options, -fjson and other short forms
    key = _LONG.get(name) or _SHORT[name]
    if not value or (value.startswith("-") and not (key == "batch" and value == _STDIN)):
        return None
    return key, value


_REPEATABLE = frozenset({"exclude"})


def _parse(arguments: list[str]) -> tuple[list[str], dict[str, str], list[str]] | None:
    """Documents, option values and ``--exclude`` patterns (in order), or None when typer
    must parse the arguments."""
    if not arguments or arguments[0] != "check":
        return None
    documents: list[str] = []
    options: dict[str, str] = {}
    excluded: list[str] = []
    rest = iter(arguments[1:])
    for argument in rest:
        if not argument.startswith("-") or argument == _STDIN:
            documents.append(argument)
            continue
        if argument in _FLAGS:
            options[_FLAGS[argument]] = "yes"
            continue
        option = _option(argument, rest)
        if option is None:
            return None
        if option[0] in _REPEATABLE:
            excluded.append(option[1])
        else:
            options[option[0]] = option[1]
    if not (documents or "batch" in options) or any(not document for document in documents):
        return None
    return (documents, options, excluded) if _plain_values(options) else None


def parse_request(arguments: list[str]) -> CheckRequest | None:
    """The request a plain ``check`` command line makes, or None to hand it to typer."""
    parsed = _parse(arguments)
    if parsed is None:
        return None
    documents, options, excluded = parsed
    from textcontract.cli._check_run import CheckFormat, CheckRequest, StdinFormat

    def path(name: str) -> Path | None:
        value = options.get(name)
        return None if value is None else Path(value)

    return CheckRequest(
        documents=tuple(documents),
        context=options.get("context"),
        contract=path("contract"),
        output_format=CheckFormat(options.get("format", "text")),
        output=path("output"),
        batch=options.get("batch"),
        stdin_format=StdinFormat(options.get("stdin-format", "markdown")),
        jobs=int(options.get("jobs", "1")),
        verbose="verbose" in options,
        quiet="quiet" in options,
        baseline=options.get("baseline"),
        exclude=tuple(excluded),
        sarif_output=path("sarif-output"),
    )


def fast_check(arguments: list[str]) -> int | None:
    """The exit code of a plain ``check`` invocation, or None to hand it to typer."""
    request = parse_request(arguments)
    if request is None:
        return None
    from textcontract.cli._actions import fenced_stdout
    from textcontract.cli._check_run import run_check

    try:
        with fenced_stdout():
            return run_check(request)
    except SystemExit:
        raise
    except BaseException as error:
        from textcontract.cli._errors import failure_exit_code

        return failure_exit_code(error)
