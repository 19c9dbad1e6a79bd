"""A fast path for the hot command: ``textcontract check … --format json|jsonl``.

Starting typer (with click, pydantic and rich) costs more than loading a contract and
checking a document, so :func:`main` first offers the arguments to :func:`fast_check`.
It accepts only plain invocations — ``check``, document paths, and ``--context``,
``--contract``/``-c``, ``--format``/``-f`` (``json`` or ``jsonl``), ``--output``/``-o``
each with a value (``--name value`` or ``--name=value``) — and runs the same
:func:`~textcontract.cli._check_run.run_check` the typer command runs. Anything else
(help, another command, the text format, an unknown or malformed option, a value that
starts with ``-``) returns ``None`` and typer parses the command line as always: the
hand-over is for parsing only. Once the fast path has taken the command, it runs it once,
and a failure is reported by :func:`~textcontract.cli._errors.failure_exit_code`, the
same function the typer commands use — inputs are never read twice (a contract given as
``<(cat c.yaml)`` can be read only once).
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["fast_check"]

_LONG = {
    "--context": "context",
    "--contract": "contract",
    "--format": "format",
    "--output": "output",
}
_SHORT = {"-c": "contract", "-f": "format", "-o": "output"}
_FORMATS = ("json", "jsonl")


def _parse(arguments: list[str]) -> tuple[list[str], dict[str, str]] | None:
    """Documents and option values, or None when typer must parse the arguments."""
    if not arguments or arguments[0] != "check":
        return None
    documents: list[str] = []
    options: dict[str, str] = {}
    rest = iter(arguments[1:])
    for argument in rest:
        if not argument.startswith("-"):
            documents.append(argument)
            continue
        name, equals, inline = argument.partition("=")
        if name in _LONG and equals:
            value: str | None = inline
        elif name in _LONG or (argument in _SHORT and not equals):
            value = next(rest, None)
        else:
            return None  # --help, --, -, unknown options, -fjson and other short forms
        if not value or value.startswith("-"):
            return None
        options[_LONG.get(name) or _SHORT[name]] = value
    if not documents or any(not document for document in documents):
        return None
    if options.get("format") not in _FORMATS:
        return None  # the text format renders with rich as it goes: leave it to typer
    return documents, options


def fast_check(arguments: list[str]) -> int | None:
    """The exit code of a plain ``check`` invocation, or None to hand it to typer."""
    parsed = _parse(arguments)
    if parsed is None:
        return None
    documents, options = parsed
    from textcontract.cli._check_run import CheckFormat, run_check

    def path(name: str) -> Path | None:
        value = options.get(name)
        return None if value is None else Path(value)

    try:
        return run_check(
            [Path(document) for document in documents],
            path("context"),
            path("contract"),
            CheckFormat(options["format"]),
            path("output"),
        )
    except SystemExit:
        raise
    except BaseException as error:
        from textcontract.cli._errors import failure_exit_code

        return failure_exit_code(error)
