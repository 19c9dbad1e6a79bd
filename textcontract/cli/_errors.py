"""The one place where exceptions become exit codes and stderr lines."""

from __future__ import annotations

import functools
import sys
import traceback
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import typer

from textcontract.errors import ExitCode, InputError, TextcontractError

__all__ = ["exits_with_codes"]

P = ParamSpec("P")
R = TypeVar("R")


def _report(error: TextcontractError) -> None:
    if isinstance(error, InputError):
        for problem in error.problems:
            typer.echo(f"error: {problem.render()}", err=True)
    else:
        typer.echo(f"error: {error}", err=True)


def exits_with_codes(command: Callable[P, int]) -> Callable[P, None]:
    """Wrap a command that returns its exit code; map library errors to theirs.

    Input errors print every problem (file:line:column: key: message) and exit
    2; a refused artifact set exits 4; anything unexpected is an internal
    error (exit 3) and keeps its traceback, because it is a bug to report.
    """

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> None:
        try:
            code = command(*args, **kwargs)
        except TextcontractError as error:
            _report(error)
            raise typer.Exit(int(error.exit_code)) from None
        except (typer.Exit, typer.Abort):
            raise
        except KeyboardInterrupt:
            typer.echo("interrupted", err=True)
            raise typer.Exit(130) from None
        except Exception:
            typer.echo("internal error (a bug in textcontract; please report it):", err=True)
            traceback.print_exc(file=sys.stderr)
            raise typer.Exit(int(ExitCode.INTERNAL_ERROR)) from None
        raise typer.Exit(code)

    return wrapper
